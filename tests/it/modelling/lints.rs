//! Every lint, triggered by the mistake it names and silenced: by fixing
//! the model, or by `Model::allow` with a reason the report keeps.

use chrono::NaiveDate;
use ddb_entity::model::{AccessPattern, Finding, Lint, Model, Report, Severity};
use ddb_entity::{Entity, KeyPart, Partition, Primary, Table};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// On demand, two generic indexes, one keys-only.
    pub struct Shared {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            pub Thin = "Thin" { partition_key: "THINPK", projection: keys_only },
        },
    }
}

ddb_entity::table! {
    /// Provisioned: the table writes 10 units a second.
    pub struct Billed {
        partition_key: "PK",
        sort_key: "SK",
        billing: provisioned { read: 10, write: 10 },
        indexes: {
            pub Starved = "Starved" { partition_key: "GSI1PK", capacity: { read: 10, write: 5 } },
            pub Fed = "Fed" { partition_key: "GSI2PK", capacity: { read: 1, write: 10 } },
        },
    }
}

ddb_entity::table! {
    /// With a local index.
    pub struct Local {
        partition_key: "PK",
        sort_key: "SK",
        local_indexes: { pub ByDay = "ByDay" { sort_key: "day" } },
    }
}

/// `ITEM#{id}` / `PROFILE`, in GSI1 under `G#{group}` / `{name}`.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Shared, pk = "ITEM#{id}", sk = "PROFILE")]
#[entity(index = Gsi1, pk = "G#{group}", sk = "{name}")]
#[entity(index = Thin, pk = "NAME#{name}")]
pub struct Item {
    pub id: u64,
    pub group: u32,
    pub name: String,
}

/// Under an item: `{label}` — a hole-led sort key that can write `PROFILE`.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Shared, pk = "ITEM#{id}", sk = "{label}", type = "NOTE")]
#[entity(index = Gsi1, pk = "G#{group}", sk = "NOTE")]
pub struct Note {
    pub id: u64,
    pub group: u32,
    pub label: String,
}

/// Like `Note`, with a literal of its own: collides with nothing.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Shared, pk = "ITEM#{id}", sk = "TAG#{label}")]
pub struct Tag {
    pub id: u64,
    pub label: String,
}

/// Few values.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Low,
    High,
}

/// Open tasks in one literal partition; tasks by day and by level.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Billed, pk = "TASK#{id}", sk = "TASK")]
#[entity(index = Starved, pk = "OPEN")]
#[entity(index = Fed, pk = "LEVEL#{level}")]
pub struct Task {
    pub id: u64,
    pub level: Level,
}

/// Events of a stream, any number per stream; `day` fills the local index.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Local, pk = "STREAM#{stream}", sk = "EVENT#{seq}")]
pub struct Event {
    pub stream: u64,
    pub seq: u64,
    pub day: NaiveDate,
}

/// One stream's settings: one item per stream.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Local, pk = "STREAM#{stream}", sk = "SETTINGS")]
pub struct Settings {
    pub stream: u64,
}

fn findings(report: &Report, lint: Lint) -> Vec<&Finding> {
    report.of_lint(lint).collect()
}

/// The one finding of `lint`, active, about `subject`.
#[track_caller]
fn triggered(report: &Report, lint: Lint, subject: &str) -> String {
    let found = findings(report, lint);
    assert_eq!(found.len(), 1, "{report}");
    assert_eq!(found[0].subject, subject, "{report}");
    assert!(found[0].is_active());
    found[0].message.clone()
}

/// `lint`'s finding about `subject` is there, allowed with `reason`, and
/// the report counts nothing else.
#[track_caller]
fn allowed(report: &Report, lint: Lint, subject: &str, reason: &str) {
    let found = findings(report, lint);
    assert_eq!(found.len(), 1, "{report}");
    assert_eq!(found[0].subject, subject);
    assert_eq!(found[0].allowed.as_deref(), Some(reason));
    assert!(report.to_string().contains(reason));
}

fn shared() -> Model<Shared> {
    Model::<Shared>::new("shared")
}

#[test]
fn key_collision() {
    let model = || shared().entity::<Item>().entity::<Note>();
    let report = model().report();
    let message = triggered(&report, Lint::KeyCollision, "Item and Note");
    assert!(
        message.contains("`ITEM#{id}` / `PROFILE` and `ITEM#{id}` / `{label}`"),
        "{message}"
    );
    assert_eq!(Lint::KeyCollision.severity(), Severity::Error);
    // Fixed: a literal of its own.
    shared()
        .entity::<Item>()
        .entity::<Tag>()
        .report()
        .assert_clean();
    // Or allowed.
    let report = model()
        .allow(
            Lint::KeyCollision,
            "Item and Note",
            "labels are upper case words, never PROFILE",
        )
        .report();
    allowed(
        &report,
        Lint::KeyCollision,
        "Item and Note",
        "labels are upper case words, never PROFILE",
    );
}

#[test]
fn duplicate_type() {
    /// Another entity declaring `Item`'s type, in keys of its own.
    #[derive(Entity, Serialize, Deserialize, Debug)]
    #[entity(table = Shared, type = "item", pk = "DUP#{id}", sk = "DUP")]
    pub struct Dup {
        pub id: u32,
    }
    /// Two entities whose sort keys are both `PROFILE`: two types.
    #[derive(Entity, Serialize, Deserialize, Debug)]
    #[entity(table = Shared, pk = "EMPLOYEE#{id}", sk = "PROFILE")]
    pub struct Employee {
        pub id: u32,
    }
    let report = shared().entity::<Item>().entity::<Dup>().report();
    let message = triggered(&report, Lint::DuplicateType, "Item and Dup");
    assert!(
        message.starts_with("both store the type attribute value `item`"),
        "{message}"
    );
    assert!(message.contains("type = \"…\""), "{message}");
    assert_eq!(Lint::DuplicateType.severity(), Severity::Error);
    assert_eq!(Lint::DuplicateType.name(), "duplicate-type");
    // The same entity registered twice is one type, and entities whose
    // sort keys share a literal are not alike.
    shared()
        .entity::<Item>()
        .entity::<Item>()
        .entity::<Employee>()
        .report()
        .assert_clean();
}

#[test]
fn pattern_request() {
    #[derive(Entity, Serialize, Deserialize, Debug)]
    #[entity(table = Shared, pk = "W#{n:2}", sk = "W")]
    pub struct Narrow {
        pub n: u32,
    }
    let pattern = |n: u32| AccessPattern::get("Narrow by n", move |db| Ok(db.get(Narrow::key(n)?)));
    let report = shared().entity::<Narrow>().pattern(pattern(100)).report();
    let message = triggered(&report, Lint::PatternRequest, "Narrow by n");
    assert!(message.contains("width"), "{message}");
    assert!(!report.patterns[0].ok);
    shared()
        .entity::<Narrow>()
        .pattern(pattern(42))
        // Two digits write at most 100 partition values: hot, and not
        // this test's.
        .allow(Lint::HotPartition, "Narrow on the table", "not this test's")
        .allow(Lint::UnusedIndex, "GSI1", "not this test's")
        .allow(Lint::UnusedIndex, "Thin", "not this test's")
        .report()
        .assert_clean();
}

#[test]
fn pattern_reads_nothing() {
    let nowhere = || {
        AccessPattern::query("Nowhere", |db| {
            Ok(db.query(Partition::<Primary<Shared>>::new("NOPE#1".into())?))
        })
    };
    let report = shared().entity::<Item>().pattern(nowhere()).report();
    triggered(&report, Lint::PatternReadsNothing, "Nowhere");
    let report = shared()
        .entity::<Item>()
        .pattern(nowhere())
        .allow(
            Lint::PatternReadsNothing,
            "Nowhere",
            "written by another service",
        )
        .report();
    allowed(
        &report,
        Lint::PatternReadsNothing,
        "Nowhere",
        "written by another service",
    );
}

#[test]
fn pattern_key_collision_on_an_index() {
    // Item's `{name}` can be `NOTE`, Note's GSI1 sort key.
    let group = || {
        AccessPattern::query("A group", |db| Ok(db.query(Item::gsi1_partition(1)?)))
            .returns::<Vec<Item>>()
    };
    let model = || shared().entity::<Item>().entity::<Tag>().entity::<Note>();
    let report = model()
        .allow(Lint::KeyCollision, "Item and Note", "checked elsewhere")
        .allow(Lint::PatternReadsOtherTypes, "A group", "notes are few")
        .allow(Lint::UnusedIndex, "Thin", "not this test's")
        .pattern(group())
        .report();
    let message = triggered(&report, Lint::PatternKeyCollision, "A group");
    assert!(
        message.contains("`Item` and `Note` can have the same key on index GSI1"),
        "{message}"
    );
    let report = model()
        .allow(Lint::KeyCollision, "Item and Note", "checked elsewhere")
        .allow(Lint::PatternReadsOtherTypes, "A group", "notes are few")
        .allow(Lint::UnusedIndex, "Thin", "not this test's")
        .allow(Lint::PatternKeyCollision, "A group", "names are lower case")
        .pattern(group())
        .report();
    allowed(
        &report,
        Lint::PatternKeyCollision,
        "A group",
        "names are lower case",
    );
}

#[test]
fn pattern_misses_type_and_reads_other_types() {
    // The partition holds items, tags and notes.
    let everything = || AccessPattern::query("An item", |db| Ok(db.query(Item::partition(1)?)));
    let model = || {
        shared()
            .entity::<Item>()
            .entity::<Tag>()
            .allow(Lint::UnusedIndex, "GSI1", "not this test's")
            .allow(Lint::UnusedIndex, "Thin", "not this test's")
    };
    let report = model()
        .pattern(everything().returns::<Vec<Item>>())
        .report();
    let message = triggered(&report, Lint::PatternReadsOtherTypes, "An item");
    assert!(message.contains("Tag"), "{message}");
    assert_eq!(Lint::PatternReadsOtherTypes.severity(), Severity::Warning);
    // Bounded to the tags' key space, it reads no item: asking for items
    // is a mistake.
    let tags = || {
        AccessPattern::query("Tags of an item", |db| {
            Ok(db.query(Tag::partition(1)?).sk_begins_with(Tag::sk()))
        })
    };
    let report = model().pattern(tags().returns::<Vec<Item>>()).report();
    let message = triggered(&report, Lint::PatternMissesType, "Tags of an item");
    assert!(message.contains("`item`"), "{message}");
    // Fixed: each returns what its range holds.
    model()
        .pattern(tags().returns::<Vec<Tag>>())
        .pattern(everything().returns::<ItemWithTags>())
        .report()
        .assert_clean();
    // Or allowed.
    let report = model()
        .pattern(everything().returns::<Vec<Item>>())
        .allow(
            Lint::PatternReadsOtherTypes,
            "An item",
            "an item has two tags at most",
        )
        .report();
    allowed(
        &report,
        Lint::PatternReadsOtherTypes,
        "An item",
        "an item has two tags at most",
    );
}

/// An item and its tags.
#[derive(ddb_entity::Collection, Debug)]
pub struct ItemWithTags {
    pub item: Option<Item>,
    pub tags: Vec<Tag>,
}

#[test]
fn pattern_projection() {
    let by_name = || {
        AccessPattern::query("Item by name", |db| {
            Ok(db.query(Item::thin_partition("bolt")?))
        })
        .returns::<Vec<Item>>()
    };
    let model = || {
        shared()
            .entity::<Item>()
            .allow(Lint::UnusedIndex, "GSI1", "not this test's")
    };
    let report = model().pattern(by_name()).report();
    let message = triggered(&report, Lint::PatternProjection, "Item by name");
    assert!(message.contains("`id`, `group`, `name`"), "{message}");
    // Asking only for what the index projects is fine.
    let keys = AccessPattern::query("Item key by name", |db| {
        Ok(db
            .query(Item::thin_partition("bolt")?)
            .projection(["PK", "SK"]))
    });
    model().pattern(keys).report().assert_clean();
    // Asking for more is not.
    let total = AccessPattern::query("Item group by name", |db| {
        Ok(db
            .query(Item::thin_partition("bolt")?)
            .projection(["group"]))
    });
    let report = model().pattern(total).report();
    let message = triggered(&report, Lint::PatternProjection, "Item group by name");
    assert!(message.contains("asks for `group`"), "{message}");
    let report = model()
        .pattern(by_name())
        .allow(Lint::PatternProjection, "Item by name", "then a GetItem")
        .report();
    allowed(
        &report,
        Lint::PatternProjection,
        "Item by name",
        "then a GetItem",
    );
}

fn billed() -> Model<Billed> {
    Model::<Billed>::new("billed")
        .entity::<Task>()
        .allow(Lint::HotPartition, "Task on Starved", "not this test's")
        .allow(Lint::HotPartition, "Task on Fed", "not this test's")
}

#[test]
fn index_under_provisioned() {
    let report = billed().report();
    let message = triggered(&report, Lint::IndexUnderProvisioned, "Starved");
    assert!(message.contains("5 write units, the table 10"), "{message}");
    // `Fed` reads 1 unit but writes as much as the table: fine.
    assert_eq!(
        <Fed as ddb_entity::Index>::SCHEMA.capacity.map(|c| c.write),
        Some(10)
    );
    let report = billed()
        .allow(
            Lint::IndexUnderProvisioned,
            "Starved",
            "auto scaling raises it first",
        )
        .report();
    allowed(
        &report,
        Lint::IndexUnderProvisioned,
        "Starved",
        "auto scaling raises it first",
    );
    report.assert_clean();
}

#[test]
fn index_projects_all() {
    let names = || {
        AccessPattern::query("Names of a group", |db| {
            Ok(db.query(Item::gsi1_partition(1)?).projection(["name"]))
        })
    };
    let model = || {
        shared()
            .entity::<Item>()
            .allow(Lint::UnusedIndex, "Thin", "not this test's")
    };
    let report = model().pattern(names()).report();
    let message = triggered(&report, Lint::IndexProjectsAll, "GSI1");
    assert!(message.contains(r#"include["name"]"#), "{message}");
    // A pattern reading whole items from it needs ALL: no finding.
    let whole = AccessPattern::query("A group", |db| Ok(db.query(Item::gsi1_partition(1)?)))
        .returns::<Vec<Item>>();
    model()
        .pattern(names())
        .pattern(whole)
        .report()
        .assert_clean();
    let report = model()
        .pattern(names())
        .allow(Lint::IndexProjectsAll, "GSI1", "whole items soon")
        .report();
    allowed(&report, Lint::IndexProjectsAll, "GSI1", "whole items soon");
}

#[test]
fn unused_index() {
    let get = || AccessPattern::get("Item by id", |db| Ok(db.get(Item::key(1)?)));
    let report = shared().entity::<Item>().pattern(get()).report();
    assert_eq!(findings(&report, Lint::UnusedIndex).len(), 2, "{report}");
    // A model without patterns has nothing to compare with: no finding.
    shared().entity::<Item>().report().assert_clean();
    let report = shared()
        .entity::<Item>()
        .pattern(get())
        .allow(Lint::UnusedIndex, "GSI1", "the admin console reads it")
        .allow(Lint::UnusedIndex, "Thin", "the admin console reads it")
        .report();
    report.assert_clean();
}

#[test]
fn local_index_collection_limit() {
    let report = Model::<Local>::new("local").entity::<Event>().report();
    let message = triggered(&report, Lint::LocalIndexCollectionLimit, "ByDay");
    assert!(
        message.contains("10 GB") && message.contains("`Event`"),
        "{message}"
    );
    // One item per partition cannot outgrow it.
    Model::<Local>::new("local")
        .entity::<Settings>()
        .report()
        .assert_clean();
    let report = Model::<Local>::new("local")
        .entity::<Event>()
        .allow(
            Lint::LocalIndexCollectionLimit,
            "ByDay",
            "streams close at 10,000 events",
        )
        .report();
    allowed(
        &report,
        Lint::LocalIndexCollectionLimit,
        "ByDay",
        "streams close at 10,000 events",
    );
}

ddb_entity::table! {
    /// 21 global indexes: one over the default quota.
    pub struct Wide {
        partition_key: "PK",
        indexes: {
            pub I1 = "I01" { partition_key: "I01" }, pub I2 = "I02" { partition_key: "I02" },
            pub I3 = "I03" { partition_key: "I03" }, pub I4 = "I04" { partition_key: "I04" },
            pub I5 = "I05" { partition_key: "I05" }, pub I6 = "I06" { partition_key: "I06" },
            pub I7 = "I07" { partition_key: "I07" }, pub I8 = "I08" { partition_key: "I08" },
            pub I9 = "I09" { partition_key: "I09" }, pub I10 = "I10" { partition_key: "I10" },
            pub I11 = "I11" { partition_key: "I11" }, pub I12 = "I12" { partition_key: "I12" },
            pub I13 = "I13" { partition_key: "I13" }, pub I14 = "I14" { partition_key: "I14" },
            pub I15 = "I15" { partition_key: "I15" }, pub I16 = "I16" { partition_key: "I16" },
            pub I17 = "I17" { partition_key: "I17" }, pub I18 = "I18" { partition_key: "I18" },
            pub I19 = "I19" { partition_key: "I19" }, pub I20 = "I20" { partition_key: "I20" },
            pub I21 = "I21" { partition_key: "I21" },
        },
    }
}

#[test]
fn too_many_global_indexes() {
    assert_eq!(Wide::SCHEMA.indexes.len(), 21);
    // DynamoDB's quota can be raised: the declaration itself is valid.
    Wide::SCHEMA.validate().unwrap();
    let report = Model::<Wide>::new("wide").report();
    let message = triggered(&report, Lint::TooManyGlobalIndexes, "table");
    assert!(message.contains("21 global indexes"), "{message}");
    let report = Model::<Wide>::new("wide")
        .allow(Lint::TooManyGlobalIndexes, "table", "quota raised to 25")
        .report();
    allowed(
        &report,
        Lint::TooManyGlobalIndexes,
        "table",
        "quota raised to 25",
    );
}

#[test]
fn hot_partition() {
    let report = Model::<Billed>::new("billed")
        .entity::<Task>()
        .allow(Lint::IndexUnderProvisioned, "Starved", "not this test's")
        .report();
    let hot: Vec<(&str, &str)> = findings(&report, Lint::HotPartition)
        .iter()
        .map(|f| (f.subject.as_str(), f.message.as_str()))
        .collect();
    assert_eq!(hot.len(), 2, "{report}");
    assert_eq!(hot[0].0, "Task on Starved");
    assert!(
        hot[0].1.contains("`OPEN` is one literal value"),
        "{}",
        hot[0].1
    );
    assert_eq!(hot[1].0, "Task on Fed");
    assert!(hot[1].1.contains("at most 2 values"), "{}", hot[1].1);
    // A date follows the clock.
    #[derive(Entity, Serialize, Deserialize, Debug)]
    #[entity(table = Shared, pk = "DAY#{day}", sk = "EVENT#{id}")]
    pub struct Daily {
        pub day: NaiveDate,
        pub id: u64,
    }
    let report = shared().entity::<Daily>().report();
    let message = triggered(&report, Lint::HotPartition, "Daily on the table");
    assert!(
        message.contains("follows the clock through `{day}`"),
        "{message}"
    );
    // An id spreads: nothing to say.
    shared().entity::<Tag>().report().assert_clean();
    billed()
        .report()
        .of_lint(Lint::HotPartition)
        .for_each(|f| assert!(!f.is_active()));
}
