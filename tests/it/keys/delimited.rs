//! Keys of a table that declares another delimiter (`delimiter: '|'`):
//! what its templates write parses back into the same values, distinct
//! values never share a key, the sort key sorts as its values (the holes
//! before a `|` are fixed-length, the string the last), and foreign keys
//! of the template's shape round-trip through decode and encode.

use chrono::DateTime;
use ddb_entity::key::{IsoMillis, KeyReader};
use ddb_entity::{Entity, Member, Table};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// Written by a service that joins key segments with `|`.
    pub struct Piped { partition_key: "pk", sort_key: "sk", typed_by: Key, delimiter: '|' }
}

/// `pk = TENANT|<tenant>`, `sk = EVENT|<ISO millis>|<seq>|<id>`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Piped, type = "EVENT", pk = "TENANT|{tenant}", sk = "EVENT|{at}|{seq}|{id}")]
struct Event {
    tenant: String,
    at: IsoMillis,
    seq: u32,
    id: String,
}

fn at(millis: i64) -> IsoMillis {
    IsoMillis(DateTime::from_timestamp_millis(millis).unwrap())
}

/// Any text, the delimiter, `#` and the escape character included.
fn text() -> impl Strategy<Value = String> {
    prop_oneof!["[ -~]{0,10}", "[|#$ a]{0,6}", "\\PC{0,6}"]
}

fn event() -> impl Strategy<Value = Event> {
    (text(), 0i64..253_402_300_799_999, any::<u32>(), text()).prop_map(|(tenant, ms, seq, id)| {
        Event {
            tenant,
            at: at(ms),
            seq,
            id,
        }
    })
}

fn keys(event: &Event) -> (String, String) {
    let key = event.primary_key().unwrap();
    (key.partition().to_owned(), key.sort().to_owned())
}

/// A sort key of the template's shape as other code writes it, or a near
/// miss: another precision or width, a lower-case literal, a missing part.
fn foreign_sort_key() -> impl Strategy<Value = String> {
    (
        prop_oneof![Just("EVENT"), Just("event")],
        prop_oneof![
            (0i64..253_402_300_799_999).prop_map(|ms| ddb_entity::key::encode(&at(ms)).unwrap()),
            Just("2026-03-14T09:31:00Z".to_owned()),
        ],
        prop_oneof!["[0-9]{10}", "[0-9]{1,9}", "[0-9 a-z]{10}"],
        proptest::option::of(text()),
    )
        .prop_map(|(literal, at, seq, id)| match id {
            Some(id) => format!("{literal}|{at}|{seq}|{id}"),
            None => format!("{literal}|{at}|{seq}"),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn keys_with_the_declared_delimiter_round_trip(event in event()) {
        let item = event.to_item().unwrap();
        let (pk, sk) = keys(&event);
        prop_assert!(Member::of::<Event>().key_matches(&pk, Some(&sk)));
        prop_assert_eq!(Event::from_item(item).unwrap(), event);
    }

    #[test]
    fn keys_with_the_declared_delimiter_are_injective(a in event(), b in event()) {
        prop_assert_eq!(a == b, keys(&a) == keys(&b));
    }

    /// Within a tenant, byte order of the sort key is the order of
    /// `(at, seq, id)`.
    #[test]
    fn sort_keys_with_the_declared_delimiter_sort_as_their_values(a in event(), mut b in event()) {
        b.tenant = a.tenant.clone();
        let values = (a.at, a.seq, &a.id).cmp(&(b.at, b.seq, &b.id));
        prop_assert_eq!(values, keys(&a).1.cmp(&keys(&b).1));
    }

    /// A foreign sort key the template reads is written back unchanged.
    #[test]
    fn foreign_keys_with_the_declared_delimiter_round_trip(sk in foreign_sort_key()) {
        let pk = "TENANT|acme";
        if !Member::of::<Event>().key_matches(pk, Some(&sk)) {
            return Ok(());
        }
        let mut reader = KeyReader::new(&sk);
        let mut segment = reader.segment().unwrap();
        segment.literal("EVENT|").unwrap();
        let at: IsoMillis = segment.fixed().unwrap();
        segment.literal("|").unwrap();
        let seq: u32 = segment.fixed().unwrap();
        segment.literal("|").unwrap();
        let id: String = segment.last("").unwrap();
        reader.finish().unwrap();
        let written = Event::key("acme", at, seq, &id).unwrap();
        prop_assert_eq!(written.partition(), pk);
        prop_assert_eq!(written.sort(), sk.as_str());
    }
}

#[test]
fn the_table_declares_its_delimiter() {
    assert_eq!(Piped::SCHEMA.delimiter, '|');
    let event = Event {
        tenant: "acme".into(),
        at: at(1_773_480_660_250),
        seq: 7,
        id: "e|1 #x".into(),
    };
    assert_eq!(
        keys(&event),
        (
            "TENANT|acme".to_owned(),
            "EVENT|2026-03-14T09:31:00.250Z|0000000007|e|1$`$cx".to_owned()
        )
    );
}
