//! Values of types using serde's attributes: encoded exactly as
//! serde_dynamo encodes them, decoded exactly as it decodes them, round
//! trips, and the entity item (serde_dynamo's body without `NULL`s, plus
//! keys and type).

use aws_sdk_dynamodb::types::AttributeValue;
use ddb_entity::{Entity, Item, codec};
use proptest::prelude::*;
use serde::{Deserialize, Serialize};

use super::model::*;
use super::random_items::attribute_value;
use super::same;
use crate::support::{App, Gsi2};

fn theirs(value: &impl Serialize) -> Item {
    serde_dynamo::to_item(value).expect("serde_dynamo encodes the model")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn encoding_is_serde_dynamo_s(doc in doc_with(any_f64()), flat in flat()) {
        prop_assert_eq!(codec::to_item(&doc).unwrap(), theirs(&doc));
        prop_assert_eq!(codec::to_item(&flat).unwrap(), theirs(&flat));
        for value in [&doc.shape, &Shape::Unit] {
            prop_assert_eq!(
                codec::to_attribute_value(value).unwrap(),
                serde_dynamo::to_attribute_value::<_, AttributeValue>(value).unwrap()
            );
        }
        prop_assert_eq!(
            codec::to_attribute_value(&(&doc.untagged, &doc.internal, &doc.adjacent, &doc.nullable)).unwrap(),
            serde_dynamo::to_attribute_value::<_, AttributeValue>(
                (&doc.untagged, &doc.internal, &doc.adjacent, &doc.nullable)
            ).unwrap()
        );
    }

    #[test]
    fn decoding_serde_dynamo_s_items_gives_the_same_values(doc in doc_with(any_f64()), flat in flat()) {
        let item = theirs(&doc);
        same("Doc owned", &codec::from_item::<Doc>(item.clone()), &serde_dynamo::from_item::<_, Doc>(item.clone()))?;
        same("Doc borrowed", &codec::from_item_ref::<Doc>(&item), &serde_dynamo::from_item::<_, Doc>(item.clone()))?;
        let item = theirs(&flat);
        same("Flat owned", &codec::from_item::<Flat>(item.clone()), &serde_dynamo::from_item::<_, Flat>(item.clone()))?;
        same("Flat borrowed", &codec::from_item_ref::<Flat>(&item), &serde_dynamo::from_item::<_, Flat>(item))?;
    }

    #[test]
    fn values_round_trip(doc in doc_with(finite_f64()), flat in flat()) {
        let item = codec::to_item(&doc).unwrap();
        prop_assert_eq!(&codec::from_item_ref::<Doc>(&item).unwrap(), &doc);
        prop_assert_eq!(codec::from_item::<Doc>(item).unwrap(), doc);
        let item = codec::to_item(&flat).unwrap();
        prop_assert_eq!(codec::from_item::<Flat>(item).unwrap(), flat);
    }

    /// serde_dynamo's item with one attribute replaced by, or joined by, a
    /// random value: the decoders agree on every mistake.
    #[test]
    fn a_corrupted_attribute_is_judged_the_same(
        doc in doc_with(any_f64()),
        flat in flat(),
        pick in any::<prop::sample::Index>(),
        value in attribute_value(),
        remove in any::<bool>(),
    ) {
        for mut item in [theirs(&doc), theirs(&flat)] {
            let mut names: Vec<String> = item.keys().cloned().collect();
            names.sort();
            names.push("stray".to_owned());
            let name = pick.get(&names).clone();
            if remove {
                item.remove(&name);
            } else {
                item.insert(name, value.clone());
            }
            same("Doc owned", &codec::from_item::<Doc>(item.clone()), &serde_dynamo::from_item::<_, Doc>(item.clone()))?;
            same("Doc borrowed", &codec::from_item_ref::<Doc>(&item), &serde_dynamo::from_item::<_, Doc>(item.clone()))?;
            same("Flat owned", &codec::from_item::<Flat>(item.clone()), &serde_dynamo::from_item::<_, Flat>(item.clone()))?;
            same("Flat borrowed", &codec::from_item_ref::<Flat>(&item), &serde_dynamo::from_item::<_, Flat>(item))?;
        }
    }

    /// A nested value (a line of the order) corrupted the same way.
    #[test]
    fn a_corrupted_nested_attribute_is_judged_the_same(
        doc in doc_with(finite_f64()),
        field in prop::sample::select(vec!["SKU", "QTY", "NOTE", "OTHER"]),
        value in attribute_value(),
    ) {
        let mut item = theirs(&doc);
        let mut nested = match item.remove("nested") {
            Some(AttributeValue::M(map)) => map,
            other => panic!("nested is a map: {other:?}"),
        };
        nested.insert(field.to_owned(), value);
        item.insert("nested".to_owned(), AttributeValue::M(nested));
        let ours = codec::from_item::<Doc>(item.clone());
        same("Doc owned", &ours, &serde_dynamo::from_item::<_, Doc>(item.clone()))?;
        same("Doc borrowed", &codec::from_item_ref::<Doc>(&item), &serde_dynamo::from_item::<_, Doc>(item))?;
        // The error names where it happened.
        if let Err(err) = ours {
            prop_assert!(err.path().starts_with("nested"), "{}", err);
        }
    }
}

/// An entity with `None`s, renames and a sparse index.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "NOTE#{id}", sk = "NOTE")]
#[entity(index = Gsi2, pk = "OPEN#{open}", sk = "NOTE#{id}")]
struct Note {
    id: u64,
    #[serde(rename = "body")]
    text: String,
    open: Option<u32>,
    tags: Vec<Option<String>>,
    shape: Option<Shape>,
}

fn note() -> impl Strategy<Value = Note> {
    (
        any::<u64>(),
        text(),
        proptest::option::of(any::<u32>()),
        proptest::collection::vec(proptest::option::of(text()), 0..3),
        proptest::option::of(shape()),
    )
        .prop_map(|(id, text, open, tags, shape)| Note {
            id,
            text,
            open,
            tags,
            shape,
        })
}

proptest! {
    #[test]
    fn an_entity_item_is_serde_dynamo_s_body_without_nulls_and_key_fields_plus_keys(note in note()) {
        let item = note.to_item().unwrap();
        let mut expected = theirs(&note);
        expected.retain(|_, v| !matches!(v, AttributeValue::Null(true)));
        // `id` fills the key: stored there only, read back from it.
        expected.remove("id");
        let key = note.primary_key().unwrap();
        expected.insert("PK".into(), AttributeValue::S(key.partition().to_owned()));
        expected.insert("SK".into(), AttributeValue::S(key.sort().to_owned()));
        expected.insert("_type".into(), AttributeValue::S("note".into()));
        if let Some(open) = note.open {
            expected.insert("GSI2PK".into(), AttributeValue::S(format!("OPEN#{open}")));
            expected.insert("GSI2SK".into(), AttributeValue::S(format!("NOTE#{:020}", note.id)));
        }
        prop_assert_eq!(&item, &expected);
        prop_assert_eq!(Note::from_item(item).unwrap(), note);
    }
}

#[test]
fn decode_errors_name_the_path_and_the_types() {
    #[derive(Deserialize, Debug)]
    struct Line {
        #[allow(dead_code)]
        sku: String,
    }
    #[derive(Deserialize, Debug)]
    struct Order {
        #[allow(dead_code)]
        total_cents: i64,
        #[allow(dead_code)]
        lines: Vec<Line>,
    }
    let line = |sku: AttributeValue| AttributeValue::M([("sku".to_owned(), sku)].into());
    let item = |total: AttributeValue, last: AttributeValue| -> Item {
        [
            ("total_cents".to_owned(), total),
            (
                "lines".to_owned(),
                AttributeValue::L(vec![line(AttributeValue::S("A".into())), line(last)]),
            ),
        ]
        .into()
    };
    let ok = || AttributeValue::S("B".into());
    let err = codec::from_item::<Order>(item(AttributeValue::S("12".into()), ok())).unwrap_err();
    assert_eq!(err.path(), "total_cents");
    assert_eq!(err.message(), "expected a number, found a string");
    let err = codec::from_item::<Order>(item(
        AttributeValue::N("1".into()),
        AttributeValue::Bool(true),
    ))
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "lines[1].sku: expected a string, found a boolean"
    );
    let err =
        codec::from_item_ref::<Order>(&item(AttributeValue::N("1.5".into()), ok())).unwrap_err();
    assert_eq!(err.path(), "total_cents");
    assert!(
        err.message().contains("1.5") && err.message().contains("i64"),
        "{err}"
    );
    let mut missing = item(AttributeValue::N("1".into()), ok());
    missing.remove("lines");
    let err = codec::from_item::<Order>(missing).unwrap_err();
    assert_eq!(err.to_string(), "lines: no such attribute");

    // Through the entity: the decode error keeps the path.
    let mut stored = Note {
        id: 1,
        text: "x".into(),
        open: None,
        tags: vec![],
        shape: None,
    }
    .to_item()
    .unwrap();
    stored.insert(
        "tags".into(),
        AttributeValue::L(vec![AttributeValue::N("3".into())]),
    );
    let err = Note::from_item(stored).unwrap_err();
    assert_eq!(err.field(), Some("tags[0]"));
    assert!(
        err.to_string().contains(
            "cannot decode `tags[0]` of `Note` at PK=NOTE#1 SK=NOTE: expected a string, found a number"
        ),
        "{err}"
    );
}

#[test]
fn encode_errors_name_the_path() {
    #[derive(Serialize)]
    struct Wide {
        values: Vec<std::collections::BTreeMap<String, u128>>,
    }
    let wide = Wide {
        values: vec![Default::default(), [("big".to_owned(), 1u128)].into()],
    };
    let err = codec::to_item(&wide).unwrap_err();
    assert_eq!(err.path(), "values[1].big");
    assert!(serde_dynamo::to_item::<_, Item>(&wide).is_err());

    #[derive(Serialize)]
    struct FloatKeys {
        by_float: std::collections::BTreeMap<u8, std::collections::HashMap<bool, ()>>,
    }
    // Where serde_dynamo panics (a map key that is a sequence), we refuse.
    let mut seq_keys = std::collections::BTreeMap::new();
    seq_keys.insert(vec![1u8], 1u8);
    let err = codec::to_attribute_value(&seq_keys).unwrap_err();
    assert!(err.message().contains("map key"), "{err}");
    let ok = FloatKeys {
        by_float: [(1, [(true, ())].into())].into(),
    };
    assert_eq!(
        codec::to_item(&ok).unwrap(),
        serde_dynamo::to_item::<_, Item>(&ok).unwrap()
    );
}
