//! The one cursor of a query read over shards: checked before anything is
//! sent, like every cursor — another shard count, another partition, a
//! single partition's cursor, a tampered one — and sealed like every
//! cursor on a handle that seals them.

use ddb_entity::op::{CursorFault, Page};
use ddb_entity::{Cursor, CursorSeal, ErrorKind};

use super::*;

async fn seeded() -> (LocalDynamo, Db<App>, QueryLog, Vec<StatusOrder>) {
    let (dynamo, db, log) = logged_table().await;
    let orders = skewed_orders(
        [3, 0, 2, 5, 1, 1, 0, 4, 2, 2, 1, 0, 3, 1, 1, 2],
        Status::Open,
    );
    put_all(&db, &orders).await;
    log.clear();
    (dynamo, db, log, index_order(&orders))
}

async fn first_page(db: &Db<App>) -> Cursor {
    let page: Page<Vec<StatusOrder>> = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .page_size(5)
        .page()
        .await
        .unwrap();
    page.cursor.unwrap()
}

fn refused(err: ddb_entity::Error, fault: CursorFault, says: &str) {
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err}");
    assert_eq!(err.cursor_fault(), Some(fault), "{err}");
    assert!(err.to_string().contains(says), "{err}");
}

#[tokio::test]
async fn a_cursor_is_refused_by_another_shard_count_partition_or_query_shape() {
    let (_dynamo, db, log, _) = seeded().await;
    let cursor = first_page(&db).await;
    log.clear();

    // The same partition prefix over 8 shards: a re-sharded layout.
    let err = db
        .query(StatusOrder8::gsi1_partition(Status::Open).unwrap())
        .after(cursor.clone())
        .all::<StatusOrder8>()
        .await
        .unwrap_err();
    refused(
        err,
        CursorFault::Mismatch,
        "made over 16 shards and this partition has 8",
    );

    // Another status's shards.
    let err = db
        .query(StatusOrder::gsi1_partition(Status::Shipped).unwrap())
        .after(cursor.clone())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Mismatch, "another partition");

    // One shard on its own is a partition stored as one: not this cursor's.
    let err = db
        .query(
            StatusOrder::gsi1_partition(Status::Open)
                .unwrap()
                .shard(3)
                .unwrap(),
        )
        .after(cursor.clone())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Mismatch, "read over shards");

    // And a one-partition cursor is not a sharded query's.
    let single: Page<Vec<StatusOrder>> = db
        .query(
            StatusOrder::gsi1_partition(Status::Open)
                .unwrap()
                .shard(0)
                .unwrap(),
        )
        .page_size(1)
        .page()
        .await
        .unwrap();
    log.clear();
    let err = db
        .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
        .after(single.cursor.unwrap())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Mismatch, "one partition");
    // Nothing was sent for any of them.
    assert!(log.queries().is_empty());
}

#[tokio::test]
async fn a_tampered_or_truncated_cursor_is_refused() {
    let (_dynamo, db, log, _) = seeded().await;
    let text = first_page(&db).await.to_string();
    log.clear();
    let body = text.strip_prefix("m2.").unwrap();
    // Cut short: its shards' positions are incomplete.
    let cut: Result<Cursor, _> = format!("m2.{}", &body[..body.len() - 8]).parse();
    let err = match cut {
        Err(err) => err,
        Ok(cursor) => db
            .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
            .after(cursor)
            .all::<StatusOrder>()
            .await
            .unwrap_err(),
    };
    assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err}");
    // A character changed in the partition: refused as another's.
    let mut bytes = body.as_bytes().to_vec();
    let at = body.find("U1RBVFVT").map_or(12, |at| at + 2);
    bytes[at] = if bytes[at] == b'A' { b'B' } else { b'A' };
    let changed = format!("m2.{}", String::from_utf8(bytes).unwrap());
    if let Ok(cursor) = changed.parse::<Cursor>() {
        let err = db
            .query(StatusOrder::gsi1_partition(Status::Open).unwrap())
            .after(cursor)
            .all::<StatusOrder>()
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidCursor, "{err}");
    }
    // Not base64url, or not a cursor.
    assert!("m2.!!".parse::<Cursor>().is_err());
    assert!(log.queries().is_empty());
}

#[tokio::test]
async fn sealed_handles_seal_the_composite_cursor_too() {
    let (_dynamo, db, log, sorted) = seeded().await;
    let seal = CursorSeal::new(1, [7; 32]);
    let sealed = db.clone().with_cursor_seal(seal.clone());
    let open = || StatusOrder::gsi1_partition(Status::Open).unwrap();

    // Every page through a sealed cursor: the whole order.
    let mut read = Vec::new();
    let mut cursor: Option<Cursor> = None;
    loop {
        let mut query = sealed.query(open()).page_size(4);
        if let Some(cursor) = cursor.take() {
            query = query.after(cursor);
        }
        let page: Page<Vec<StatusOrder>> = query.page().await.unwrap();
        read.extend(page.items);
        match page.cursor {
            Some(next) => {
                assert!(next.is_sealed());
                let text = next.to_string();
                assert!(text.starts_with("s1."), "{text}");
                // The key values are not readable in it.
                assert!(!text.contains("U1RBVFVT"));
                cursor = Some(text.parse().unwrap());
            }
            None => break,
        }
    }
    assert_eq!(read, sorted);

    // Bound to its query: not another count, direction or partition, and
    // not an unsealed handle; an unsealed composite is not taken either.
    let page: Page<Vec<StatusOrder>> = sealed.query(open()).page_size(4).page().await.unwrap();
    let cursor = page.cursor.unwrap();
    log.clear();
    let err = sealed
        .query(StatusOrder8::gsi1_partition(Status::Open).unwrap())
        .after(cursor.clone())
        .all::<StatusOrder8>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Unauthentic, "not sealed for this query");
    let err = sealed
        .query(open())
        .reverse(true)
        .after(cursor.clone())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Unauthentic, "not sealed for this query");
    let err = sealed
        .query(open().shard(2).unwrap())
        .after(cursor.clone())
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Unauthentic, "not sealed for this query");
    let err = db
        .query(open())
        .after(cursor)
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::NoSeal, "sealed");
    let unsealed = first_page(&db).await;
    log.clear();
    let err = sealed
        .query(open())
        .after(unsealed)
        .all::<StatusOrder>()
        .await
        .unwrap_err();
    refused(err, CursorFault::Unsealed, "not sealed");
    assert!(log.queries().is_empty());
}
