//! Queries of a multi-attribute index: equality on every partition
//! attribute, then conditions on the sort attributes left to right, each
//! value of its field's own type.

use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;
use futures_util::stream::Stream;
use serde::Serialize;

use super::engine::finish::{self, Page, Source};
use super::engine::run::{Lane, Named, Order, Run, Setup};
use super::engine::{Operation, Rendered, Target};
use super::filter::{Filters, Reading};
use super::query::projection;
use crate::collection::{Collection, CollectionItem, UnknownItems};
use crate::cursor::{Cursor, Scope, ShardPosition};
use crate::db::Db;
use crate::entity::{Entity, Field};
use crate::error::{Error, Repr, Result};
use crate::expr::{Condition, Placeholders};
use crate::table::{KeyAttribute, KeyAttributeType, MultiKeyIndex, Table};

impl<T: Table> Db<T> {
    /// A Query of the multi-attribute index `I` (declared in the
    /// `multi_key_indexes` block of [`table!`](crate::table!)): give every
    /// partition attribute with [`eq`](MultiQuery::eq), then, left to
    /// right, sort attributes — equal, until one range condition
    /// (`lt`/`le`/`gt`/`ge`/`between`/`begins_with`) that ends the key
    /// condition. Each condition names an entity field whose stored
    /// attribute is the index's attribute at that place, with a value of
    /// the field's type; conditions out of order, a partition attribute
    /// left out, or a value of another type than the attribute's are
    /// refused before sending ([`ErrorKind::InvalidExpression`](crate::error::ErrorKind::InvalidExpression)).
    ///
    /// An item is in such an index exactly when it has every one of its
    /// attributes (a field that is `None` or left out keeps it out): the
    /// entity's own fields are the key, no key string is written.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// ddb_entity::table! {
    ///     /// Scores of tournaments.
    ///     pub struct Games {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         multi_key_indexes: {
    ///             /// Per tournament and region, by round then score.
    ///             pub ByRound = "ByRound" {
    ///                 partition_key: ["tournament": S, "region": S],
    ///                 sort_key: ["round": N, "score": N],
    ///             },
    ///         },
    ///     }
    /// }
    ///
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    /// struct Match { id: u32, tournament: String, region: String, round: u32, score: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// db.create_table_if_missing().await?; // the index with its four attributes
    /// for (id, round, score) in [(1, 1, 10), (2, 1, 30), (3, 2, 5)] {
    ///     let (tournament, region) = ("T1".to_owned(), "eu".to_owned());
    ///     db.put(&Match { id, tournament, region, round, score }).await?;
    /// }
    /// let f = Match::fields();
    /// let high_in_round_1: Vec<Match> = db
    ///     .query_multi::<ByRound>()
    ///     .eq(f.tournament, "T1".to_owned())
    ///     .eq(f.region, "eu".to_owned())
    ///     .eq(f.round, 1)
    ///     .gt(f.score, 15)
    ///     .all()
    ///     .await?;
    /// assert_eq!(high_in_round_1.iter().map(|m| m.id).collect::<Vec<_>>(), [2]);
    ///
    /// // A sort attribute skipped: refused before sending.
    /// let err = db
    ///     .query_multi::<ByRound>()
    ///     .eq(f.tournament, "T1".to_owned())
    ///     .eq(f.region, "eu".to_owned())
    ///     .gt(f.score, 15)
    ///     .all::<Match>()
    ///     .await
    ///     .unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidExpression);
    /// # Ok(())
    /// # }
    /// ```
    pub fn query_multi<I: MultiKeyIndex<Table = T>>(&self) -> MultiQuery<'_, I> {
        MultiQuery {
            db: self,
            conditions: Vec::new(),
            filters: Filters::default(),
            reverse: false,
            limit: None,
            page_size: None,
            unknown: UnknownItems::default(),
            include_expired: false,
            cursor: None,
            projection: None,
            filter_text: None,
        }
    }
}

/// A Query of a multi-attribute index; see [`Db::query_multi`]. Finish
/// with [`collect`](Self::collect), [`all`](Self::all),
/// [`page`](Self::page), [`pages`](Self::pages), [`first`](Self::first),
/// [`one`](Self::one) or [`count`](Self::count) — the same finishing
/// methods, with the same guarantees, as [`Query`](crate::read::Query)'s.
///
/// # Example
///
/// Every key condition, setting and finishing method:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, UnknownItems, local::LocalDynamo, op::Page};
/// # use serde::{Deserialize, Serialize};
/// ddb_entity::table! {
///     pub struct Games {
///         partition_key: "PK",
///         sort_key: "SK",
///         multi_key_indexes: {
///             /// Per region, by player then score.
///             pub ByPlayer = "ByPlayer" {
///                 partition_key: ["region": S],
///                 sort_key: ["player": S, "score": N],
///             },
///         },
///     }
/// }
///
/// #[derive(Entity, Serialize, Deserialize, Debug)]
/// #[entity(table = Games, pk = "GAME#{id}", sk = "GAME")]
/// struct Game { id: u32, region: String, player: String, score: u32, ranked: bool }
///
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// for (id, player, score) in [(1, "ann", 10), (2, "ann", 20), (3, "ann", 30), (4, "bob", 5)] {
///     let (region, player) = ("eu".to_owned(), player.to_owned());
///     db.put(&Game { id, region, player, score, ranked: id != 2 }).await?;
/// }
/// let f = Game::fields();
/// let eu = || db.query_multi::<ByPlayer>().eq(f.region, "eu".to_owned());
/// let ann = || eu().eq(f.player, "ann".to_owned());
/// let ids = |games: Vec<Game>| games.iter().map(|g| g.id).collect::<Vec<_>>();
///
/// // The last condition may be a range on the next sort attribute.
/// assert_eq!(ids(ann().lt(f.score, 20).all().await?), [1]);
/// assert_eq!(ids(ann().le(f.score, 20).all().await?), [1, 2]);
/// assert_eq!(ids(ann().gt(f.score, 20).all().await?), [3]);
/// assert_eq!(ids(ann().ge(f.score, 20).all().await?), [2, 3]);
/// assert_eq!(ids(ann().between(f.score, 15, 30).all().await?), [2, 3]);
/// assert_eq!(ids(eu().begins_with(f.player, "b".to_owned()).all().await?), [4]);
///
/// // Filters, direction, limit, page size, policies.
/// let ranked: Vec<Game> = ann()
///     .filter(f.ranked.equals(true))
///     .reverse(true)
///     .limit(5)
///     .page_size(2)
///     .on_unknown(UnknownItems::Error)
///     .include_expired(false)
///     .collect()
///     .await?;
/// assert_eq!(ids(ranked), [3, 1]);
/// assert_eq!(ann().count().await?, 3);
/// let best: Option<Game> = ann().reverse(true).first().await?;
/// assert_eq!(best.map(|g| g.id), Some(3));
/// assert_eq!(eu().eq(f.player, "bob".to_owned()).one::<Game>().await?.map(|g| g.id), Some(4));
///
/// // A page, and the rest after its cursor.
/// let page: Page<Vec<Game>> = ann().page_size(2).page().await?;
/// let rest: Vec<Game> = ann().after(page.cursor.unwrap()).all().await?;
/// assert_eq!((page.items.len(), rest.len()), (2, 1));
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing is read until you call `.collect().await` or `.all().await`"]
pub struct MultiQuery<'db, I: MultiKeyIndex> {
    db: &'db Db<I::Table>,
    conditions: Vec<KeyCondition>,
    filters: Filters,
    reverse: bool,
    limit: Option<usize>,
    page_size: Option<usize>,
    unknown: UnknownItems,
    include_expired: bool,
    cursor: Option<Cursor>,
    projection: Option<Vec<&'static str>>,
    /// Once started: the filter's canonical text, when cursors are sealed.
    filter_text: Option<Vec<u8>>,
}

impl<I: MultiKeyIndex> std::fmt::Debug for MultiQuery<'_, I> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Values can be personal data: only the attributes.
        let attributes: Vec<&str> = self.conditions.iter().map(|c| c.attribute).collect();
        f.debug_struct("MultiQuery")
            .field("index", &I::SCHEMA.name)
            .field("conditions", &attributes)
            .field("reverse", &self.reverse)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

/// One attribute's condition, its values encoded (or why they are not).
struct KeyCondition {
    entity: &'static str,
    attribute: &'static str,
    op: Op,
    values: std::result::Result<Vec<AttributeValue>, String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Between,
    BeginsWith,
}

fn encode<V: Serialize>(value: &V) -> std::result::Result<AttributeValue, String> {
    crate::codec::to_attribute_value(value).map_err(|err| err.to_string())
}

impl<'db, I: MultiKeyIndex> MultiQuery<'db, I> {
    fn push<E: Entity, V: Serialize, R>(
        mut self,
        field: Field<E, V, R>,
        op: Op,
        values: &[&V],
    ) -> Self {
        self.conditions.push(KeyCondition {
            entity: E::RUST_NAME,
            attribute: field.attribute(),
            op,
            values: values.iter().map(|v| encode(*v)).collect(),
        });
        self
    }

    /// `field = value`: every partition attribute, and sort attributes
    /// before the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn eq<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        value: V,
    ) -> Self {
        self.push(field, Op::Eq, &[&value])
    }

    /// `field < value`, on a sort attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn lt<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        value: V,
    ) -> Self {
        self.push(field, Op::Lt, &[&value])
    }

    /// `field <= value`, on a sort attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn le<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        value: V,
    ) -> Self {
        self.push(field, Op::Le, &[&value])
    }

    /// `field > value`, on a sort attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn gt<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        value: V,
    ) -> Self {
        self.push(field, Op::Gt, &[&value])
    }

    /// `field >= value`, on a sort attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn ge<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        value: V,
    ) -> Self {
        self.push(field, Op::Ge, &[&value])
    }

    /// `low <= field <= high`, on a sort attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn between<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        low: V,
        high: V,
    ) -> Self {
        self.push(field, Op::Between, &[&low, &high])
    }

    /// `begins_with(field, prefix)`, on a string or binary sort
    /// attribute: the last condition.
    ///
    /// See [the example](MultiQuery#example).
    pub fn begins_with<E: Entity<Table = I::Table>, V: Serialize, R>(
        self,
        field: Field<E, V, R>,
        prefix: V,
    ) -> Self {
        self.push(field, Op::BeginsWith, &[&prefix])
    }

    /// Keep only the items of `E` for which `condition` holds (a
    /// `FilterExpression`, applied after reading, as on
    /// [`Query::filter`](crate::read::Query::filter)); a condition on one of
    /// the index's key attributes is refused before sending.
    ///
    /// See [the example](MultiQuery#example).
    pub fn filter<E: Entity<Table = I::Table>>(mut self, condition: Condition<E>) -> Self {
        self.filters.push(condition);
        self
    }

    /// Highest sort key first when `reverse` is true.
    ///
    /// See [the example](MultiQuery#example).
    pub fn reverse(mut self, reverse: bool) -> Self {
        self.reverse = reverse;
        self
    }

    /// At most `limit` items returned in all: exactly `limit` of the asked
    /// type(s) when the index holds that many (items of other types,
    /// expired items and items a filter drops are read past, never
    /// counted), as [`Query::limit`](crate::read::Query::limit).
    ///
    /// See [the example](MultiQuery#example).
    pub fn limit(mut self, limit: usize) -> Self {
        self.limit = Some(limit);
        self
    }

    /// At most `size` items per request.
    ///
    /// See [the example](MultiQuery#example).
    pub fn page_size(mut self, size: usize) -> Self {
        self.page_size = Some(size);
        self
    }

    /// What to do with an item of a type the collection does not hold.
    ///
    /// See [the example](MultiQuery#example).
    pub fn on_unknown(mut self, policy: UnknownItems) -> Self {
        self.unknown = policy;
        self
    }

    /// Also return items past their time to live that DynamoDB has not
    /// deleted yet.
    ///
    /// See [the example](MultiQuery#example).
    pub fn include_expired(mut self, include: bool) -> Self {
        self.include_expired = include;
        self
    }

    /// Resume after a [`Page::cursor`] of the same query (the same index,
    /// key conditions and, on a handle that seals its cursors, direction
    /// and filter): checked before anything is sent, refused otherwise.
    /// A multi-attribute index's cursor (`k1.…` unsealed) holds its key
    /// values with their types, numbers and bytes included.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo, op::Page};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct Games { partition_key: "PK", sort_key: "SK",
    /// #     multi_key_indexes: { pub ByScore = "ByScore" {
    /// #         partition_key: ["tournament": S], sort_key: ["score": N] } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    /// struct Match { id: u32, tournament: String, score: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 1..=5 {
    ///     db.put(&Match { id, tournament: "T1".into(), score: id * 10 }).await?;
    /// }
    /// let f = Match::fields();
    /// let by_score = || db.query_multi::<ByScore>().eq(f.tournament, "T1".to_owned());
    /// let first: Page<Vec<Match>> = by_score().page_size(2).page().await?;
    /// assert_eq!(first.items.iter().map(|m| m.score).collect::<Vec<_>>(), [10, 20]);
    /// let cursor = first.cursor.unwrap().to_string().parse()?; // to a client and back
    /// let rest: Vec<Match> = by_score().after(cursor).all().await?;
    /// assert_eq!(rest.iter().map(|m| m.score).collect::<Vec<_>>(), [30, 40, 50]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn after(mut self, cursor: Cursor) -> Self {
        self.cursor = Some(cursor);
        self
    }

    /// Read only these attributes of each item, plus the keys of the table
    /// and the index's attributes and the type and time-to-live attributes
    /// (what demultiplexing, verification and cursors need), as
    /// [`Query::projection`](crate::read::Query::projection).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct Games { partition_key: "PK", sort_key: "SK",
    /// #     multi_key_indexes: { pub ByScore = "ByScore" {
    /// #         partition_key: ["tournament": S], sort_key: ["score": N] } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    /// struct Match { id: u32, tournament: String, score: u32, #[serde(default)] notes: String }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// db.put(&Match { id: 1, tournament: "T1".into(), score: 7, notes: "x".repeat(1000) }).await?;
    /// let f = Match::fields();
    /// let scores: Vec<Match> = db
    ///     .query_multi::<ByScore>()
    ///     .eq(f.tournament, "T1".to_owned())
    ///     .projection(["id"])
    ///     .all()
    ///     .await?;
    /// assert_eq!((scores[0].score, scores[0].notes.as_str()), (7, ""));
    /// # Ok(())
    /// # }
    /// ```
    pub fn projection(mut self, attributes: impl IntoIterator<Item = &'static str>) -> Self {
        self.projection = Some(attributes.into_iter().collect());
        self
    }

    /// Every page, up to the limit, into a [`Collection`].
    ///
    /// See [the example](MultiQuery#example).
    pub async fn collect<C: Collection<Table = I::Table>>(self) -> Result<C> {
        finish::collect(self).await
    }

    /// One page — up to [`page_size`](Self::page_size) items (reading on
    /// while items are left out), or without one the items of one request
    /// — and the cursor to resume from (see [`after`](Self::after) for an
    /// example).
    ///
    /// See [the example](MultiQuery#example).
    pub async fn page<C: Collection<Table = I::Table>>(self) -> Result<Page<C>> {
        finish::page(self).await
    }

    /// The pages as a `Stream`, up to the limit; the last page's cursor is
    /// `None` once the index's items are exhausted.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use futures_util::TryStreamExt;
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo, op::Page};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct Games { partition_key: "PK", sort_key: "SK",
    /// #     multi_key_indexes: { pub ByScore = "ByScore" {
    /// #         partition_key: ["tournament": S], sort_key: ["score": N] } } } }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    /// struct Match { id: u32, tournament: String, score: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for id in 1..=5 {
    ///     db.put(&Match { id, tournament: "T1".into(), score: id }).await?;
    /// }
    /// let f = Match::fields();
    /// let pages: Vec<Page<Vec<Match>>> = db
    ///     .query_multi::<ByScore>()
    ///     .eq(f.tournament, "T1".to_owned())
    ///     .page_size(2)
    ///     .pages()
    ///     .try_collect()
    ///     .await?;
    /// assert_eq!(pages.iter().map(|p| p.items.len()).collect::<Vec<_>>(), [2, 2, 1]);
    /// assert!(pages[2].cursor.is_none());
    /// # Ok(())
    /// # }
    /// ```
    pub fn pages<C: Collection<Table = I::Table>>(
        self,
    ) -> impl Stream<Item = Result<Page<C>>> + Send + 'db {
        finish::pages(self)
    }

    /// The first item in key order (the last with
    /// [`reverse`](Self::reverse)), or `None`: without a filter, one item
    /// per request; with one, pages until an item matches.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// ddb_entity::table! {
    ///     /// Scores.
    ///     pub struct Games {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         multi_key_indexes: {
    ///             /// Per tournament, by score.
    ///             pub ByScore = "ByScore" {
    ///                 partition_key: ["tournament": S],
    ///                 sort_key: ["score": N],
    ///             },
    ///         },
    ///     }
    /// }
    /// #[derive(Entity, Serialize, Deserialize, Debug)]
    /// #[entity(table = Games, pk = "MATCH#{id}", sk = "MATCH")]
    /// struct Match { id: u32, tournament: String, score: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Games>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for (id, score) in [(1, 10), (2, 30), (3, 20)] {
    ///     db.put(&Match { id, tournament: "T1".into(), score }).await?;
    /// }
    /// let f = Match::fields();
    /// let by_score = || db.query_multi::<ByScore>().eq(f.tournament, "T1".to_owned());
    /// let best: Option<Match> = by_score().reverse(true).first().await?;
    /// assert_eq!(best.map(|m| m.id), Some(2));
    /// assert_eq!(by_score().ge(f.score, 20).count().await?, 2);
    /// let err = by_score().one::<Match>().await.unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::MoreThanOne);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn first<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::first(self).await
    }

    /// The one item the conditions select, `None` if none, and
    /// [`ErrorKind::MoreThanOne`](crate::error::ErrorKind::MoreThanOne) if more:
    /// reads until a second item, no further (see [`first`](Self::first)
    /// for an example).
    ///
    /// See [the example](MultiQuery#example).
    pub async fn one<T>(self) -> Result<Option<T>>
    where
        T: CollectionItem<Table = I::Table>,
    {
        finish::one(self).await
    }

    /// How many items the conditions (and filters) select, up to the limit
    /// (`Select=COUNT`, across pages; see [`first`](Self::first) for an
    /// example): without a filter items of every type, with one only the
    /// items of the filters' entities that satisfy them; items past their
    /// time to live only with [`include_expired`](Self::include_expired).
    ///
    /// See [the example](MultiQuery#example).
    pub async fn count(self) -> Result<usize> {
        finish::count(self).await
    }

    /// The equality conditions, for messages: `tournament = "T1", …`.
    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .conditions
            .iter()
            .filter(|c| c.op == Op::Eq)
            .map(|c| {
                let value = match c.values.as_deref() {
                    Ok([AttributeValue::S(s)]) => format!("{s:?}"),
                    Ok([AttributeValue::N(n)]) => n.clone(),
                    _ => "…".to_owned(),
                };
                format!("{} = {value}", c.attribute)
            })
            .collect();
        parts.join(", ")
    }

    /// Every condition in one text form: what this query's cursors are
    /// held to (a cursor of other conditions is refused).
    fn condition_text(&self) -> String {
        let mut text = String::new();
        for c in &self.conditions {
            text.push_str(&format!("{}{:?}{:?};", c.attribute, c.op, c.values));
        }
        text
    }

    /// What the index's `LastEvaluatedKey` holds: its attributes and the
    /// table's keys, sorted, each once.
    fn key_attributes() -> Vec<&'static str> {
        let primary = I::Table::SCHEMA.primary;
        let mut names: Vec<&'static str> = I::SCHEMA
            .attributes()
            .map(|a| a.name)
            .chain(
                [Some(primary.partition_key), primary.sort_key]
                    .into_iter()
                    .flatten(),
            )
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The scope its cursors are made and resumed in, with the key
    /// condition's text `conditions`.
    fn scope<'a>(&'a self, conditions: &'a str) -> Scope<'a> {
        let primary = I::Table::SCHEMA.primary;
        Scope {
            table: self.db.table_name(),
            index: Some(I::SCHEMA.name),
            keys: [primary, primary],
            partition: conditions,
            range: None,
            reverse: self.reverse,
            filter: self.filter_text.as_deref(),
            shards: None,
        }
    }

    /// [`collect`](Self::collect) into a `Vec<E>`.
    ///
    /// See [the example](MultiQuery#example).
    pub async fn all<E>(self) -> Result<Vec<E>>
    where
        Vec<E>: Collection<Table = I::Table>,
    {
        self.collect().await
    }

    /// The `KeyConditionExpression`, or why DynamoDB would refuse it:
    /// conditions in key order, equality on every partition attribute and
    /// on the sort attributes before the last condition, values of the
    /// attributes' types.
    fn key_condition(&self, p: &mut Placeholders) -> Result<String> {
        let schema = I::SCHEMA;
        let invalid = |reason: String| -> Error {
            Repr::InvalidExpression {
                what: format!("a query of index `{}`", schema.name),
                reason,
            }
            .into()
        };
        let order: Vec<&str> = schema.attributes().map(|a| a.name).collect();
        let order = order.join(", ");
        let partition = schema.partition_key.len();
        if self.conditions.len() < partition {
            let missing = schema.partition_key[self.conditions.len()].name;
            return Err(invalid(format!(
                "it gives no `{missing}`: a query gives every partition attribute with `eq`, in order ({order})"
            )));
        }
        let mut clauses = Vec::with_capacity(self.conditions.len());
        for (at, condition) in self.conditions.iter().enumerate() {
            let Some(key) = schema.attributes().nth(at) else {
                return Err(invalid(format!(
                    "it has {} conditions for {} key attributes ({order})",
                    self.conditions.len(),
                    schema.partition_key.len() + schema.sort_key.len()
                )));
            };
            if condition.attribute != key.name {
                return Err(invalid(format!(
                    "condition {} is on `{}` of `{}`, where the key's attribute there is `{}`: give conditions left to right ({order}), skipping none",
                    at + 1,
                    condition.attribute,
                    condition.entity,
                    key.name
                )));
            }
            let last = at + 1 == self.conditions.len();
            if condition.op != Op::Eq && (at < partition || !last) {
                return Err(invalid(format!(
                    "`{}` has a range condition; {}",
                    key.name,
                    if at < partition {
                        "a partition attribute takes only `eq`"
                    } else {
                        "only the last condition may be a range, the sort attributes before it take `eq`"
                    }
                )));
            }
            let values = condition.values.as_ref().map_err(|err| {
                Error::from(Repr::Encode {
                    entity: condition.entity,
                    source: format!("a value for `{}`: {err}", key.name).into(),
                })
            })?;
            for value in values {
                check_type(key, value).map_err(&invalid)?;
            }
            if condition.op == Op::BeginsWith && key.ty == KeyAttributeType::N {
                return Err(invalid(format!(
                    "`{}` is a number, and `begins_with` takes a string or binary attribute",
                    key.name
                )));
            }
            let name = p.name(key.name);
            let mut value = |v: &AttributeValue| p.value(v.clone());
            let clause = match (condition.op, values.as_slice()) {
                (Op::Eq, [v]) => format!("{name} = {}", value(v)),
                (Op::Lt, [v]) => format!("{name} < {}", value(v)),
                (Op::Le, [v]) => format!("{name} <= {}", value(v)),
                (Op::Gt, [v]) => format!("{name} > {}", value(v)),
                (Op::Ge, [v]) => format!("{name} >= {}", value(v)),
                (Op::BeginsWith, [v]) => format!("begins_with({name}, {})", value(v)),
                (Op::Between, [low, high]) => {
                    format!("{name} BETWEEN {} AND {}", value(low), value(high))
                }
                _ => unreachable!("each operation is built with its number of values"),
            };
            clauses.push(clause);
        }
        Ok(clauses.join(" AND "))
    }
}

/// A value of the attribute's declared type: an `N` attribute takes a
/// number, an `S` a string, a `B` bytes; anything else (a `None`, a map)
/// matches no item and DynamoDB refuses it.
fn check_type(key: &KeyAttribute, value: &AttributeValue) -> std::result::Result<(), String> {
    let ok = matches!(
        (key.ty, value),
        (KeyAttributeType::S, AttributeValue::S(s)) if !s.is_empty()
    ) || matches!((key.ty, value), (KeyAttributeType::N, AttributeValue::N(_)))
        || matches!(
            (key.ty, value),
            (KeyAttributeType::B, AttributeValue::B(b)) if !b.as_ref().is_empty()
        );
    if ok {
        return Ok(());
    }
    Err(format!(
        "`{}` is a key attribute of type {}, and the value given is not a non-empty {} (a `None`, a struct, an empty string?)",
        key.name,
        key.ty.as_str(),
        key.ty.as_str()
    ))
}

impl<'db, I: MultiKeyIndex> Source<'db> for MultiQuery<'db, I> {
    type Table = I::Table;

    fn unknown(&self) -> UnknownItems {
        self.unknown
    }

    fn page_size(&self) -> Option<usize> {
        self.page_size
    }

    fn span(&self, collection: &'static str) -> tracing::Span {
        tracing::info_span!(
            "ddb.query",
            table = self.db.table_name(),
            index = I::SCHEMA.name,
            collection,
            filtered = !self.filters.is_empty(),
            requests = tracing::field::Empty,
            items = tracing::field::Empty,
            scanned = tracing::field::Empty,
            consumed_rcu = tracing::field::Empty,
            consumed_wcu = tracing::field::Empty,
        )
    }

    fn start(&mut self, read: Option<Reading>) -> Result<Run<'db>> {
        let schema = I::SCHEMA;
        let table_schema = I::Table::SCHEMA;
        let mut p = Placeholders::default();
        let key_condition = self.key_condition(&mut p)?;
        self.filters.check(&table_schema, None)?;
        // A filter cannot name the index's own key attributes.
        let index_attributes: Vec<&'static str> = schema.attributes().map(|key| key.name).collect();
        if let Some(attribute) = self
            .filters
            .attributes()
            .find(|name| index_attributes.contains(name))
        {
            return Err(Repr::InvalidExpression {
                what: format!("a filter on index `{}`", schema.name),
                reason: format!(
                    "it names `{attribute}`, one of the index's key attributes; select by key with the query's conditions instead"
                ),
            }
            .into());
        }
        let mut filter =
            self.filters
                .render(&table_schema, self.unknown, read, &index_attributes, &mut p)?;
        if read.is_none() && !self.include_expired {
            // Counted on the server, where reads hide them here.
            if let Some(unexpired) = super::filter::unexpired(&table_schema, self.db.now(), &mut p)
            {
                filter = Some(match filter {
                    Some(f) => format!("({f}) AND ({unexpired})"),
                    None => unexpired,
                });
            }
        }
        self.filter_text = match self.db.cursor_seal() {
            Some(_) => self
                .filters
                .text(&table_schema, self.unknown, read, &index_attributes)?
                .map(String::into_bytes),
            None => None,
        };
        // A count returns no item: DynamoDB refuses a projection with it.
        let projection = self
            .projection
            .as_ref()
            .filter(|_| read.is_some())
            .map(|attributes| {
                projection(
                    &table_schema,
                    table_schema.primary,
                    &index_attributes,
                    attributes,
                    &mut p,
                )
            });
        let rendered = Rendered {
            operation: Operation::Query {
                key_condition,
                reverse: self.reverse,
            },
            index: Some(schema.name),
            filter,
            projection,
            names: p.names_or_none(),
            values: p.values_or_none(),
            consistent: false,
            count: read.is_none(),
        };
        let keys = Self::key_attributes();
        let position = match &self.cursor {
            None => ShardPosition::Start,
            Some(cursor) => {
                let conditions = self.condition_text();
                let scope = self.scope(&conditions);
                ShardPosition::After(cursor.resume_multi(
                    &scope,
                    &keys,
                    self.db.cursor_seal(),
                    self.db.now(),
                )?)
            }
        };
        let short = self.filters.drop_items(&table_schema, self.unknown);
        let db = self.db;
        let setup = Setup {
            target: Target::of(db),
            schema: table_schema,
            include_expired: self.include_expired,
            // Decoding verifies the table's keys; the index's are the
            // entity's own fields.
            found_by: None,
            raw: false,
            bytes: read.is_some_and(|read| read.bytes),
            retry: None,
            order: Order::Sorted {
                attribute: None,
                reverse: self.reverse,
            },
            keys,
            concurrency: 1,
            page_size: self.page_size,
            floor: None,
            empty: false,
            limit: self.limit,
        };
        let lane = Lane::new(Arc::new(rendered), Named::Plain, position, short);
        Ok(Run::new(setup, vec![lane]))
    }

    fn cursor(&self, run: &Run<'db>) -> Result<Option<Cursor>> {
        let Some(positions) = run.positions() else {
            return Ok(None);
        };
        match &positions[0] {
            ShardPosition::After(key) => {
                let conditions = self.condition_text();
                let scope = self.scope(&conditions);
                Cursor::at_multi(&scope, key, self.db.cursor_seal(), self.db.now()).map(Some)
            }
            ShardPosition::Start => Ok(self.cursor.clone()),
            ShardPosition::Done => Ok(None),
        }
    }

    fn not_unique(&self, entity: &'static str) -> Error {
        Repr::NotUnique {
            entity,
            index: Some(I::SCHEMA.name),
            partition: self.describe(),
        }
        .into()
    }
}
