//! Typed query and scan pages, typed gets and batch gets decode their
//! entities from the response bytes, not from the SDK's `AttributeValue` maps: every kind of value
//! reads back through the real server exactly as a get (the SDK's items)
//! reads it, and a response body cut short at the HTTP layer fails a
//! typed read with the bytes path's own error while `count()` and a
//! hand-written collection (which read the SDK's items) fail with the
//! SDK's. A hand-written collection receives every item whole, as before.

use std::collections::BTreeMap;
use std::sync::Arc;

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, SharedHttpConnector,
};
use aws_smithy_types::body::SdkBody;
use ddb_entity::{Collection, Db, Entity, ErrorKind, Item, Member, Table};
use serde::{Deserialize, Serialize};

use crate::support::{App, Around, app_table, operation, read_body, table_around};

/// Every kind of value a body holds.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "RICH#{group}", sk = "N#{seq}")]
struct Rich {
    group: String,
    seq: u32,
    text: String,
    note: Option<String>,
    list: Vec<Option<String>>,
    nested: BTreeMap<String, Vec<f64>>,
    #[serde(with = "serde_dynamo::string_set", default)]
    names: Vec<String>,
    #[serde(with = "serde_dynamo::number_set", default)]
    numbers: Vec<u64>,
    big: u64,
    small: i64,
    ratio: f64,
    flag: bool,
}

fn rich(seq: u32) -> Rich {
    let texts = [
        "plain",
        "quotes \" and \\ backslashes, a\ttab and a\nnewline",
        "日本語のテキスト, emoji 🎉, e\u{301}, \u{0}NUL, \u{7f} and \u{2028}",
        "",
    ];
    Rich {
        group: "g \"1\" é".into(),
        seq,
        text: texts[seq as usize % texts.len()].into(),
        note: seq.is_multiple_of(2).then(|| format!("note {seq} ✓")),
        list: vec![Some("a".into()), None, Some(texts[1].into())],
        nested: BTreeMap::from([
            (
                "pi \u{3c0}".into(),
                vec![std::f64::consts::PI, -0.0, 9.999_999_999_999e125],
            ),
            ("tiny".into(), vec![1e-130, -1.5e-130]),
        ]),
        names: vec!["x".into(), "y \"z\"".into(), "日本".into()],
        numbers: vec![0, u64::MAX, 1 << 53],
        big: u64::MAX - u64::from(seq),
        small: i64::MIN + i64::from(seq),
        ratio: 1.0 / f64::from(seq + 3),
        flag: seq.is_multiple_of(3),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_value_reads_from_the_bytes_as_from_the_sdk_s_items() {
    let (_dynamo, db) = app_table().await;
    let stored: Vec<Rich> = (0..9).map(rich).collect();
    for value in &stored {
        db.put(value).await.unwrap();
    }
    let partition = || Rich::partition("g \"1\" é".to_owned()).unwrap();
    // In the partition's order (the sort key's text), each read by a raw
    // GetItem: the SDK's item, decoded by `from_item`. (The server
    // normalises some values: `-0` is stored as `0`, a set has no order.)
    let mut by_key = stored.clone();
    by_key.sort_by_key(|value| value.seq.to_string());
    let mut expected = Vec::new();
    for value in &by_key {
        let key = Rich::key(value.group.clone(), value.seq).unwrap();
        let raw = db
            .client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(key.to_attributes()))
            .send()
            .await
            .unwrap();
        let item = Rich::from_item(raw.item.unwrap()).unwrap();
        // A typed get reads the same value from the bytes.
        assert_eq!(db.get(key).await.unwrap().as_ref(), Some(&item));
        expected.push(item);
    }
    let queried: Vec<Rich> = db.query(partition()).all().await.unwrap();
    assert_eq!(queried, expected);
    // Pages, with a cursor, of a query; and a scan.
    let page = db
        .query(partition())
        .page_size(4)
        .page::<Vec<Rich>>()
        .await
        .unwrap();
    assert_eq!(page.items, expected[..4]);
    let rest = db
        .query(partition())
        .after(page.cursor.unwrap())
        .all::<Rich>()
        .await
        .unwrap();
    assert_eq!(rest, expected[4..]);
    let mut scanned: Vec<Rich> = db.scan().all::<Rich>().await.unwrap();
    scanned.sort_by_key(|value| value.seq.to_string());
    assert_eq!(scanned, expected);
}

/// Cuts every successful Query's, GetItem's and BatchGetItem's answer in
/// half.
struct CutQueries;

impl Around for CutQueries {
    fn call(&self, inner: &SharedHttpConnector, request: HttpRequest) -> HttpConnectorFuture {
        let query = matches!(operation(&request), "Query" | "GetItem" | "BatchGetItem");
        let sent = inner.call(request);
        HttpConnectorFuture::new(async move {
            let mut response: HttpResponse = sent.await?;
            if query && response.status().is_success() {
                let body = read_body(response.take_body()).await?;
                *response.body_mut() = SdkBody::from(body[..body.len() / 2].to_vec());
            }
            Ok(response)
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_cut_short_fails_a_typed_read_on_the_bytes_path_and_a_count_on_the_sdk_s() {
    let (_dynamo, db, clean, _layer): (_, Db<App>, Db<App>, Arc<CutQueries>) = table_around(
        "bytes-cut",
        false,
        |_| std::time::Duration::from_secs(30),
        |_| CutQueries,
    )
    .await;
    for value in (0..5).map(rich) {
        clean.put(&value).await.unwrap();
    }
    let partition = || Rich::partition("g \"1\" é".to_owned()).unwrap();
    let typed = db.query(partition()).all::<Rich>().await.unwrap_err();
    assert_eq!(typed.kind(), ErrorKind::Service, "{typed}");
    assert!(
        typed
            .to_string()
            .contains("the Query response is not DynamoDB's JSON"),
        "{typed}"
    );
    // A hand-written collection keeps the SDK's items: the SDK's error.
    let hand = db.query(partition()).collect::<Whole>().await.unwrap_err();
    assert_eq!(hand.kind(), ErrorKind::Service, "{hand}");
    assert!(
        !hand.to_string().contains("is not DynamoDB's JSON"),
        "{hand}"
    );
    let counted = db.query(partition()).count().await.unwrap_err();
    assert_eq!(counted.kind(), ErrorKind::Service, "{counted}");
    assert!(
        !counted.to_string().contains("is not DynamoDB's JSON"),
        "{counted}"
    );
    // A get reads its item from the bytes: the bytes path's error.
    let key = || Rich::key("g \"1\" é".to_owned(), 1).unwrap();
    let got = db.get(key()).await.unwrap_err();
    assert_eq!(got.kind(), ErrorKind::Service, "{got}");
    assert!(
        got.to_string()
            .contains("the GetItem response is not DynamoDB's JSON"),
        "{got}"
    );
    assert!(clean.get(key()).await.unwrap().is_some());
    // So does a batch get into a derived collection (the request's error
    // stops the batch: its keys are unprocessed); a hand-written one keeps
    // the SDK's items, and its error.
    let batched = db
        .batch_get()
        .get(key())
        .collect::<Vec<Rich>>()
        .await
        .unwrap_err();
    assert_eq!(batched.kind(), ErrorKind::UnprocessedKeys, "{batched}");
    assert!(
        batched
            .to_string()
            .contains("the BatchGetItem response is not DynamoDB's JSON"),
        "{batched}"
    );
    let hand = db
        .batch_get()
        .get(key())
        .collect::<Whole>()
        .await
        .unwrap_err();
    assert_eq!(hand.kind(), ErrorKind::UnprocessedKeys, "{hand}");
    assert!(
        !hand.to_string().contains("is not DynamoDB's JSON"),
        "{hand}"
    );
    let read: Vec<Rich> = clean.batch_get().get(key()).collect().await.unwrap();
    assert_eq!(read.len(), 1);
    // The clean client reads them all.
    assert_eq!(
        clean.query(partition()).all::<Rich>().await.unwrap().len(),
        5
    );
}

/// A hand-written collection that reads the items' attributes itself.
#[derive(Default, Debug)]
struct Whole(Vec<Item>);

impl Collection for Whole {
    type Table = App;
    const NAME: &'static str = "Whole";
    const TYPES: &'static [&'static str] = &["rich"];
    const MEMBERS: &'static [Member] = &[Member::of::<Rich>()];

    fn push_item(&mut self, _: &str, item: Item) -> ddb_entity::Result<bool> {
        self.0.push(item);
        Ok(true)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_written_collection_receives_every_item_whole_from_the_sdk() {
    let (_dynamo, db) = app_table().await;
    let stored: Vec<Rich> = (0..5).map(rich).collect();
    for value in &stored {
        db.put(value).await.unwrap();
    }
    let partition = || Rich::partition("g \"1\" é".to_owned()).unwrap();
    let whole = db.query(partition()).collect::<Whole>().await.unwrap();
    assert_eq!(whole.0.len(), 5);
    let schema = App::SCHEMA;
    for item in &whole.0 {
        // Exactly the stored item, as a raw get returns it: keys, type
        // and body attributes alike.
        let got = db
            .client()
            .get_item()
            .table_name(db.table_name())
            .key("PK", item["PK"].clone())
            .key("SK", item["SK"].clone())
            .send()
            .await
            .unwrap()
            .item
            .unwrap();
        assert_eq!(item, &got);
        assert!(item.contains_key(schema.type_attribute));
        assert!(item.contains_key("text"));
    }
    // A batch get into it receives the same items whole.
    let mut batch = db.batch_get();
    for value in &stored {
        batch = batch.get(Rich::key(value.group.clone(), value.seq).unwrap());
    }
    let batched = batch.collect::<Whole>().await.unwrap();
    assert_eq!(batched.0.len(), 5);
    for item in &batched.0 {
        assert!(whole.0.contains(item));
    }
    // A derived collection of the same items decodes them from the bytes.
    let typed: Vec<Rich> = db.query(partition()).all().await.unwrap();
    assert_eq!(typed.len(), 5);
}
