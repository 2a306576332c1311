//! A query as a source of the read engine: one lane for a partition
//! stored as one, one lane per shard for a sharded partition (merged in
//! sort-key order), each lane's request rendered once; and the query's
//! cursors (`c2.` for one partition, `m2.` over shards, sealed alike).

use std::sync::Arc;

use super::Query;
use crate::cursor::{Cursor, ShardPosition};
use crate::entity::SortRange;
use crate::error::{Error, Repr, Result};
use crate::expr::Placeholders;
use crate::read::engine::finish::Source;
use crate::read::engine::run::{Lane, Named, Order, Run, Setup};
use crate::read::engine::{Operation, Rendered, Target};
use crate::read::filter::{Reading, key_names, unexpired};
use crate::table::{QueryIndex, Table, TableSchema};

/// Requests in flight at once for one query read over shards, unless
/// [`Query::shard_concurrency`] says otherwise.
const DEFAULT_CONCURRENCY: usize = 16;

impl<I: QueryIndex> Query<'_, I> {
    /// For a partition spread over shards (a template with
    /// `{shard(…) % n}`): at most `requests` shard requests in flight at
    /// once (default 16; at least 1). A 64-shard partition is then read in
    /// waves of `requests`. No effect on a partition stored as one.
    ///
    /// A query of a sharded partition reads every shard — one Query per
    /// shard, concurrently — and merges them into one sort-key order
    /// (reversed with [`reverse`](Self::reverse)), so it reads as one
    /// partition: `limit(n)` returns the global first n, a page holds the
    /// next items of the merged order (up to [`page_size`](Self::page_size),
    /// filled from more requests if need be; without a page size, the
    /// items one request per shard yields), and its cursor resumes from
    /// the merged position. Each shard's first request asks for no more
    /// than the page and the limit can still take, so `limit(n)` over `s`
    /// shards reads at most `s × n` items in its first round. If any
    /// shard's request fails, the read fails
    /// ([`Error::shard`](crate::error::Error::shard) names it).
    /// [`count`](Self::count), [`first`](Self::first) and
    /// [`one`](Self::one) read every shard too, and a
    /// [`filter`](Self::filter) applies in each.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Db, Entity, KeyPart, local::LocalDynamo};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// #[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    /// enum Status { Open, Shipped }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// #[entity(index = Gsi1, pk = "STATUS#{status}#{shard(order_id) % 8}", sk = "{placed}#{order_id}")]
    /// struct Order { order_id: u64, status: Status, placed: u32 }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// for order_id in 1..=20 {
    ///     db.put(&Order { order_id, status: Status::Open, placed: 100 + order_id as u32 }).await?;
    /// }
    /// // The 5 newest open orders, from 8 partitions read as one.
    /// let newest: Vec<Order> = db
    ///     .query(Order::gsi1_partition(Status::Open)?)
    ///     .reverse(true)
    ///     .limit(5)
    ///     .shard_concurrency(4)
    ///     .all()
    ///     .await?;
    /// assert_eq!(newest.iter().map(|o| o.order_id).collect::<Vec<_>>(), [20, 19, 18, 17, 16]);
    /// # Ok(())
    /// # }
    /// ```
    pub fn shard_concurrency(mut self, requests: usize) -> Self {
        self.shard_concurrency = Some(requests.max(1));
        self
    }
}

impl<'db, I: QueryIndex> Query<'db, I> {
    /// The request of the lane of partition value `partition`.
    fn rendered(
        &self,
        partition: &str,
        condition: Option<&SortRange<()>>,
        read: Option<Reading>,
    ) -> Result<Rendered> {
        let schema = I::Table::SCHEMA;
        let mut p = Placeholders::default();
        let key_condition = super::key_condition(I::KEYS, partition, condition, &mut p);
        let mut filter =
            self.filters
                .render(&schema, self.unknown, read, &key_names(I::KEYS), &mut p)?;
        let count = read.is_none();
        if count && !self.include_expired {
            // Counted on the server, where reads hide them here.
            let unexpired = unexpired(&schema, self.db.now(), &mut p);
            filter = match (filter, unexpired) {
                (Some(f), Some(u)) => Some(format!("({f}) AND ({u})")),
                (f, u) => f.or(u),
            };
        }
        // A count returns no item: DynamoDB refuses a projection with it.
        let projection = self
            .projection
            .as_ref()
            .filter(|_| !count)
            .map(|attributes| projection(&schema, I::KEYS, &[], attributes, &mut p));
        Ok(Rendered {
            operation: Operation::Query {
                key_condition,
                reverse: self.reverse,
            },
            index: I::INDEX_NAME,
            filter,
            projection,
            names: p.names_or_none(),
            values: p.values_or_none(),
            consistent: self.consistent,
            count,
        })
    }
}

/// A `ProjectionExpression` of `attributes`, plus what the engine needs
/// whatever is asked: the keys of the table and of the queried index
/// (`index`, and the attributes of a multi-attribute index, `extra`:
/// cursors resume from them, verification reads them), the type attribute
/// (demultiplexing reads it) and the time-to-live attribute (expired items
/// are hidden by it).
pub(crate) fn projection(
    schema: &TableSchema,
    index: crate::table::KeySchema,
    extra: &[&'static str],
    attributes: &[&'static str],
    p: &mut Placeholders,
) -> String {
    let required = schema
        .key_attributes()
        .into_iter()
        .filter(|name| {
            [schema.primary, index]
                .iter()
                .any(|keys| keys.partition_key == *name || keys.sort_key == Some(*name))
        })
        .chain(extra.iter().copied())
        .chain([schema.type_attribute])
        .chain(schema.ttl_attribute);
    let mut projected: Vec<&str> = Vec::new();
    for attribute in required.chain(attributes.iter().copied()) {
        // A path named twice is a ValidationException.
        if !projected.contains(&attribute) {
            projected.push(attribute);
        }
    }
    let names: Vec<String> = projected.into_iter().map(|a| p.name(a)).collect();
    names.join(", ")
}

/// Refuses an open range (`sk_lt`, `sk_le`, `sk_gt`, `sk_ge`) built from
/// the key of a template without holes (`PROFILE`) — which holds that one
/// key or nothing — read into a collection with a member (on index
/// `index`) it can never return. Before open ranges kept to their key's
/// space, `sk_le(Customer::sk())` in reverse read the profile and the
/// orders before it; it now reads the profile alone, and into a view of
/// both it would leave the orders out without a word.
fn reaches_every_member(range: &SortRange<()>, read: Reading, index: Option<&str>) -> Result<()> {
    let Some(bound) = range.open_on_one_key() else {
        return Ok(());
    };
    for member in read.members {
        let layout = member.layout();
        let key = match index {
            None => layout.primary(),
            Some(name) => layout.index(name),
        };
        let Some(template) = key.and_then(|key| key.sort.as_ref()) else {
            continue;
        };
        if template.raw {
            continue;
        }
        let literal = template.literal_prefix();
        let exact = template.holes().next().is_none() && template.shard().is_none();
        if !range.reaches(&literal, exact) {
            let shown = if exact {
                literal
            } else {
                format!("{literal}…")
            };
            return Err(Repr::InvalidExpression {
                what: format!("a query read into `{}`", read.collection),
                reason: format!(
                    "its open sort-key range (`sk_lt`/`sk_le`/`sk_gt`/`sk_ge`) of `{bound}` keeps to that key's template, which has no hole: it holds `{bound}` or nothing, and can never return the collection's `{}` (sort keys `{shown}`); to read several members in one Query, span them: `.sk_span(<one member's key>, <another's>)` (or `sk_between`), or read the one entity alone",
                    member.entity
                ),
            }
            .into());
        }
    }
    Ok(())
}

impl<'db, I: QueryIndex> Source<'db> for Query<'db, I> {
    type Table = I::Table;

    fn unknown(&self) -> crate::collection::UnknownItems {
        self.unknown
    }

    fn page_size(&self) -> Option<usize> {
        self.page_size
    }

    fn span(&self, collection: &'static str) -> tracing::Span {
        Query::span(self, collection)
    }

    fn start(&mut self, read: Option<Reading>) -> Result<Run<'db>> {
        let filter = self.filter_text(read)?;
        let (condition, nothing) = self.take_condition()?;
        if let (Some(range), Some(read)) = (&condition, read) {
            reaches_every_member(range, read, I::INDEX_NAME)?;
        }
        let scope = self.scope(condition.as_ref(), filter.as_deref());
        let (seal, now) = (self.db.cursor_seal(), self.db.now());
        let spec = self.partition.shards();
        let (positions, floor) = match (&self.cursor, spec) {
            (None, None) => (vec![ShardPosition::Start], None),
            (None, Some(spec)) => (vec![ShardPosition::Start; usize::from(spec.count())], None),
            (Some(cursor), None) => (
                vec![ShardPosition::After(cursor.resume(&scope, seal, now)?)],
                None,
            ),
            (Some(cursor), Some(_)) => cursor.resume_shards(&scope, seal, now)?,
        };
        let keys = scope.key_attributes();
        let short = self.filters.drop_items(&I::Table::SCHEMA, self.unknown);
        let mut lanes = Vec::with_capacity(positions.len());
        for (number, position) in (0u16..).zip(positions) {
            let (partition, named) = match spec {
                None => (self.partition.as_str().to_owned(), Named::Plain),
                Some(spec) => {
                    let shard = self
                        .partition
                        .shard(number)
                        .expect("every shard below the count");
                    let partition = shard.as_str().to_owned();
                    let named = Named::Shard {
                        number,
                        count: spec.count(),
                        partition: partition.clone(),
                    };
                    (partition, named)
                }
            };
            let rendered = self.rendered(&partition, condition.as_ref(), read)?;
            lanes.push(Lane::new(Arc::new(rendered), named, position, short));
        }
        let db = self.db;
        let setup = Setup {
            target: Target::of(db),
            schema: I::Table::SCHEMA,
            include_expired: self.include_expired,
            found_by: I::INDEX_NAME,
            raw: false,
            bytes: read.is_some_and(|read| read.bytes),
            retry: None,
            order: Order::Sorted {
                attribute: I::KEYS.sort_key,
                reverse: self.reverse,
            },
            keys,
            concurrency: self.shard_concurrency.unwrap_or(DEFAULT_CONCURRENCY),
            page_size: self.page_size,
            floor,
            empty: nothing,
            limit: self.limit,
        };
        self.started = Some((condition, filter));
        Ok(Run::new(setup, lanes))
    }

    fn cursor(&self, run: &Run<'db>) -> Result<Option<Cursor>> {
        let Some(positions) = run.positions() else {
            return Ok(None);
        };
        let (condition, filter) = self.started.as_ref().expect("a started query");
        let scope = self.scope(condition.as_ref(), filter.as_deref());
        let (seal, now) = (self.db.cursor_seal(), self.db.now());
        if self.partition.is_sharded() {
            return Cursor::at_shards(&scope, &positions, run.merged(), seal, now).map(Some);
        }
        match &positions[0] {
            ShardPosition::After(key) => Cursor::at(&scope, key, seal, now).map(Some),
            // Nothing read yet: where the query was started from.
            ShardPosition::Start => Ok(self.cursor.clone()),
            ShardPosition::Done => Ok(None),
        }
    }

    fn not_unique(&self, entity: &'static str) -> Error {
        Repr::NotUnique {
            entity,
            index: I::INDEX_NAME,
            partition: self.partition.as_str().to_owned(),
        }
        .into()
    }
}
