//! Generated code compiles without warnings next to names that shadow the
//! prelude, with raw identifiers, generics and sparse indexes, and
//! collections (a struct and an enum) of those entities.
#![deny(warnings, missing_docs)]

use ddb_entity::{Collection, CollectionItem, Entity, KeyPart};
use serde::{Deserialize, Serialize};

/// Shadows the prelude: generated code must use absolute paths.
#[allow(dead_code)]
struct Result;
/// Shadows the prelude.
#[allow(dead_code)]
struct Option;
/// Shadows the prelude.
#[allow(dead_code)]
struct Vec;
/// Shadows the prelude.
#[allow(dead_code)]
struct String;

ddb_entity::table! {
    /// The table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        type_attribute: "kind",
        indexes: {
            /// Overloaded index.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// Partition-only index.
            pub ByRef = "ByRef" { partition_key: "REF" },
        },
    }
}

/// A unit enum key part, stored as position and name (`OPEN` would sort
/// after `Closed`).
#[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
#[key(format = "position")]
pub enum Status {
    /// Open.
    #[key(rename = "OPEN")]
    Open,
    /// Closed.
    Closed,
}

/// Raw identifiers, a width, a sparse index and an index without sort key.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "T#{type}", sk = "ITEM#{status}#{seq:4}", type = "THING")]
#[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "{seq:4}")]
#[entity(index = ByRef, pk = "{reference}")]
pub struct Thing {
    /// A raw identifier.
    pub r#type: std::string::String,
    /// A key part enum.
    pub status: Status,
    /// Fixed width.
    pub seq: u16,
    /// Sparse.
    pub open_since: std::option::Option<u32>,
    /// Index without sort key.
    pub reference: std::string::String,
}

/// A raw identifier in the primary key and in an index template: an
/// update's index change reads it back from the key (issue 27).
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "KIND#{type}", sk = "TAGGED#{n}")]
#[entity(index = Gsi1, pk = "BY_KIND#{type}", sk = "{label}")]
pub struct Tagged {
    /// A raw identifier in both.
    pub r#type: std::string::String,
    /// A number.
    pub n: u32,
    /// In the index only.
    pub label: std::string::String,
}

/// A generic entity.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "BOX#{id}", sk = "BOX#{label}")]
pub struct Boxed<T> {
    /// Id.
    pub id: u64,
    /// Label.
    pub label: std::string::String,
    /// Payload.
    pub payload: T,
}

/// A struct collection: raw identifiers, full paths, a generic entity.
#[derive(Collection)]
pub struct View {
    /// At most one.
    pub r#type: std::option::Option<Thing>,
    /// Any number.
    pub boxes: std::vec::Vec<Boxed<u8>>,
}

/// An enum collection.
#[derive(Collection)]
pub enum Mixed {
    /// A thing.
    Thing(Thing),
    /// A box.
    Boxed(Boxed<u8>),
}

pub(crate) fn main() -> std::result::Result<(), ddb_entity::Error> {
    let thing = Thing {
        r#type: "widget".into(),
        status: Status::Open,
        seq: 7,
        open_since: None,
        reference: "R-1".into(),
    };
    assert_eq!(Tagged::TYPE_TAG, "tagged");
    let key = thing.primary_key()?;
    assert_eq!(key.partition(), "T#widget");
    assert_eq!(key.sort(), "ITEM#00-OPEN#0007");
    let item = thing.to_item()?;
    assert!(!item.contains_key("GSI1PK"));
    assert_eq!(item["REF"].as_s().ok().map(|s| s.as_str()), Some("R-1"));
    assert_eq!(item["kind"].as_s().ok().map(|s| s.as_str()), Some("THING"));
    let prefix: ddb_entity::SortKey<ddb_entity::Primary<App>> =
        Thing::sk().status(Status::Closed).into();
    assert_eq!(prefix.value().ok(), Some("ITEM#01-Closed#"));
    let _ = Thing::by_ref_partition("R-1")?;

    let boxed = Boxed {
        id: 1,
        label: "a".into(),
        payload: 5u8,
    };
    assert_eq!(boxed.primary_key()?.sort(), "BOX#a");
    let _ = Boxed::<u8>::sk().label("a");

    let mut view = View::default();
    assert!(view.push_item("THING", thing.to_item()?)?);
    assert!(view.push_item("boxed", boxed.to_item()?)?);
    assert!(!view.push_item("OTHER", boxed.to_item()?)?);
    assert!(view.r#type.is_some() && view.boxes.len() == 1);
    let mixed = Mixed::from_typed_item("boxed", boxed.to_item()?)?;
    assert!(matches!(mixed, Some(Mixed::Boxed(b)) if b.payload == 5));
    assert!(matches!(
        Mixed::from_typed_item("THING", thing.to_item()?)?,
        Some(Mixed::Thing(_))
    ));
    Ok(())
}
