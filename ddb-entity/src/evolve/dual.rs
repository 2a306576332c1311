//! Dual reads while a migration runs: the single table first, the legacy
//! store when the item is not there yet — and the order in which the write
//! path flips.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use aws_sdk_dynamodb::Client;
use serde::de::DeserializeOwned;
use tracing::Instrument;

use crate::db::Db;
use crate::entity::{Entity, Key};
use crate::error::{Error, Result};
use crate::item::Item;
use crate::table::Table;

/// Reads during a migration from a multi-table model ("read from the new
/// table first, falling back to the old if the item isn't found"):
/// [`get`](DualRead::get) reads the single table, and only when the item
/// is not there calls the legacy read it is given. Every fallback is a
/// `tracing` event (target `ddb_entity::dual_read`, level INFO, with the
/// migration's name, the entity and whether the legacy store had it) and
/// a count in [`stats`](DualRead::stats): the metric that says when the
/// fallback can go.
///
/// # Flipping the write path
///
/// The order that loses nothing:
///
/// 1. **Dual reads.** Deploy reads through `DualRead`; writes still go to
///    the legacy tables. Every read falls back (nothing is migrated yet).
/// 2. **Flip the writes.** Deploy the code that writes the single table
///    only. An item written from now on is in the single table, and reads
///    find it first. A *change* of an item not migrated yet is a
///    read-modify-write: read it through `DualRead`, put the whole new
///    value in the single table. A *delete* must delete in both stores
///    during the migration window, or the migration would bring the legacy
///    copy back.
/// 3. **Migrate.** Run the [`Migration`](super::Migration): it writes each
///    item only where the single table has none, so what the application
///    wrote since the flip wins over its legacy copy; rerun or resume it
///    freely.
/// 4. **Verify.** [`Migration::verify`](super::Migration::verify) counts
///    and reads back; the fallback count falls to the misses (items that
///    exist nowhere).
/// 5. **Retire.** Remove the fallback, then the legacy tables.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::{Db, Entity, local::LocalDynamo};
/// use ddb_entity::evolve::{DualRead, Found};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
/// #[entity(table = App, pk = "USER#{id}", sk = "PROFILE")]
/// struct User { id: u64, name: String }
///
/// # let dynamo = LocalDynamo::start().await?;
/// let db = Db::<App>::new(dynamo.client(), dynamo.unique_table_name("app"));
/// # db.create_table_if_missing().await?;
/// db.put(&User { id: 1, name: "migrated".into() }).await?;
///
/// // Stands in for the legacy store's read (see `legacy_get`).
/// let legacy = |id: u64| async move {
///     Ok((id == 2).then(|| User { id, name: "legacy".into() }))
/// };
///
/// let reads = DualRead::new(&db, "users-to-single-table");
/// let one = reads.get(User::key(1)?, || legacy(1)).await?;
/// assert!(matches!(one, Some(Found::New(ref u)) if u.name == "migrated"));
/// let two = reads.get(User::key(2)?, || legacy(2)).await?;
/// assert!(matches!(two, Some(Found::Legacy(ref u)) if u.name == "legacy"));
/// assert_eq!(reads.get(User::key(3)?, || legacy(3)).await?, None);
///
/// let stats = reads.stats();
/// assert_eq!((stats.reads, stats.fallbacks, stats.legacy_hits, stats.misses), (3, 2, 1, 1));
/// assert_eq!(stats.new_hits, 1);
///
/// let found = two.unwrap();
/// assert!(found.is_legacy());
/// assert_eq!(found.into_inner().name, "legacy");
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct DualRead<'db, T: Table> {
    db: &'db Db<T>,
    migration: &'static str,
    counters: Arc<Counters>,
}

/// Where a dual read found the item.
///
/// See [the example](DualRead#example).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found<E> {
    /// In the single table.
    New(E),
    /// Only in the legacy store.
    Legacy(E),
}

impl<E> Found<E> {
    /// The item, wherever it was found.
    ///
    /// See [the example](DualRead#example).
    pub fn into_inner(self) -> E {
        match self {
            Found::New(e) | Found::Legacy(e) => e,
        }
    }

    /// Whether it came from the legacy store.
    ///
    /// See [the example](DualRead#example).
    pub fn is_legacy(&self) -> bool {
        matches!(self, Found::Legacy(_))
    }
}

/// What a [`DualRead`] has done so far (shared by its clones).
///
/// See [the example](DualRead#example).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DualReadStats {
    /// Reads.
    pub reads: u64,
    /// Reads the single table answered.
    pub new_hits: u64,
    /// Reads that fell back to the legacy store.
    pub fallbacks: u64,
    /// Fallbacks the legacy store answered.
    pub legacy_hits: u64,
    /// Reads neither store answered.
    pub misses: u64,
}

#[derive(Debug, Default)]
struct Counters {
    reads: AtomicU64,
    new_hits: AtomicU64,
    fallbacks: AtomicU64,
    legacy_hits: AtomicU64,
    misses: AtomicU64,
}

impl<'db, T: Table> DualRead<'db, T> {
    /// Dual reads on `db` for the migration named `migration` (the name
    /// in its `tracing` events).
    ///
    /// See [the example](DualRead#example).
    pub fn new(db: &'db Db<T>, migration: &'static str) -> Self {
        DualRead {
            db,
            migration,
            counters: Arc::default(),
        }
    }

    /// The item at `key` in the single table; when there is none, what
    /// `legacy` reads from the legacy store.
    ///
    /// See [the example](DualRead#example).
    pub async fn get<E, F, Fut>(&self, key: Key<E>, legacy: F) -> Result<Option<Found<E>>>
    where
        E: Entity<Table = T>,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Option<E>>>,
    {
        let span = tracing::info_span!(
            "ddb.dual_read",
            migration = self.migration,
            entity = E::RUST_NAME,
            fell_back = tracing::field::Empty,
        );
        async move {
            let c = &self.counters;
            c.reads.fetch_add(1, Ordering::Relaxed);
            if let Some(found) = self.db.get(key).await? {
                c.new_hits.fetch_add(1, Ordering::Relaxed);
                tracing::Span::current().record("fell_back", false);
                return Ok(Some(Found::New(found)));
            }
            tracing::Span::current().record("fell_back", true);
            c.fallbacks.fetch_add(1, Ordering::Relaxed);
            let old = legacy().await?;
            tracing::info!(
                target: "ddb_entity::dual_read",
                migration = self.migration,
                entity = E::RUST_NAME,
                found = old.is_some(),
                "read fell back to the legacy store"
            );
            match old {
                Some(old) => {
                    c.legacy_hits.fetch_add(1, Ordering::Relaxed);
                    Ok(Some(Found::Legacy(old)))
                }
                None => {
                    c.misses.fetch_add(1, Ordering::Relaxed);
                    Ok(None)
                }
            }
        }
        .instrument(span)
        .await
    }

    /// What the reads have done so far.
    ///
    /// See [the example](DualRead#example).
    pub fn stats(&self) -> DualReadStats {
        let c = &self.counters;
        let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
        DualReadStats {
            reads: load(&c.reads),
            new_hits: load(&c.new_hits),
            fallbacks: load(&c.fallbacks),
            legacy_hits: load(&c.legacy_hits),
            misses: load(&c.misses),
        }
    }
}

/// Reads one item of a legacy table (any shape, decoded with serde into
/// `L`) by its key attributes: the legacy half of a [`DualRead`].
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use ddb_entity::evolve::legacy_get;
/// use ddb_entity::sdk::types::{AttributeDefinition, AttributeValue, BillingMode, KeySchemaElement, KeyType, ScalarAttributeType};
/// use serde::Deserialize;
///
/// #[derive(Deserialize, Debug, PartialEq)]
/// struct LegacyUser { user_id: u64, full_name: String }
///
/// # let dynamo = ddb_entity::local::LocalDynamo::start().await?;
/// # let client = dynamo.client();
/// # let table = dynamo.unique_table_name("users");
/// # client.create_table().table_name(&table).billing_mode(BillingMode::PayPerRequest)
/// #     .attribute_definitions(AttributeDefinition::builder().attribute_name("user_id").attribute_type(ScalarAttributeType::N).build()?)
/// #     .key_schema(KeySchemaElement::builder().attribute_name("user_id").key_type(KeyType::Hash).build()?)
/// #     .send().await?;
/// # client.put_item().table_name(&table)
/// #     .item("user_id", AttributeValue::N("7".into()))
/// #     .item("full_name", AttributeValue::S("Ada".into())).send().await?;
/// let key = [("user_id".to_owned(), AttributeValue::N("7".into()))].into();
/// let user: Option<LegacyUser> = legacy_get(&client, &table, key).await?;
/// assert_eq!(user, Some(LegacyUser { user_id: 7, full_name: "Ada".into() }));
/// # Ok(())
/// # }
/// ```
pub async fn legacy_get<L: DeserializeOwned>(
    client: &Client,
    table: &str,
    key: Item,
) -> Result<Option<L>> {
    let output = client
        .get_item()
        .table_name(table)
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .map_err(|err| Error::service("GetItem", table, err))?;
    output
        .item
        .map(|item| {
            let described = super::migrate::describe_key(&item);
            crate::codec::from_item(item)
                .map_err(|err| super::migrate::legacy_decode_error::<L>(table, described, err))
        })
        .transpose()
}
