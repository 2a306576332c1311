//! Exact semantics on every source (issue 24): `limit(n)` on one partition
//! returns n items of the asked type even where the sort key starts with
//! a hole and another type shares the partition; a sharded cursor resumes
//! from the merged position, so items written below it meanwhile never
//! come back. Requests counted at the SDK layer.

use ddb_entity::Entity;
use ddb_entity::op::Page;
use serde::{Deserialize, Serialize};

use crate::support::{App, Gsi1, logged_app_table};

/// A note on a board, found on the board by the time it was updated: an
/// index sort key that starts with a hole (no leading literal to bound a
/// range by).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
#[entity(index = Gsi1, pk = "BOARD#{board}", sk = "{updated_at}")]
struct Note {
    id: u32,
    board: u32,
    updated_at: u32,
}

/// The board's own item, in the same index partition, its sort key a
/// number of the same width.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "BOARD#{board}", sk = "BOARD")]
#[entity(index = Gsi1, pk = "BOARD#{board}", sk = "{created}")]
struct Board {
    board: u32,
    created: u32,
}

#[tokio::test]
async fn a_limit_on_a_shared_partition_returns_the_asked_type_only() {
    let (_dynamo, db, log) = logged_app_table().await;
    for (id, updated_at) in [(1, 100), (2, 200), (3, 300)] {
        db.put(&Note {
            id,
            board: 7,
            updated_at,
        })
        .await
        .unwrap();
    }
    // The board sorts between the notes and after them.
    db.put(&Board {
        board: 7,
        created: 250,
    })
    .await
    .unwrap();
    let board = || db.query(Note::gsi1_partition(7u32).unwrap());
    log.clear();

    // Newest first: 300, then the board (read, passed over), then 200.
    let latest: Vec<Note> = board().reverse(true).limit(2).all().await.unwrap();
    assert_eq!(
        latest.iter().map(|n| n.updated_at).collect::<Vec<_>>(),
        [300, 200],
        "it used to return one note"
    );
    assert!(log.count("Query") <= 2, "{:?}", log.operations());

    // After 200: the board first, then 300.
    let after: Vec<Note> = board()
        .sk_gt(Note::gsi1_sk().updated_at(200u32))
        .limit(1)
        .all()
        .await
        .unwrap();
    assert_eq!(
        after.iter().map(|n| n.updated_at).collect::<Vec<_>>(),
        [300],
        "it used to return none"
    );

    // A limited page's cursor resumes right after its last item.
    let page: Page<Vec<Note>> = board().limit(2).page().await.unwrap();
    assert_eq!(
        page.items.iter().map(|n| n.updated_at).collect::<Vec<_>>(),
        [100, 200]
    );
    let rest: Vec<Note> = board()
        .after(page.cursor.expect("more to read"))
        .all()
        .await
        .unwrap();
    assert_eq!(rest.iter().map(|n| n.updated_at).collect::<Vec<_>>(), [300]);
    // `count` is what `all` returns, up to the limit.
    assert_eq!(board().limit(2).count().await.unwrap(), 2);
}

/// A feed over 16 shards.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "LOG#{day}#{shard(seq) % 16}", sk = "SEQ#{seq}")]
struct LogLine {
    day: u32,
    seq: u64,
}

#[tokio::test]
async fn a_sharded_cursor_resumes_from_the_merged_position() {
    let (_dynamo, db, _log) = logged_app_table().await;
    // Sequence numbers 1000, 2000, … 100000, spread over the shards.
    let mut batch = db.batch_write();
    for seq in (1..=100u64).map(|n| n * 1000) {
        batch = batch.put(&LogLine { day: 1, seq });
    }
    batch.await.unwrap();
    let feed = || db.query(LogLine::partition(1u32).unwrap());
    let page: Page<Vec<LogLine>> = feed().page_size(10).page().await.unwrap();
    let seen: Vec<u64> = page.items.iter().map(|l| l.seq).collect();
    assert_eq!(seen, (1..=10u64).map(|n| n * 1000).collect::<Vec<_>>());
    let cursor = page.cursor.expect("more to read");
    assert!(cursor.to_string().starts_with("m2."), "{cursor:?}");

    // 64 lines written just below the last sort key returned (9936..9999):
    // in shards whose own position is far below it.
    let mut batch = db.batch_write();
    for seq in 9_936..10_000u64 {
        batch = batch.put(&LogLine { day: 1, seq });
    }
    batch.await.unwrap();

    let rest: Vec<u64> = feed()
        .after(cursor)
        .all::<LogLine>()
        .await
        .unwrap()
        .iter()
        .map(|l| l.seq)
        .collect();
    // One partition would return none of them: nor does the merge, and
    // what follows comes in order.
    assert_eq!(rest, (11..=100u64).map(|n| n * 1000).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_scan_can_skip_and_report_items_that_do_not_decode() {
    use std::sync::{Arc, Mutex};

    use aws_sdk_dynamodb::types::AttributeValue::S;
    use futures_util::TryStreamExt;

    let (_dynamo, db, _log) = logged_app_table().await;
    for id in 1..=3 {
        db.put(&Note {
            id,
            board: 1,
            updated_at: id,
        })
        .await
        .unwrap();
    }
    // A `note` another tool wrote without its fields.
    db.client()
        .put_item()
        .table_name(db.table_name())
        .item("PK", S("NOTE#9".into()))
        .item("SK", S("NOTE".into()))
        .item("_type", S("note".into()))
        .send()
        .await
        .unwrap();
    // Strict by default: the first such item fails the scan.
    let err = db.scan().all::<Note>().await.unwrap_err();
    assert_eq!(err.kind(), ddb_entity::ErrorKind::Decode, "{err}");

    let skipped = Arc::new(Mutex::new(Vec::new()));
    let report = |log: Arc<Mutex<Vec<String>>>| {
        move |err: ddb_entity::Error| log.lock().unwrap().push(err.to_string())
    };
    let notes: Vec<Note> = db
        .scan()
        .on_undecodable(report(Arc::clone(&skipped)))
        .all()
        .await
        .unwrap();
    assert_eq!(notes.len(), 3);
    assert_eq!(skipped.lock().unwrap().len(), 1);
    assert!(skipped.lock().unwrap()[0].contains("NOTE#9"), "{skipped:?}");

    // The jobs' page stream alike, with a limit kept exact past it.
    let pages: Vec<ddb_entity::op::ScanPage<Vec<Note>>> = db
        .scan()
        .page_size(1)
        .on_undecodable(report(Arc::clone(&skipped)))
        .pages()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(pages.iter().map(|p| p.items.len()).sum::<usize>(), 3);
    let three: Vec<Note> = db
        .scan()
        .page_size(1)
        .limit(3)
        .on_undecodable(report(Arc::clone(&skipped)))
        .all()
        .await
        .unwrap();
    assert_eq!(three.len(), 3);
    // Reported once more only if the scan read it before the third note.
    assert!(
        (2..=3).contains(&skipped.lock().unwrap().len()),
        "{skipped:?}"
    );
}
