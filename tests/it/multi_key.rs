//! Multi-attribute index keys (DynamoDB, November 2025: a global index key
//! of up to four partition and four sort attributes, each in its native
//! type). First what both servers the suite runs on accept and refuse,
//! through the raw SDK; then the library's support on top of it: the
//! index declared in `table!`, created by `create_table_if_missing`, and
//! queried with typed conditions (`Db::query_multi`).

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, ScalarAttributeType,
};
use ddb_entity::local::LocalDynamo;

fn key(name: &str, kind: KeyType) -> KeySchemaElement {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .expect("complete")
}

fn definition(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition::builder()
        .attribute_name(name)
        .attribute_type(ty)
        .build()
        .expect("complete")
}

/// `(tournament, region)` → `(round, score)`: strings, then numbers.
async fn create(client: &Client, table: &str) {
    client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest)
        .key_schema(key("PK", KeyType::Hash))
        .attribute_definitions(definition("PK", ScalarAttributeType::S))
        .attribute_definitions(definition("tournament", ScalarAttributeType::S))
        .attribute_definitions(definition("region", ScalarAttributeType::S))
        .attribute_definitions(definition("round", ScalarAttributeType::N))
        .attribute_definitions(definition("score", ScalarAttributeType::N))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("ByRound")
                .key_schema(key("tournament", KeyType::Hash))
                .key_schema(key("region", KeyType::Hash))
                .key_schema(key("round", KeyType::Range))
                .key_schema(key("score", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .expect("complete"),
        )
        .send()
        .await
        .expect("a multi-attribute index is created");
}

/// The ids a Query of `condition` returns, or `None` for a
/// ValidationException.
async fn query(
    client: &Client,
    table: &str,
    condition: &str,
    values: &[(&str, AttributeValue)],
) -> Option<Vec<String>> {
    let mut request = client
        .query()
        .table_name(table)
        .index_name("ByRound")
        .key_condition_expression(condition);
    // `region` is a reserved word: every attribute goes by a placeholder.
    for (placeholder, name) in [
        ("#t", "tournament"),
        ("#r", "region"),
        ("#n", "round"),
        ("#s", "score"),
    ] {
        if condition.contains(placeholder) {
            request = request.expression_attribute_names(placeholder, name);
        }
    }
    for (placeholder, value) in values {
        request = request.expression_attribute_values(*placeholder, value.clone());
    }
    match request.send().await {
        Ok(output) => Some(
            output
                .items()
                .iter()
                .filter_map(|item| item.get("PK")?.as_s().ok().cloned())
                .collect(),
        ),
        Err(err) => {
            let code = err.as_service_error().and_then(|e| e.meta().code());
            assert_eq!(code, Some("ValidationException"), "{err:?}");
            None
        }
    }
}

#[tokio::test]
async fn both_servers_take_multi_attribute_index_keys() {
    let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
    let client = dynamo.client();
    let table = dynamo.unique_table_name("multi");
    create(&client, &table).await;
    let described = client
        .describe_table()
        .table_name(&table)
        .send()
        .await
        .expect("described");
    let keys: Vec<(String, KeyType)> = described.table().expect("table").global_secondary_indexes()
        [0]
    .key_schema()
    .iter()
    .map(|k| (k.attribute_name().to_owned(), k.key_type().clone()))
    .collect();
    assert_eq!(keys.len(), 4, "{keys:?}");

    for (id, tournament, region, round, score) in [
        ("a", "T1", "eu", 1, 10),
        ("b", "T1", "eu", 1, 30),
        ("c", "T1", "eu", 2, 5),
        ("d", "T1", "us", 1, 50),
        ("e", "T2", "eu", 1, 1),
    ] {
        client
            .put_item()
            .table_name(&table)
            .item("PK", AttributeValue::S(id.into()))
            .item("tournament", AttributeValue::S(tournament.into()))
            .item("region", AttributeValue::S(region.into()))
            .item("round", AttributeValue::N(round.to_string()))
            .item("score", AttributeValue::N(score.to_string()))
            .send()
            .await
            .expect("put");
    }
    // Without every key attribute, an item is not in the index.
    client
        .put_item()
        .table_name(&table)
        .item("PK", AttributeValue::S("f".into()))
        .item("tournament", AttributeValue::S("T1".into()))
        .item("region", AttributeValue::S("eu".into()))
        .send()
        .await
        .expect("put");

    let s = |v: &str| AttributeValue::S(v.into());
    let n = |v: u32| AttributeValue::N(v.to_string());
    let (t1, eu) = ((":t", s("T1")), (":r", s("eu")));
    let partition = "#t = :t AND #r = :r";
    // Equality on every partition attribute; the sort attributes order the
    // result as numbers, left to right.
    assert_eq!(
        query(&client, &table, partition, &[t1.clone(), eu.clone()]).await,
        Some(vec!["a".into(), "b".into(), "c".into()])
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #n = :n AND #s > :s",
            &[t1.clone(), eu.clone(), (":n", n(1)), (":s", n(15))]
        )
        .await,
        Some(vec!["b".into()])
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #n BETWEEN :lo AND :hi",
            &[t1.clone(), eu.clone(), (":lo", n(2)), (":hi", n(9))]
        )
        .await,
        Some(vec!["c".into()])
    );
    // Refused: a partition attribute left out, and a condition on a later
    // sort attribute without equality on the earlier ones.
    assert_eq!(
        query(&client, &table, "#t = :t", std::slice::from_ref(&t1)).await,
        None
    );
    assert_eq!(
        query(
            &client,
            &table,
            "#t = :t AND #r = :r AND #s > :s",
            &[t1, eu, (":s", n(15))]
        )
        .await,
        None
    );
}

mod typed {
    use aws_sdk_dynamodb::types::KeyType;
    use ddb_entity::op::Provisioned;
    use ddb_entity::{Db, Entity, ErrorKind, Table, UnknownItems};
    use serde::{Deserialize, Serialize};

    use crate::support::RequestLog;
    use ddb_entity::local::LocalDynamo;

    ddb_entity::table! {
        /// Matches of tournaments, by round on a multi-attribute index.
        pub struct Games {
            partition_key: "PK",
            sort_key: "SK",
            indexes: {
                /// An ordinary index beside it.
                pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            },
            multi_key_indexes: {
                /// Per tournament and region, by round then score.
                pub ByRound = "ByRound" {
                    partition_key: ["tournament": S, "region": S],
                    sort_key: ["round": N, "score": N],
                },
                /// Per player, no sort key.
                pub ByPlayer = "ByPlayer" { partition_key: ["player": S] },
            },
        }
    }

    /// A match: its fields are the index's key, stored as they are.
    #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    #[entity(index = Gsi1, pk = "PLAYED#{tournament}", sk = "{id}")]
    pub struct Match {
        pub id: u32,
        pub tournament: String,
        pub region: String,
        /// `None` until scheduled: not in `ByRound` until then.
        pub round: Option<u32>,
        pub score: u32,
        pub player: String,
    }

    /// Another type with the same attributes: also in the index.
    #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[entity(table = Games, pk = "BYE#{id}", sk = "BYE")]
    pub struct Bye {
        pub id: u32,
        pub tournament: String,
        pub region: String,
        pub round: u32,
        pub score: u32,
    }

    /// A type that stores `round` as a string: a value of it can never
    /// match the numeric attribute.
    #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
    #[entity(table = Games, pk = "NOTE#{id}", sk = "NOTE")]
    pub struct Note {
        pub id: u32,
        pub round: String,
    }

    fn game(id: u32, tournament: &str, region: &str, round: Option<u32>, score: u32) -> Match {
        Match {
            id,
            tournament: tournament.into(),
            region: region.into(),
            round,
            score,
            player: format!("p{}", id % 2),
        }
    }

    async fn games() -> (LocalDynamo, Db<Games>, RequestLog) {
        let dynamo = LocalDynamo::start().await.expect("local DynamoDB starts");
        let log = RequestLog::default();
        let config = dynamo.config_builder().interceptor(log.clone()).build();
        let client = aws_sdk_dynamodb::Client::from_conf(config);
        let db = Db::<Games>::new(client, dynamo.unique_table_name("multi"));
        let created = db
            .create_table_if_missing()
            .await
            .expect("table is created");
        assert_eq!(created, Provisioned::Created);
        for m in [
            game(1, "T1", "eu", Some(1), 10),
            game(2, "T1", "eu", Some(1), 30),
            game(3, "T1", "eu", Some(2), 5),
            game(4, "T1", "us", Some(1), 50),
            game(5, "T2", "eu", Some(1), 1),
            game(6, "T1", "eu", None, 99),
        ] {
            db.put(&m).await.expect("put");
        }
        log.clear();
        (dynamo, db, log)
    }

    fn ids(matches: &[Match]) -> Vec<u32> {
        matches.iter().map(|m| m.id).collect()
    }

    #[tokio::test]
    async fn create_table_declares_the_index_in_key_order_and_accepts_it_again() {
        let (_dynamo, db, _log) = games().await;
        Games::SCHEMA.validate().expect("valid");
        let described = db
            .client()
            .describe_table()
            .table_name(db.table_name())
            .send()
            .await
            .expect("described");
        let table = described.table().expect("table");
        let index = table
            .global_secondary_indexes()
            .iter()
            .find(|i| i.index_name() == Some("ByRound"))
            .expect("ByRound");
        let keys: Vec<(&str, &KeyType)> = index
            .key_schema()
            .iter()
            .map(|k| (k.attribute_name(), k.key_type()))
            .collect();
        assert_eq!(
            keys,
            [
                ("tournament", &KeyType::Hash),
                ("region", &KeyType::Hash),
                ("round", &KeyType::Range),
                ("score", &KeyType::Range),
            ]
        );
        let types: Vec<(&str, &str)> = table
            .attribute_definitions()
            .iter()
            .map(|d| (d.attribute_name(), d.attribute_type().as_str()))
            .filter(|(name, _)| ["tournament", "region", "round", "score", "player"].contains(name))
            .collect();
        assert_eq!(types.len(), 5, "{types:?}");
        assert!(types.contains(&("round", "N")) && types.contains(&("player", "S")));
        // The second time, the declaration matches what is there.
        assert_eq!(
            db.create_table_if_missing().await.expect("matches"),
            Provisioned::AlreadyExisted
        );
    }

    #[tokio::test]
    async fn typed_conditions_go_left_to_right_in_one_request() {
        let (_dynamo, db, log) = games().await;
        let f = Match::fields();
        let partition = || {
            db.query_multi::<ByRound>()
                .eq(f.tournament, "T1".to_owned())
                .eq(f.region, "eu".to_owned())
        };
        // Ordered by round then score, as numbers; match 6 has no round yet.
        assert_eq!(ids(&partition().all().await.unwrap()), [1, 2, 3]);
        assert_eq!(log.operations(), ["Query"]);
        assert_eq!(
            ids(&partition().reverse(true).all().await.unwrap()),
            [3, 2, 1]
        );
        assert_eq!(
            ids(&partition()
                .eq(f.round, Some(1))
                .gt(f.score, 15)
                .all()
                .await
                .unwrap()),
            [2]
        );
        assert_eq!(
            ids(&partition()
                .between(f.round, Some(2), Some(9))
                .all()
                .await
                .unwrap()),
            [3]
        );
        assert_eq!(
            ids(&partition()
                .eq(f.round, Some(1))
                .eq(f.score, 10)
                .all()
                .await
                .unwrap()),
            [1]
        );
        assert_eq!(
            ids(&partition()
                .ge(f.round, Some(1))
                .limit(2)
                .all()
                .await
                .unwrap()),
            [1, 2]
        );
        // Pages follow one another: three requests of one item each.
        log.clear();
        assert_eq!(
            ids(&partition().page_size(1).all().await.unwrap()),
            [1, 2, 3]
        );
        assert!(log.count("Query") >= 3, "{:?}", log.operations());
        // A filter on a field that is not a key attribute.
        let filtered = partition()
            .filter(f.player.equals("p0".to_owned()))
            .all()
            .await
            .unwrap();
        assert_eq!(ids(&filtered), [2]);
        // An index without a sort key.
        let p1: Vec<Match> = db
            .query_multi::<ByPlayer>()
            .eq(f.player, "p1".to_owned())
            .all()
            .await
            .unwrap();
        assert_eq!(ids(&p1).len(), 3);
    }

    #[tokio::test]
    async fn first_one_and_count_read_no_more_than_they_need() {
        let (_dynamo, db, log) = games().await;
        let f = Match::fields();
        let partition = || {
            db.query_multi::<ByRound>()
                .eq(f.tournament, "T1".to_owned())
                .eq(f.region, "eu".to_owned())
        };
        // The best score of round 1: one item, one request.
        let best: Option<Match> = partition()
            .eq(f.round, Some(1))
            .reverse(true)
            .first()
            .await
            .unwrap();
        assert_eq!(best.map(|m| m.id), Some(2));
        assert_eq!(log.operations(), ["Query"]);
        // A unique lookup, and one that is not: two items a request.
        log.clear();
        let one: Option<Match> = partition()
            .eq(f.round, Some(2))
            .eq(f.score, 5)
            .one()
            .await
            .unwrap();
        assert_eq!(one.map(|m| m.id), Some(3));
        let err = partition().one::<Match>().await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::MoreThanOne);
        assert!(err.to_string().contains("region = \"eu\""), "{err}");
        assert_eq!(log.operations(), ["Query", "Query"]);
        let none: Option<Match> = partition().eq(f.round, Some(9)).one().await.unwrap();
        assert!(none.is_none());
        // Counted by the server across pages, none of them read back.
        log.clear();
        assert_eq!(partition().count().await.unwrap(), 3);
        assert_eq!(partition().page_size(2).count().await.unwrap(), 3);
        assert_eq!(log.count("Query"), 3, "{:?}", log.operations());
        let filtered = partition().filter(f.player.equals("p0".to_owned()));
        assert_eq!(filtered.count().await.unwrap(), 1);
    }

    #[tokio::test]
    async fn other_types_in_the_index_follow_the_unknown_item_policy() {
        let (_dynamo, db, _log) = games().await;
        db.put(&Bye {
            id: 7,
            tournament: "T1".into(),
            region: "eu".into(),
            round: 3,
            score: 0,
        })
        .await
        .unwrap();
        let f = Match::fields();
        let partition = || {
            db.query_multi::<ByRound>()
                .eq(f.tournament, "T1".to_owned())
                .eq(f.region, "eu".to_owned())
        };
        // Skipped by default, an error if asked, filtered out by DynamoDB.
        assert_eq!(ids(&partition().all().await.unwrap()), [1, 2, 3]);
        let err = partition()
            .on_unknown(UnknownItems::Error)
            .all::<Match>()
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::UnknownType);
        assert_eq!(
            ids(&partition()
                .on_unknown(UnknownItems::Filter)
                .all()
                .await
                .unwrap()),
            [1, 2, 3]
        );
        // And a Bye is read as one, through its own fields.
        let byes: Vec<Bye> = db
            .query_multi::<ByRound>()
            .eq(Bye::fields().tournament, "T1".to_owned())
            .eq(Bye::fields().region, "eu".to_owned())
            .ge(Bye::fields().round, 3)
            .all()
            .await
            .unwrap();
        assert_eq!(byes.len(), 1);
    }

    #[tokio::test]
    async fn what_dynamodb_would_refuse_is_refused_before_sending() {
        let (_dynamo, db, log) = games().await;
        let f = Match::fields();
        let t1 = || "T1".to_owned();
        let eu = || "eu".to_owned();
        let cases = [
            (
                "a partition attribute left out",
                db.query_multi::<ByRound>().eq(f.tournament, t1()),
            ),
            (
                "out of order",
                db.query_multi::<ByRound>()
                    .eq(f.region, eu())
                    .eq(f.tournament, t1()),
            ),
            (
                "a sort attribute skipped",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .gt(f.score, 1),
            ),
            (
                "a range on a partition attribute",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .ge(f.region, eu()),
            ),
            (
                "a range before the last condition",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .gt(f.round, Some(1))
                    .eq(f.score, 1),
            ),
            (
                "a None for a number",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .eq(f.round, None),
            ),
            (
                "begins_with on a number",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .begins_with(f.round, Some(1)),
            ),
            (
                "an empty string",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, String::new())
                    .eq(f.region, eu()),
            ),
            (
                "a filter on a key attribute",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .filter(f.score.gt(1)),
            ),
            (
                "a field of another type under the attribute's name",
                db.query_multi::<ByRound>()
                    .eq(f.tournament, t1())
                    .eq(f.region, eu())
                    .eq(Note::fields().round, "1".to_owned()),
            ),
        ];
        for (what, query) in cases {
            let err = query.all::<Match>().await.unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidExpression, "{what}: {err}");
        }
        assert!(log.operations().is_empty(), "{:?}", log.operations());
    }

    #[tokio::test]
    async fn a_field_of_another_type_than_its_index_attribute_is_refused_before_sending() {
        let (_dynamo, db, log) = games().await;
        // DynamoDB refuses an item whose index key attribute has another
        // type than the index's ("Type mismatch for Index Key"), and so
        // does the embedded server; moto stores it. Refused before sending.
        let note = Note {
            id: 1,
            round: "one".into(),
        };
        let err = db.put(&note).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Key, "{err}");
        assert!(err.to_string().contains("`round`"), "{err}");
        let err = db
            .update(Note::key(1).unwrap())
            .set(Note::fields().round, "two".to_owned())
            .await
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Key, "{err}");
        let err = db.put(&game(9, "", "eu", Some(1), 1)).await.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Key, "an empty string key: {err}");
        assert!(log.operations().is_empty(), "{:?}", log.operations());
        // The same attribute, well typed, is written.
        db.update(Match::key(1).unwrap())
            .set(Match::fields().round, Some(4))
            .await
            .unwrap();
    }

    #[test]
    fn declarations_dynamodb_would_refuse_are_invalid_schemas() {
        use ddb_entity::{KeyAttribute, KeyAttributeType, MultiKeyIndexSchema, TableSchema};
        const fn attr(name: &'static str, ty: KeyAttributeType) -> KeyAttribute {
            KeyAttribute { name, ty }
        }
        const S: KeyAttributeType = KeyAttributeType::S;
        const N: KeyAttributeType = KeyAttributeType::N;
        static FIVE: [KeyAttribute; 5] = [
            attr("a", S),
            attr("b", S),
            attr("c", S),
            attr("d", S),
            attr("e", S),
        ];
        static ON_PK: [KeyAttribute; 1] = [attr("PK", S)];
        static ON_TYPE: [KeyAttribute; 1] = [attr("_type", S)];
        static TWICE: [KeyAttribute; 2] = [attr("a", S), attr("a", S)];
        static AS_S: [KeyAttribute; 1] = [attr("round", S)];
        static AS_N: [KeyAttribute; 1] = [attr("round", N)];
        let with = |indexes: &'static [MultiKeyIndexSchema]| TableSchema {
            multi_key_indexes: indexes,
            ..Games::SCHEMA
        };
        let index = |name, partition_key, sort_key| MultiKeyIndexSchema {
            name,
            partition_key,
            sort_key,
        };
        let cases: Vec<(&str, Vec<MultiKeyIndexSchema>, &str)> = vec![
            (
                "five partition attributes",
                vec![index("Idx", &FIVE, &[])],
                "1 to 4",
            ),
            (
                "five sort attributes",
                vec![index("Idx", &AS_N, &FIVE)],
                "1 to 4",
            ),
            ("the table's key", vec![index("Idx", &ON_PK, &[])], "`PK`"),
            (
                "the type attribute",
                vec![index("Idx", &ON_TYPE, &[])],
                "`_type`",
            ),
            (
                "an attribute twice",
                vec![index("Idx", &TWICE, &[])],
                "twice",
            ),
            (
                "one attribute, two types",
                vec![index("One", &AS_S, &[]), index("Two", &AS_N, &[])],
                "one type",
            ),
            (
                "a name taken by an index",
                vec![index("GSI1", &AS_N, &[])],
                "twice",
            ),
        ];
        for (what, indexes, says) in cases {
            let indexes: &'static [MultiKeyIndexSchema] = Box::leak(indexes.into_boxed_slice());
            let err = with(indexes).validate().unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidSchema, "{what}");
            assert!(err.to_string().contains(says), "{what}: {err}");
        }
    }
}
