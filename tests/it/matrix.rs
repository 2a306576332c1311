//! The read engine's matrix (issue 24, "Done when"): every finishing
//! method × every source (a partition, a sharded partition, a
//! multi-attribute index, a scan of all segments, one scan segment) ×
//! a table of mixed, foreign, untyped and expired items × limit, filter,
//! projection, reverse and resume — each result equal to an in-memory
//! model of the same items, with the requests counted at the SDK layer.
//! The cases come from a seeded generator: deterministic, a few seconds
//! per server (the embedded one, or `DDB_ENDPOINT`).

use std::collections::BTreeSet;
use std::time::{SystemTime, UNIX_EPOCH};

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::local::LocalDynamo;
use ddb_entity::op::{Page, ScanPage};
use ddb_entity::{CursorSeal, Db, Entity, UnknownItems};
use futures_util::TryStreamExt;
use serde::{Deserialize, Serialize};

use crate::support::{RequestLog, logged_client, put_raw};

ddb_entity::table! {
    /// Every source over one set of items.
    pub struct Mx {
        partition_key: "PK",
        sort_key: "SK",
        ttl_attribute: "expires_at",
        indexes: {
            /// A sharded partition, its sort key starting with a hole.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
        multi_key_indexes: {
            /// By group, then rank.
            pub ByGroup = "ByGroup" { partition_key: ["grp": S], sort_key: ["rank": N] },
        },
    }
}

/// The asked entity.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Mx, pk = "P#{p}", sk = "ITEM#{n}")]
#[entity(index = Gsi1, pk = "FEED#{p}#{shard(n) % 4}", sk = "{n}")]
struct Thing {
    p: u32,
    n: u32,
    #[serde(default)]
    hot: bool,
    #[serde(default)]
    grp: String,
    #[serde(default)]
    rank: u32,
    #[serde(default)]
    expires_at: Option<u64>,
}

/// Another entity everywhere the asked one is, interleaved with it.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Mx, pk = "P#{p}", sk = "ITEM#{n}#OTHER", type = "OTHER")]
#[entity(index = Gsi1, pk = "FEED#{p}#{shard(n) % 4}", sk = "{n}")]
struct Other {
    p: u32,
    n: u32,
    hot: bool,
    grp: String,
    rank: u32,
}

/// What each `n` is stored as.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Thing { hot: bool, expired: bool },
    Other,
    Foreign,
    Untyped,
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const ITEMS: u32 = 80;

fn kinds(rng: &mut Rng) -> Vec<Kind> {
    (0..ITEMS)
        .map(|_| match rng.below(10) {
            0..=5 => Kind::Thing {
                hot: rng.below(3) == 0,
                expired: rng.below(8) == 0,
            },
            6 | 7 => Kind::Other,
            8 => Kind::Foreign,
            _ => Kind::Untyped,
        })
        .collect()
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

async fn store(db: &Db<Mx>, kinds: &[Kind]) {
    let mut batch = db.batch_write();
    let mut raw = Vec::new();
    for (n, kind) in (0u32..).zip(kinds) {
        match *kind {
            Kind::Thing { hot, expired } => {
                batch = batch.put(&Thing {
                    p: 1,
                    n,
                    hot,
                    grp: "g".into(),
                    rank: n,
                    expires_at: Some(if expired { 1_000 } else { now() + 86_400 }),
                });
            }
            Kind::Other => {
                batch = batch.put(&Other {
                    p: 1,
                    n,
                    hot: true,
                    grp: "g".into(),
                    rank: n,
                });
            }
            Kind::Foreign | Kind::Untyped => raw.push((n, *kind)),
        }
    }
    batch.await.expect("the batch is written");
    // Items another tool wrote, with every attribute the sources read:
    // a typed item rewritten with another type attribute, or none.
    for (n, kind) in raw {
        let thing = Thing {
            p: 1,
            n,
            hot: true,
            grp: "g".into(),
            rank: n,
            expires_at: None,
        };
        db.put(&thing).await.unwrap();
        let key = Thing::key(1u32, n).unwrap();
        let mut item = db
            .client()
            .get_item()
            .table_name(db.table_name())
            .set_key(Some(key.to_attributes()))
            .consistent_read(true)
            .send()
            .await
            .unwrap()
            .item
            .expect("just written");
        match kind {
            Kind::Foreign => {
                item.insert("_type".into(), AttributeValue::S("Stranger".into()));
            }
            _ => {
                item.remove("_type");
            }
        }
        put_raw(db, item).await;
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Source {
    Partition,
    Shards,
    Multi,
    Scan,
    Segment(u32),
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Method {
    All,
    First,
    One,
    Count,
    Page,
    Pages,
    Resume,
}

#[derive(Debug, Clone, Copy)]
struct Case {
    source: Source,
    method: Method,
    limit: Option<usize>,
    hot_only: bool,
    projected: bool,
    reverse: bool,
    page_size: Option<usize>,
    sealed: bool,
}

const SEGMENTS: u32 = 3;

const SOURCES: [Source; 5] = [
    Source::Partition,
    Source::Shards,
    Source::Multi,
    Source::Scan,
    Source::Segment(0),
];

const METHODS: [Method; 7] = [
    Method::All,
    Method::First,
    Method::One,
    Method::Count,
    Method::Page,
    Method::Pages,
    Method::Resume,
];

/// A case of `source` and `method`, its other options drawn.
fn case(rng: &mut Rng, source: Source, method: Method) -> Case {
    let source = match source {
        Source::Segment(_) => Source::Segment(rng.below(u64::from(SEGMENTS)) as u32),
        other => other,
    };
    let scan = matches!(source, Source::Scan | Source::Segment(_));
    Case {
        source,
        method,
        limit: (rng.below(2) == 0).then(|| 1 + rng.below(12) as usize),
        hot_only: rng.below(2) == 0,
        projected: rng.below(3) == 0,
        reverse: !scan && rng.below(2) == 0,
        page_size: (rng.below(2) == 0).then(|| 2 + rng.below(9) as usize),
        sealed: !scan && rng.below(2) == 0,
    }
}

/// What a case must return: the asked type's live items of the source,
/// in its order (sort key, index key or rank: `n` for all three).
fn model(kinds: &[Kind], case: &Case) -> Vec<u32> {
    let mut ns: Vec<u32> = (0u32..)
        .zip(kinds)
        .filter_map(|(n, kind)| match kind {
            Kind::Thing {
                hot,
                expired: false,
            } if *hot || !case.hot_only => Some(n),
            _ => None,
        })
        .collect();
    if case.reverse {
        ns.reverse();
    }
    ns
}

/// What a count must say: without a filter every live item of the
/// source, whatever its type (a count has no collection to route by); with
/// one, the filtered entity's items that satisfy it — what `all()` of it
/// returns.
fn counted(kinds: &[Kind], case: &Case) -> usize {
    if case.hot_only {
        return model(kinds, case).len();
    }
    kinds
        .iter()
        .filter(|kind| !matches!(kind, Kind::Thing { expired: true, .. }))
        .count()
}

/// Every read of a case, built afresh (a builder is consumed by its
/// finishing method): the source's builder, configured, as `$r`.
macro_rules! read {
    ($db:expr, $case:expr, |$r:ident| $finish:expr) => {{
        let case: &Case = $case;
        let db: &Db<Mx> = $db;
        let hot = || Thing::fields().hot.equals(true);
        macro_rules! configured {
            ($builder:expr) => {{
                let mut b = $builder
                    .reverse(case.reverse)
                    .on_unknown(UnknownItems::Filter);
                if let Some(limit) = case.limit {
                    b = b.limit(limit);
                }
                if let Some(size) = case.page_size {
                    b = b.page_size(size);
                }
                if case.hot_only {
                    b = b.filter(hot());
                }
                if case.projected {
                    b = b.projection(["p", "n", "expires_at"]);
                }
                b
            }};
        }
        match case.source {
            Source::Partition => {
                let $r = configured!(db.query(Thing::partition(1u32).unwrap()));
                $finish
            }
            Source::Shards => {
                let $r = configured!(db.query(Thing::gsi1_partition(1u32).unwrap()));
                $finish
            }
            Source::Multi => {
                let $r = configured!(
                    db.query_multi::<ByGroup>()
                        .eq(Thing::fields().grp, "g".to_owned())
                );
                $finish
            }
            Source::Scan | Source::Segment(_) => unreachable!("scans are read by `scan_case`"),
        }
    }};
}

fn ns(things: &[Thing]) -> Vec<u32> {
    things.iter().map(|t| t.n).collect()
}

fn lanes(source: Source) -> usize {
    match source {
        Source::Shards => 4,
        Source::Scan => SEGMENTS as usize,
        _ => 1,
    }
}

/// Checks one query-like case (partition, shards, multi-attribute index).
async fn query_case(db: &Db<Mx>, log: &RequestLog, kinds: &[Kind], case: &Case) {
    let expected = model(kinds, case);
    let limited: Vec<u32> = expected
        .iter()
        .copied()
        .take(case.limit.unwrap_or(usize::MAX))
        .collect();
    log.clear();
    let got: Vec<Thing> = match case.method {
        Method::All => read!(db, case, |r| r.all().await.unwrap()),
        Method::First => read!(db, case, |r| r.first().await.unwrap())
            .into_iter()
            .collect(),
        Method::One => {
            let one: Result<Option<Thing>, _> = read!(db, case, |r| r.one().await);
            match one {
                Ok(found) => {
                    assert!(
                        limited.len() <= 1,
                        "{case:?}: one() found one of {limited:?}"
                    );
                    found.into_iter().collect()
                }
                Err(err) => {
                    assert_eq!(err.kind(), ddb_entity::ErrorKind::MoreThanOne, "{case:?}");
                    assert!(limited.len() > 1, "{case:?}");
                    return;
                }
            }
        }
        Method::Count => {
            let count = read!(db, case, |r| r.count().await.unwrap());
            let want = counted(kinds, case).min(case.limit.unwrap_or(usize::MAX));
            assert_eq!(count, want, "{case:?}");
            let bound = lanes(case.source) * requests_per_lane(case);
            assert!(
                log.count("Query") <= bound,
                "{case:?}: {}",
                log.count("Query")
            );
            return;
        }
        Method::Page => {
            let page: Page<Vec<Thing>> = read!(db, case, |r| r.page().await.unwrap());
            let want = case.page_size.map_or(limited.clone(), |size| {
                limited.iter().copied().take(size).collect()
            });
            if case.page_size.is_some() || lanes(case.source) > 1 {
                // A page of a size is filled; over shards without one, the
                // items one round yields: a prefix.
                assert!(
                    want.starts_with(&ns(&page.items)) || ns(&page.items) == want,
                    "{case:?}"
                );
            }
            if case.page_size.is_some() {
                assert_eq!(ns(&page.items), want, "{case:?}");
            }
            check_projection(case, &page.items);
            return;
        }
        Method::Pages => {
            let pages: Vec<Page<Vec<Thing>>> =
                read!(db, case, |r| r.pages().try_collect().await.unwrap());
            let seen: Vec<Thing> = pages.into_iter().flat_map(|p| p.items).collect();
            assert_eq!(ns(&seen), limited, "{case:?}");
            check_projection(case, &seen);
            return;
        }
        Method::Resume => {
            // Page after page, each a new query resumed from the last
            // page's cursor (through its text, as a client), each with the
            // case's limit: together, every item once and in order.
            let mut seen = Vec::new();
            let mut cursor: Option<ddb_entity::Cursor> = None;
            loop {
                let page: Page<Vec<Thing>> = match cursor.take() {
                    None => read!(db, case, |r| r.page().await.unwrap()),
                    Some(at) => {
                        let at: ddb_entity::Cursor = at.to_string().parse().unwrap();
                        read!(db, case, |r| r.after(at).page().await.unwrap())
                    }
                };
                seen.extend(page.items);
                match page.cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
                assert!(
                    log.count("Query") <= 4 * ITEMS as usize,
                    "{case:?} does not end"
                );
            }
            assert_eq!(ns(&seen), expected, "{case:?}");
            check_projection(case, &seen);
            return;
        }
    };
    let want: Vec<u32> = match case.method {
        Method::First | Method::One => limited.iter().copied().take(1).collect(),
        _ => limited.clone(),
    };
    assert_eq!(ns(&got), want, "{case:?}");
    check_projection(case, &got);
    // Every lane's first request, then whole pages: 100 items are one page
    // per lane, unless a page size splits them.
    let bound = lanes(case.source) * requests_per_lane(case) + lanes(case.source);
    assert!(
        log.count("Query") <= bound,
        "{case:?}: {} requests",
        log.count("Query")
    );
}

/// Requests a lane needs to read all of its items whole.
fn requests_per_lane(case: &Case) -> usize {
    // Every source's lane holds at most the ITEMS stored items (one per
    // `n`, of 4 kinds).
    let stored = ITEMS as usize;
    case.page_size.map_or(1, |size| stored.div_ceil(size) + 1)
}

fn check_projection(case: &Case, things: &[Thing]) {
    if case.projected {
        // A multi-attribute index's own attributes are always read (its
        // cursor and verification need them).
        let multi = case.source == Source::Multi;
        assert!(
            things.iter().all(|t| !t.hot && (multi || t.grp.is_empty())),
            "{case:?}: a projection reads only what it names"
        );
    } else {
        assert!(things.iter().all(|t| t.grp == "g"), "{case:?}");
    }
}

type ScanOf<'a> = ddb_entity::op::Scan<'a, ddb_entity::Primary<Mx>>;

fn limited(scan: ScanOf<'_>, limit: Option<usize>) -> ScanOf<'_> {
    match limit {
        Some(limit) => scan.limit(limit),
        None => scan,
    }
}

/// Checks one scan case: of every segment (`Scan`) or each one alone.
async fn scan_case(db: &Db<Mx>, log: &RequestLog, kinds: &[Kind], case: &Case) {
    let expected: BTreeSet<u32> = model(kinds, case).into_iter().collect();
    let scan = |segment: Option<u32>| {
        let mut s = db.scan();
        s = match segment {
            None => s.segments(SEGMENTS),
            Some(segment) => s.segment(segment, SEGMENTS),
        };
        if let Some(size) = case.page_size {
            s = s.page_size(size);
        }
        if case.hot_only {
            s = s.filter(Thing::fields().hot.equals(true));
        }
        if case.projected {
            s = s.projection(["p", "n", "expires_at"]);
        }
        s
    };
    // The segments' items, each read whole: the model's, each once.
    let mut per_segment = Vec::new();
    for segment in 0..SEGMENTS {
        per_segment.push(ns(&scan(Some(segment)).all::<Thing>().await.unwrap()));
    }
    let union: BTreeSet<u32> = per_segment.iter().flatten().copied().collect();
    assert_eq!(union, expected, "{case:?}");
    assert_eq!(
        per_segment.iter().map(Vec::len).sum::<usize>(),
        expected.len()
    );
    let (segment, whole) = match case.source {
        Source::Segment(s) => (Some(s), per_segment[s as usize].clone()),
        _ => (None, per_segment.concat()),
    };
    let take = case.limit.unwrap_or(usize::MAX);
    log.clear();
    // Requests beyond reading the segments whole: a listing's pages.
    let mut listing_pages = 0;
    match case.method {
        Method::All => {
            let things = limited(scan(segment), case.limit)
                .all::<Thing>()
                .await
                .unwrap();
            check_projection(case, &things);
            let got = ns(&things);
            assert_eq!(got.len(), whole.len().min(take), "{case:?}");
            // Segments are read in order: a limited scan is their prefix.
            assert_eq!(got, whole[..got.len()], "{case:?}");
        }
        Method::Page => {
            let page: Page<Vec<Thing>> = limited(scan(segment), case.limit).page().await.unwrap();
            check_projection(case, &page.items);
            let got = ns(&page.items);
            // The listing's prefix; with a page size, exactly that many.
            assert_eq!(got, whole[..got.len()], "{case:?}");
            if let Some(size) = case.page_size {
                assert_eq!(got.len(), whole.len().min(take).min(size), "{case:?}");
            }
            assert!(got.len() <= take, "{case:?}");
        }
        Method::Pages => {
            // The per-segment stream: each page one request of a segment,
            // up to the limit; each item once, each segment's in its order.
            let pages: Vec<ScanPage<Vec<Thing>>> = limited(scan(segment), case.limit)
                .pages()
                .try_collect()
                .await
                .unwrap();
            let mut got: Vec<u32> = Vec::new();
            for page in &pages {
                check_projection(case, &page.items);
                got.extend(ns(&page.items));
            }
            assert_eq!(got.len(), whole.len().min(take), "{case:?}");
            for s in 0..SEGMENTS {
                let of_segment: Vec<u32> = pages
                    .iter()
                    .filter(|p| p.segment == s)
                    .flat_map(|p| ns(&p.items))
                    .collect();
                let all_of_segment = &per_segment[s as usize];
                assert_eq!(
                    of_segment,
                    all_of_segment[..of_segment.len()],
                    "{case:?}: segment {s}"
                );
            }
            // Unlimited, every segment's last page says it is done.
            if case.limit.is_none() {
                for s in pages.iter().map(|p| p.segment).collect::<BTreeSet<_>>() {
                    let last = pages.iter().rev().find(|p| p.segment == s).unwrap();
                    assert!(last.cursor.is_none(), "{case:?}: segment {s}");
                }
            }
        }
        Method::First => {
            let got: Option<Thing> = limited(scan(segment), case.limit).first().await.unwrap();
            assert_eq!(got.map(|t| t.n), whole.first().copied(), "{case:?}");
        }
        Method::One => match limited(scan(segment), case.limit).one::<Thing>().await {
            Ok(found) => {
                assert!(whole.len().min(take) <= 1, "{case:?}");
                assert_eq!(found.map(|t| t.n), whole.first().copied());
            }
            Err(err) => {
                assert_eq!(err.kind(), ddb_entity::ErrorKind::MoreThanOne);
                assert!(whole.len().min(take) > 1, "{case:?}");
            }
        },
        Method::Count => {
            let count = limited(scan(segment), case.limit).count().await.unwrap();
            match segment {
                // Which items a segment holds is the server's choice.
                Some(_) => assert!(count >= whole.len().min(take), "{case:?}"),
                None => assert_eq!(count, counted(kinds, case).min(take), "{case:?}"),
            }
            if case.hot_only {
                assert_eq!(count, whole.len().min(take), "{case:?}");
            }
        }
        Method::Resume => {
            // As a listing: page after page, each a new scan resumed from
            // the last page's cursor (through its text), each with the
            // case's limit: together every item once, in segment order.
            let mut seen = Vec::new();
            let mut cursor: Option<ddb_entity::Cursor> = None;
            loop {
                let mut s = limited(scan(segment), case.limit);
                if let Some(at) = cursor.take() {
                    s = s.after(at.to_string().parse().unwrap());
                }
                let page: Page<Vec<Thing>> = s.page().await.unwrap();
                listing_pages += 1;
                check_projection(case, &page.items);
                seen.extend(ns(&page.items));
                match page.cursor {
                    Some(next) => cursor = Some(next),
                    None => break,
                }
                assert!(seen.len() <= 2 * ITEMS as usize, "{case:?} does not end");
            }
            assert_eq!(seen, whole, "{case:?}");
            // As a job: a checkpoint after the first page of the stream,
            // resumed segment by segment.
            let mut pages = Box::pin(scan(segment).pages::<Vec<Thing>>());
            let first = pages.try_next().await.unwrap().unwrap();
            drop(pages);
            let resumed = scan(segment).resume(first.segment, first.cursor.clone());
            let rest = ns(&resumed.all::<Thing>().await.unwrap());
            let mut all: Vec<u32> = ns(&first.items);
            all.extend(rest);
            all.sort_unstable();
            let mut want = whole.clone();
            want.sort_unstable();
            assert_eq!(all, want, "{case:?}");
        }
    }
    let lanes = if segment.is_some() {
        1
    } else {
        SEGMENTS as usize
    };
    // Every lane read whole (twice for a resumed checkpoint), and at most
    // two requests per page of a listing: its first and the one that found
    // its last item.
    let bound = lanes * (requests_per_lane(case) + 1) * 2 + listing_pages * 2;
    assert!(
        log.count("Scan") <= bound,
        "{case:?}: {} scans",
        log.count("Scan")
    );
}

#[tokio::test]
async fn every_finishing_method_on_every_source_equals_the_model() {
    let dynamo = LocalDynamo::start().await.expect("a server");
    let (client, log) = logged_client(&dynamo);
    let db = Db::<Mx>::new(client, dynamo.unique_table_name("matrix"));
    db.create_table_if_missing()
        .send()
        .await
        .expect("the table");
    let sealed = db.clone().with_cursor_seal(CursorSeal::new(1, [9; 32]));
    let mut rng = Rng(0x5eed_2024_0024);
    let kinds = kinds(&mut rng);
    store(&db, &kinds).await;
    // Every source × every finishing method, twice, the other options
    // (limit, filter, projection, reverse, page size, sealed) drawn.
    for _ in 0..2 {
        for source in SOURCES {
            for method in METHODS {
                let case = case(&mut rng, source, method);
                let db = if case.sealed { &sealed } else { &db };
                match case.source {
                    Source::Scan | Source::Segment(_) => scan_case(db, &log, &kinds, &case).await,
                    _ => query_case(db, &log, &kinds, &case).await,
                }
            }
        }
    }
    // The survey's raw scan, on the same engine: every stored item once,
    // expired ones and those no entity decodes included, one request per
    // segment for a table this small.
    log.clear();
    let report = db.survey::<Thing>().segments(SEGMENTS).await.unwrap();
    assert_eq!(report.scanned, u64::from(ITEMS));
    let things = kinds
        .iter()
        .filter(|kind| matches!(kind, Kind::Thing { .. }))
        .count();
    assert_eq!(report.count("Thing"), things as u64);
    assert_eq!(log.count("Scan"), SEGMENTS as usize);
}
