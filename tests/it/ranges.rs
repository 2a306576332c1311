//! Typed sort-key ranges on a real server, as an adversarial user writes
//! them: every operator, open and closed, forward and reversed, with and
//! without a limit, checked item for item against a model of what the
//! typed values mean — on partitions whose other entity types sort just
//! before and just after the queried entity's key space, with values made
//! to sit on component boundaries (`Ann`, `Ann `, `Ann#`, `Anna`, ``), and
//! at the empty cut that DynamoDB refuses as `""`.

use ddb_entity::key::StrPrefix;
use ddb_entity::{Db, Entity, ErrorKind, Primary, SortKey, SortRange, UnknownItems};
use serde::{Deserialize, Serialize};

use crate::model::{Address, Customer, CustomerOrder, CustomerView, date};
use crate::support::{App, Gsi1, RequestLog, logged_app_table};

// ---------------------------------------------------------------------
// Item 1: an open range stays inside the entity's key space.

/// Seed 003's order, with a plain number for its time: the issue's example.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user}", sk = "ORDER#{placed_at}#{order_id}")]
pub struct TimedOrder {
    pub user: String,
    pub placed_at: u32,
    pub order_id: u32,
}

/// Sorts after every order: `PROFILE` > `ORDER#…`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user}", sk = "PROFILE")]
pub struct Profile {
    pub user: String,
}

/// Sorts before every order: `ADDR#…` < `ORDER#…`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user}", sk = "ADDR#{seq}")]
pub struct Addr {
    pub user: String,
    pub seq: u8,
}

/// Sorts right after the orders' key space: `ORDER$` > `ORDER#…`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user}", sk = "ORDER$", type = "AFTER_ORDERS")]
pub struct JustAfter {
    pub user: String,
}

/// Sorts right before it: `ORDER` < `ORDER#…`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "USER#{user}", sk = "ORDER", type = "BEFORE_ORDERS")]
pub struct JustBefore {
    pub user: String,
}

/// Everything in a user's partition.
#[derive(ddb_entity::Collection, Debug)]
pub struct UserView {
    pub profile: Option<Profile>,
    pub addresses: Vec<Addr>,
    pub orders: Vec<TimedOrder>,
    pub before: Option<JustBefore>,
    pub after: Option<JustAfter>,
}

const PLACED: [(u32, u32); 7] = [
    (0, 1),
    (110, 2),
    (140, 3),
    (150, 4),
    (150, 5),
    (160, 6),
    (u32::MAX, 7),
];

async fn seed_user(db: &Db<App>) {
    let user = || "ada".to_owned();
    let mut batch = db
        .batch_write()
        .put(&Profile { user: user() })
        .put(&JustBefore { user: user() })
        .put(&JustAfter { user: user() });
    for seq in 0..3 {
        batch = batch.put(&Addr { user: user(), seq });
    }
    for (placed_at, order_id) in PLACED {
        batch = batch.put(&TimedOrder {
            user: user(),
            placed_at,
            order_id,
        });
    }
    batch.await.unwrap();
}

/// What a typed order probe denotes, and what lies before and after it.
#[derive(Debug, Clone, Copy)]
enum OrderProbe {
    /// `TimedOrder::sk()`
    All,
    /// `TimedOrder::sk().placed_at(p)`
    Placed(u32),
    /// `TimedOrder::sk().placed_at(p).order_id(id)`
    Whole(u32, u32),
}

impl OrderProbe {
    fn key(self) -> SortKey<Primary<App>> {
        match self {
            OrderProbe::All => TimedOrder::sk().into(),
            OrderProbe::Placed(p) => TimedOrder::sk().placed_at(p).into(),
            OrderProbe::Whole(p, id) => TimedOrder::sk().placed_at(p).order_id(id),
        }
    }

    /// -1: before what the probe denotes, 0: denoted, 1: after.
    fn place(self, (placed, id): (u32, u32)) -> i8 {
        let ordering = match self {
            OrderProbe::All => std::cmp::Ordering::Equal,
            OrderProbe::Placed(p) => placed.cmp(&p),
            OrderProbe::Whole(p, i) => (placed, id).cmp(&(p, i)),
        };
        ordering as i8
    }
}

/// The seven range operators, for probes of any model.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    Eq,
    BeginsWith,
    Lt,
    Le,
    Gt,
    Ge,
}

pub const OPS: [Op; 6] = [Op::Eq, Op::BeginsWith, Op::Lt, Op::Le, Op::Gt, Op::Ge];

impl Op {
    /// Whether a value at `place` (-1 before, 0 denoted, 1 after) is in
    /// the range.
    pub fn selects(self, place: i8) -> bool {
        match self {
            Op::Eq | Op::BeginsWith => place == 0,
            Op::Lt => place < 0,
            Op::Le => place <= 0,
            Op::Gt => place > 0,
            Op::Ge => place >= 0,
        }
    }

    pub fn range<I>(self, sk: SortKey<I>) -> ddb_entity::Result<SortRange<I>> {
        match self {
            Op::Eq | Op::BeginsWith => SortRange::begins_with(sk),
            Op::Lt => SortRange::lt(sk),
            Op::Le => SortRange::le(sk),
            Op::Gt => SortRange::gt(sk),
            Op::Ge => SortRange::ge(sk),
        }
    }

    /// The query with this operator, through the query's own method.
    pub fn apply<'db, I: ddb_entity::SortedIndex>(
        self,
        query: ddb_entity::op::Query<'db, I>,
        sk: SortKey<I>,
    ) -> ddb_entity::op::Query<'db, I> {
        match self {
            Op::Eq => query.sk_eq(sk),
            Op::BeginsWith => query.sk_begins_with(sk),
            Op::Lt => query.sk_lt(sk),
            Op::Le => query.sk_le(sk),
            Op::Gt => query.sk_gt(sk),
            Op::Ge => query.sk_ge(sk),
        }
    }
}

#[tokio::test]
async fn the_issues_example_gt_reversed_with_a_limit_reads_orders_only() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed_user(&db).await;
    log.clear();
    let newest: Vec<TimedOrder> = db
        .query(TimedOrder::partition("ada").unwrap())
        .sk_gt(TimedOrder::sk().placed_at(150))
        .reverse(true)
        .limit(3)
        .on_unknown(UnknownItems::Error)
        .all()
        .await
        .unwrap();
    let ids: Vec<u32> = newest.iter().map(|o| o.order_id).collect();
    assert_eq!(ids, [7, 6], "the PROFILE and ORDER$ items are not read");
    assert_eq!(log.count("Query"), 1);
}

#[tokio::test]
async fn every_open_and_closed_range_of_orders_matches_the_model() {
    let (_dynamo, db, log) = logged_app_table().await;
    seed_user(&db).await;
    let mut probes = vec![OrderProbe::All];
    for p in [0, 1, 110, 149, 150, 151, 160, u32::MAX] {
        probes.push(OrderProbe::Placed(p));
    }
    for (p, id) in [
        (0, 1),
        (150, 4),
        (150, 5),
        (150, 0),
        (u32::MAX, 7),
        (u32::MAX, u32::MAX),
    ] {
        probes.push(OrderProbe::Whole(p, id));
    }
    for probe in &probes {
        for op in OPS {
            for reverse in [false, true] {
                for limit in [None, Some(1), Some(2), Some(3)] {
                    let mut expected: Vec<u32> = PLACED
                        .iter()
                        .filter(|&&order| op.selects(probe.place(order)))
                        .map(|&(_, id)| id)
                        .collect();
                    if reverse {
                        expected.reverse();
                    }
                    if let Some(limit) = limit {
                        expected.truncate(limit);
                    }
                    let mut query = op
                        .apply(db.query(Profile::partition("ada").unwrap()), probe.key())
                        .reverse(reverse);
                    if let Some(limit) = limit {
                        query = query.limit(limit);
                    }
                    log.clear();
                    // Into the view of every type: a range of orders holds
                    // nothing else, whatever the collection could hold.
                    let view: UserView = query.collect().await.unwrap();
                    let ids: Vec<u32> = view.orders.iter().map(|o| o.order_id).collect();
                    let what = format!("{op:?} {probe:?} reverse={reverse} limit={limit:?}");
                    assert_eq!(ids, expected, "{what}");
                    assert!(
                        view.profile.is_none() && view.addresses.is_empty(),
                        "{what}"
                    );
                    assert!(view.before.is_none() && view.after.is_none(), "{what}");
                    assert!(log.count("Query") <= 1, "{what}: {:?}", log.operations());
                }
            }
        }
    }
}

#[tokio::test]
async fn seed_000s_customer_view_limits_count_orders_not_addresses() {
    let (_dynamo, db, log) = logged_app_table().await;
    db.put(&Customer {
        customer_id: 42,
        name: "Ada".into(),
    })
    .await
    .unwrap();
    for seq in [1, 2] {
        db.put(&Address {
            customer_id: 42,
            seq,
            city: "London".into(),
        })
        .await
        .unwrap();
    }
    for (order_id, day) in [(1, 1), (2, 10), (3, 20)] {
        db.put(&CustomerOrder {
            customer_id: 42,
            order_id,
            placed: date(2026, 3, day),
            total_cents: 100,
        })
        .await
        .unwrap();
    }
    log.clear();
    let cut = || CustomerOrder::sk().placed(date(2026, 3, 15));
    let view: CustomerView = db
        .query(Customer::partition(42u64).unwrap())
        .sk_lt(cut())
        .limit(2)
        .collect()
        .await
        .unwrap();
    let ids: Vec<u64> = view.orders.iter().map(|o| o.order_id).collect();
    assert_eq!(ids, [1, 2], "two ADDR# items no longer use up the limit");
    assert!(view.customer.is_none() && view.addresses.is_empty());

    let view: CustomerView = db
        .query(Customer::partition(42u64).unwrap())
        .sk_ge(cut())
        .reverse(true)
        .limit(1)
        .collect()
        .await
        .unwrap();
    let ids: Vec<u64> = view.orders.iter().map(|o| o.order_id).collect();
    assert_eq!(ids, [3], "the PROFILE after the orders is not read");
    assert!(view.customer.is_none());

    // A range across types is bounded by keys of those types.
    let view: CustomerView = db
        .query(Customer::partition(42u64).unwrap())
        .sk_between(Address::sk(), cut())
        .collect()
        .await
        .unwrap();
    assert_eq!(view.addresses.len(), 2);
    assert_eq!(view.orders.len(), 2);
    assert!(view.customer.is_none());
    assert_eq!(log.count("Query"), 3);
}

// ---------------------------------------------------------------------
// Item 2: begins_with respects component boundaries.

/// `NAME#{last}#{first}`: names made to sit on component boundaries.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PEOPLE#{group}", sk = "NAME#{last}#{first}")]
pub struct Person {
    pub group: u8,
    pub last: String,
    pub first: String,
}

/// `NAME`: right before every person.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PEOPLE#{group}", sk = "NAME", type = "ROSTER")]
pub struct Roster {
    pub group: u8,
}

/// `NAMEX#{n}`: right after every person.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "PEOPLE#{group}", sk = "NAMEX#{n}")]
pub struct Nickname {
    pub group: u8,
    pub n: u8,
}

/// Any item of a people partition.
#[derive(ddb_entity::Collection, Debug, Clone, PartialEq)]
pub enum PeopleItem {
    Person(Person),
    Roster(Roster),
    Nickname(Nickname),
}

pub const LASTS: [&str; 7] = [
    "", "Smit", "Smith", "Smith ", "Smith#", "Smith$", "Smithson",
];
pub const FIRSTS: [&str; 12] = [
    "",
    "An",
    "Ann",
    "Ann ",
    "Ann!",
    "Ann\"",
    "Ann#",
    "Ann$",
    "Anna",
    "Ann\u{7f}",
    "Ann\u{10FFFF}",
    "B",
];

/// What a typed person probe denotes, and what lies before and after it,
/// in terms of the typed values only.
#[derive(Debug, Clone)]
pub enum PersonProbe {
    /// `Person::sk()`
    All,
    /// `Person::sk().last_prefix(StrPrefix(q))`
    LastCut(String),
    /// `Person::sk().last(l)`
    Last(String),
    /// `Person::sk().last(l).first_prefix(StrPrefix(q))`
    FirstCut(String, String),
    /// `Person::sk().last(l).first(f)`
    Whole(String, String),
}

/// Where `value` lies against the strings starting with `cut`.
fn against_cut(value: &str, cut: &str) -> i8 {
    if value.starts_with(cut) {
        0
    } else {
        value.cmp(cut) as i8
    }
}

impl PersonProbe {
    pub fn key(&self) -> SortKey<Primary<App>> {
        match self {
            PersonProbe::All => Person::sk().into(),
            PersonProbe::LastCut(q) => Person::sk().last_prefix(StrPrefix(q.as_str())),
            PersonProbe::Last(l) => Person::sk().last(l.as_str()).into(),
            PersonProbe::FirstCut(l, q) => Person::sk()
                .last(l.as_str())
                .first_prefix(StrPrefix(q.as_str())),
            PersonProbe::Whole(l, f) => Person::sk().last(l.as_str()).first(f.as_str()),
        }
    }

    /// -1: before what the probe denotes, 0: denoted, 1: after.
    pub fn place(&self, last: &str, first: &str) -> i8 {
        match self {
            PersonProbe::All => 0,
            PersonProbe::LastCut(q) => against_cut(last, q),
            PersonProbe::Last(l) => last.cmp(l.as_str()) as i8,
            PersonProbe::FirstCut(l, q) => match last.cmp(l.as_str()) {
                std::cmp::Ordering::Equal => against_cut(first, q),
                other => other as i8,
            },
            PersonProbe::Whole(l, f) => (last, first).cmp(&(l.as_str(), f.as_str())) as i8,
        }
    }
}

fn person_probes() -> Vec<PersonProbe> {
    let s = |x: &str| x.to_owned();
    let mut probes = vec![PersonProbe::All];
    for q in ["", "S", "Smith", "Smith ", "Smith$", "Z"] {
        probes.push(PersonProbe::LastCut(s(q)));
    }
    for l in LASTS {
        probes.push(PersonProbe::Last(s(l)));
    }
    for q in ["", "A", "Ann", "Ann ", "Ann#", "Ann$"] {
        probes.push(PersonProbe::FirstCut(s("Smith"), q.to_owned()));
    }
    for f in FIRSTS.iter().chain(&["Zed", "Ann\u{0}"]) {
        probes.push(PersonProbe::Whole(s("Smith"), s(f)));
    }
    for l in ["", "Smith ", "Smithson", "Zz"] {
        probes.push(PersonProbe::Whole(s(l), s("")));
        probes.push(PersonProbe::Whole(s(l), s("Ann")));
    }
    probes
}

async fn seed_people(db: &Db<App>) -> Vec<(String, String)> {
    let mut people = Vec::new();
    let mut batch = db
        .batch_write()
        .put(&Roster { group: 1 })
        .put(&Nickname { group: 1, n: 0 });
    for last in LASTS {
        for first in FIRSTS {
            batch = batch.put(&Person {
                group: 1,
                last: last.into(),
                first: first.into(),
            });
            people.push((last.to_owned(), first.to_owned()));
        }
    }
    batch.await.unwrap();
    people.sort();
    people
}

async fn people(
    query: ddb_entity::op::Query<'_, Primary<App>>,
    what: &str,
) -> Vec<(String, String)> {
    let items: Vec<PeopleItem> = query
        .on_unknown(UnknownItems::Error)
        .all()
        .await
        .unwrap_or_else(|err| panic!("{what}: {err}"));
    items
        .into_iter()
        .map(|item| match item {
            PeopleItem::Person(p) => (p.last, p.first),
            other => panic!("{what}: read {other:?}, outside the people's key space"),
        })
        .collect()
}

#[tokio::test]
async fn a_whole_key_never_matches_a_longer_value_of_its_last_component() {
    let (_dynamo, db, _log) = logged_app_table().await;
    seed_people(&db).await;
    let q = || db.query(Person::partition(1u8).unwrap());
    let ann = people(
        q().sk_begins_with(Person::sk().last("Smith").first("Ann")),
        "Ann",
    )
    .await;
    assert_eq!(ann, [("Smith".to_owned(), "Ann".to_owned())]);
    let nameless = people(
        q().sk_begins_with(Person::sk().last("Smith").first("")),
        "first(\"\")",
    )
    .await;
    assert_eq!(nameless, [("Smith".to_owned(), String::new())]);
    // The one way to match part of a component: a string prefix cut.
    let anns = people(
        q().sk_begins_with(Person::sk().last("Smith").first_prefix(StrPrefix("Ann"))),
        "StrPrefix",
    )
    .await;
    let firsts: Vec<&str> = anns.iter().map(|(_, f)| f.as_str()).collect();
    let mut expected: Vec<&str> = FIRSTS
        .iter()
        .copied()
        .filter(|f| f.starts_with("Ann"))
        .collect();
    expected.sort();
    assert_eq!(firsts, expected);
}

#[tokio::test]
async fn every_person_range_matches_the_model_of_the_typed_values() {
    let (_dynamo, db, log) = logged_app_table().await;
    let all = seed_people(&db).await;
    let probes = person_probes();
    let q = || db.query(Person::partition(1u8).unwrap());
    for probe in &probes {
        for op in OPS {
            let expected: Vec<(String, String)> = all
                .iter()
                .filter(|(l, f)| op.selects(probe.place(l, f)))
                .cloned()
                .collect();
            let what = format!("{op:?} {probe:?}");
            log.clear();
            assert_eq!(
                people(op.apply(q(), probe.key()), &what).await,
                expected,
                "{what}"
            );
            assert!(log.count("Query") <= 1, "{what}");
        }
    }
    // Closed ranges between probes, both ways round.
    for (i, low) in probes.iter().enumerate().step_by(3) {
        for high in probes.iter().skip(i % 5).step_by(4) {
            let expected: Vec<(String, String)> = all
                .iter()
                .filter(|(l, f)| low.place(l, f) >= 0 && high.place(l, f) <= 0)
                .cloned()
                .collect();
            let what = format!("between {low:?} and {high:?}");
            let got = people(q().sk_between(low.key(), high.key()), &what).await;
            assert_eq!(got, expected, "{what}");
        }
    }
    // Reversed and limited: the newest of a range, never a neighbour.
    for probe in probes.iter().step_by(5) {
        for op in [Op::Lt, Op::Gt, Op::Le, Op::Ge] {
            let mut expected: Vec<(String, String)> = all
                .iter()
                .filter(|(l, f)| op.selects(probe.place(l, f)))
                .cloned()
                .collect();
            expected.reverse();
            expected.truncate(2);
            let what = format!("{op:?} {probe:?} reversed, limit 2");
            let got = people(op.apply(q(), probe.key()).reverse(true).limit(2), &what).await;
            assert_eq!(got, expected, "{what}");
        }
    }
}

// ---------------------------------------------------------------------
// Item 3: an empty cut never reaches the server as "".

/// A template that starts with a hole, in the table and in an index.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NAMES#{group}", sk = "{name}", type = "NAMED")]
#[entity(index = Gsi1, pk = "TAGS#{group}", sk = "{tag}")]
pub struct Named {
    pub group: u8,
    pub name: String,
    pub tag: String,
}

fn named(name: &str, tag: &str) -> Named {
    Named {
        group: 1,
        name: name.into(),
        tag: tag.into(),
    }
}

#[tokio::test]
async fn an_empty_whole_key_or_index_key_is_refused_before_sending() {
    let (_dynamo, db, log) = logged_app_table().await;
    let err = db.put(&named("", "t")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Key, "{err}");
    let err = db.put(&named("n", "")).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Key, "{err}");
    let err = db
        .query(Named::partition(1u8).unwrap())
        .sk_eq(Named::sk().name(""))
        .all::<Named>()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Key, "{err}");
    let err = Named::key(1u8, "").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Key, "{err}");
    assert!(log.operations().is_empty(), "{:?}", log.operations());
}

async fn names<I: ddb_entity::SortedIndex<Table = App>>(
    query: ddb_entity::op::Query<'_, I>,
    log: &RequestLog,
) -> (Vec<String>, usize) {
    log.clear();
    let found: Vec<Named> = query.all().await.unwrap();
    (
        found.into_iter().map(|n| n.name).collect(),
        log.count("Query"),
    )
}

#[tokio::test]
async fn each_operator_has_its_meaning_at_the_empty_cut() {
    let (_dynamo, db, log) = logged_app_table().await;
    for (name, tag) in [("a", "x"), ("m", "y"), ("z", "z")] {
        db.put(&named(name, tag)).await.unwrap();
    }
    let all = || vec!["a".to_owned(), "m".to_owned(), "z".to_owned()];
    let none = Vec::<String>::new;
    let empties: [fn() -> SortKey<Primary<App>>; 2] = [
        || Named::sk().into(),
        || Named::sk().name_prefix(StrPrefix("")),
    ];
    for empty in empties {
        let q = || db.query(Named::partition(1u8).unwrap());
        assert_eq!(names(q().sk_eq(empty()), &log).await, (all(), 1));
        assert_eq!(names(q().sk_begins_with(empty()), &log).await, (all(), 1));
        assert_eq!(names(q().sk_ge(empty()), &log).await, (all(), 1));
        assert_eq!(names(q().sk_le(empty()), &log).await, (all(), 1));
        assert_eq!(names(q().sk_gt(empty()), &log).await, (none(), 0));
        assert_eq!(names(q().sk_lt(empty()), &log).await, (none(), 0));
        assert_eq!(
            names(q().sk_between(empty(), Named::sk().name("m")), &log).await,
            (vec!["a".to_owned(), "m".to_owned()], 1)
        );
        assert_eq!(
            names(q().sk_between(Named::sk().name("m"), empty()), &log).await,
            (vec!["m".to_owned(), "z".to_owned()], 1)
        );
        assert_eq!(
            names(q().sk_between(empty(), empty()).reverse(true), &log).await,
            (vec!["z".to_owned(), "m".to_owned(), "a".to_owned()], 1)
        );
        // With a whole key the space is every sort key: one-sided ranges.
        assert_eq!(
            names(q().sk_lt(Named::sk().name("m")), &log).await,
            (vec!["a".to_owned()], 1)
        );
        assert_eq!(
            names(q().sk_gt(Named::sk().name("m")), &log).await,
            (vec!["z".to_owned()], 1)
        );
    }
    // The same on an index whose sort key starts with a hole.
    let q = || db.query(Named::gsi1_partition(1u8).unwrap());
    let empty = || -> SortKey<Gsi1> { Named::gsi1_sk().into() };
    assert_eq!(names(q().sk_ge(empty()), &log).await, (all(), 1));
    assert_eq!(names(q().sk_lt(empty()), &log).await, (none(), 0));
    assert_eq!(names(q().sk_gt(empty()), &log).await, (none(), 0));
    assert_eq!(
        names(q().sk_between(empty(), Named::gsi1_sk().tag("y")), &log).await,
        (vec!["a".to_owned(), "m".to_owned()], 1)
    );
    assert_eq!(
        names(q().sk_ge(Named::gsi1_sk().tag_prefix(StrPrefix(""))), &log).await,
        (all(), 1)
    );
}
