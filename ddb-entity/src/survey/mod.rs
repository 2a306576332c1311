//! A read-only survey of a table: which entity every item is, and the items
//! that are no entity's (or several's) — the first thing to run before
//! adopting a table that other code wrote. See [`Survey`'s example](Survey#example)
//! and [`Db::survey`](crate::db::Db::survey)'s.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # use ddb_entity::{Db, Entity, local::LocalDynamo};
//! # use serde::{Deserialize, Serialize};
//! // A table designed by hand: items are told apart by their keys.
//! ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
//!
//! #[derive(Entity, Serialize, Deserialize)]
//! #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
//! struct User { email: String }
//!
//! # let dynamo = LocalDynamo::start().await?;
//! # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
//! # db.create_table_if_missing().await?;
//! db.put(&User { email: "ada@example.com".into() }).await?;
//! let report = db.survey::<User>().await?;
//! assert!(report.is_clean(), "{report}"); // every item is a User: safe to adopt
//! # Ok(())
//! # }
//! ```
//!
//! A survey scans the whole table (in parallel segments, a bounded number
//! at once, with progress), and for every item asks the collection's
//! members which one it is: by the type attribute where the item has one
//! and the table uses it, else by a full parse of its keys against each
//! member's templates. An item exactly one member claims is decoded as
//! that member, with every key it carries verified (the table's and each
//! index's), and counted; everything else is grouped by the shape of its
//! keys. Nothing is written, and nothing is decoded as an entity it does
//! not match.

mod report;
mod scan;

use std::marker::PhantomData;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use tracing::Instrument;

use crate::collection::{CollectionItem, Member};
use crate::db::Db;
use crate::error::Result;
use crate::future::into_future;
use crate::item::{self, Item, stored_keys};
use crate::table::{Table, Typing};

use report::{Groups, item_shape};
pub use report::{ShapeGroup, SurveyReport, key_shape, key_shape_by};

/// The most segments DynamoDB splits a scan into.
const MAX_SEGMENTS: u32 = 1_000_000;

/// How far a running survey has got, handed to
/// [`on_progress`](Survey::on_progress) after every page.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// # let s = |v: &str| ddb_entity::sdk::types::AttributeValue::S(v.into());
/// use ddb_entity::survey::SurveyProgress;
/// use std::sync::{Arc, Mutex};
///
/// for email in ["a@x.io", "b@x.io"] {
///     db.put(&User { email: email.into() }).await?;
/// }
/// let seen: Arc<Mutex<Vec<SurveyProgress>>> = Arc::default();
/// let log = seen.clone();
/// db.survey::<User>().segments(2).on_progress(move |p| log.lock().unwrap().push(p)).await?;
/// let last = *seen.lock().unwrap().last().unwrap();
/// assert_eq!((last.scanned, last.segments), (2, 2));
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SurveyProgress {
    /// Items read so far, over all segments.
    pub scanned: u64,
    /// The segments the scan is split into.
    pub segments: u32,
}

type Progress = Arc<dyn Fn(SurveyProgress) + Send + Sync>;

/// A read-only scan of the whole table that tells, for every item, which
/// member entity of `C` it is. Made by [`Db::survey`]; `.await` it for a
/// [`SurveyReport`].
///
/// It reads every item once (a Scan costs read capacity for every item:
/// run it off-peak, with few segments at once). Defaults: 4 segments, 2
/// read at once, pages as DynamoDB cuts them, 3 sample keys per group.
///
/// # Example
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # use ddb_entity::{Db, Entity, local::LocalDynamo};
/// # use ddb_entity::survey::{ShapeGroup, SurveyProgress, SurveyReport};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
/// # #[derive(Entity, Serialize, Deserialize)]
/// # #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
/// # struct User { email: String }
/// # let dynamo = LocalDynamo::start().await?;
/// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
/// # db.create_table_if_missing().await?;
/// for email in ["a@x.io", "b@x.io", "c@x.io"] {
///     db.put(&User { email: email.into() }).await?;
/// }
/// let report: SurveyReport = db
///     .survey::<User>()   // one entity, or a #[derive(Collection)] enum of all
///     .segments(8)        // DynamoDB reads each segment independently
///     .concurrency(2)     // at most 2 requests in flight
///     .page_size(100)     // smaller pages, more frequent progress
///     .max_items(10_000)  // a sample of a large table
///     .samples(5)         // sample keys per reported group
///     .on_progress(|p: SurveyProgress| eprintln!("{} of {} segments: {} items read", p.segments, 8, p.scanned))
///     .send()
///     .await?;
/// assert!(report.is_clean());
/// assert_eq!((report.count("User"), report.matched.clone()), (3, vec![("User", 3)]));
/// assert!(!report.truncated && report.ambiguous.is_empty() && report.undecodable.is_empty());
///
/// // An item no entity describes, written by other code: grouped by its shape.
/// # let s = |v: &str| ddb_entity::sdk::types::AttributeValue::S(v.into());
/// db.client().put_item().table_name(db.table_name())
///     .item("PK", s("SESSION#42")).item("SK", s("SESSION#42"))
///     .send().await?;
/// let report = db.survey::<User>().samples(1).await?;
/// assert!(!report.is_clean() && report.scanned == 4);
/// let group: &ShapeGroup = &report.unmatched[0];
/// assert_eq!((group.shape.as_str(), group.count), ("PK=SESSION#{number} SK=SESSION#{number}", 1));
/// assert_eq!(group.samples, [("SESSION#42".to_owned(), Some("SESSION#42".to_owned()))]);
/// assert!(group.entities.is_empty() && group.reason.is_none());
/// # Ok(())
/// # }
/// ```
#[must_use = "nothing happens until you call `.send().await` (or `.await`)"]
pub struct Survey<'db, C: CollectionItem> {
    db: &'db Db<C::Table>,
    plan: scan::Plan,
    samples: usize,
    progress: Option<Progress>,
    collection: PhantomData<fn() -> C>,
}

impl<T: Table> Db<T> {
    /// Surveys the table for the member entities of `C` (an enum
    /// `#[derive(Collection)]` of every entity the table holds, or one
    /// entity).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # use ddb_entity::{Collection, Db, Entity, local::LocalDynamo};
    /// # use ddb_entity::sdk::types::AttributeValue;
    /// # use serde::{Deserialize, Serialize};
    /// ddb_entity::table! { pub struct Legacy { partition_key: "PK", sort_key: "SK", typed_by: Key } }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = Legacy, pk = "USER#{email}", sk = "PROFILE")]
    /// struct User { email: String, name: String }
    ///
    /// #[derive(Collection)]
    /// enum Everything { User(User) }
    ///
    /// # let dynamo = LocalDynamo::start().await?;
    /// # let db = Db::<Legacy>::new(dynamo.client(), dynamo.unique_table_name("doc"));
    /// # db.create_table_if_missing().await?;
    /// # let s = |v: &str| AttributeValue::S(v.into());
    /// // Written by other code: a user, and an item no entity describes.
    /// db.client().put_item().table_name(db.table_name())
    ///     .item("PK", s("USER#ann@example.com")).item("SK", s("PROFILE"))
    ///     .item("email", s("ann@example.com")).item("name", s("Ann"))
    ///     .send().await?;
    /// db.client().put_item().table_name(db.table_name())
    ///     .item("PK", s("SESSION#42")).item("SK", s("SESSION#42"))
    ///     .send().await?;
    ///
    /// let report = db.survey::<Everything>().segments(2).await?;
    /// assert_eq!(report.scanned, 2);
    /// assert_eq!(report.count("User"), 1);
    /// assert_eq!(report.unmatched[0].shape, "PK=SESSION#{number} SK=SESSION#{number}");
    /// println!("{report}");
    /// # Ok(())
    /// # }
    /// ```
    pub fn survey<C: CollectionItem<Table = T>>(&self) -> Survey<'_, C> {
        Survey {
            db: self,
            plan: scan::Plan {
                segments: 4,
                concurrency: 2,
                page_size: None,
                max_items: None,
            },
            samples: 3,
            progress: None,
            collection: PhantomData,
        }
    }
}

impl<C: CollectionItem> Survey<'_, C> {
    /// Split the scan into `segments` (1 to 1,000,000), which DynamoDB
    /// reads independently.
    ///
    /// See [the example](Survey#example).
    pub fn segments(mut self, segments: u32) -> Self {
        self.plan.segments = segments.clamp(1, MAX_SEGMENTS);
        self
    }

    /// At most `segments` read at once (at least 1): the bound on the read
    /// load the survey puts on the table.
    ///
    /// See [the example](Survey#example).
    pub fn concurrency(mut self, segments: usize) -> Self {
        self.plan.concurrency = segments.max(1);
        self
    }

    /// At most `items` per request (1 to 2^31 - 1): smaller pages, more
    /// frequent progress.
    ///
    /// See [the example](Survey#example).
    pub fn page_size(mut self, items: u32) -> Self {
        self.plan.page_size = Some(i32::try_from(items.max(1)).unwrap_or(i32::MAX));
        self
    }

    /// Stop reading new pages once `items` were read (a sample of a large
    /// table); the report says it was truncated.
    ///
    /// See [the example](Survey#example).
    pub fn max_items(mut self, items: u64) -> Self {
        self.plan.max_items = Some(items);
        self
    }

    /// Up to `keys` sample keys per group of the report (default 3).
    ///
    /// See [the example](Survey#example).
    pub fn samples(mut self, keys: usize) -> Self {
        self.samples = keys;
        self
    }

    /// Calls `progress` after every page read, from whichever segment read
    /// it.
    ///
    /// See [the example](Survey#example).
    pub fn on_progress(
        mut self,
        progress: impl Fn(SurveyProgress) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// Runs the survey.
    ///
    /// See [the example](Survey#example).
    pub async fn send(self) -> Result<SurveyReport> {
        let table = self.db.table_name();
        let span = tracing::info_span!(
            "ddb.survey",
            table,
            collection = C::NAME,
            segments = self.plan.segments,
            scanned = tracing::field::Empty
        );
        async move {
            let scanned = Arc::new(AtomicU64::new(0));
            let (samples, segments) = (self.samples, self.plan.segments);
            let progress = self.progress.clone();
            let counter = Arc::clone(&scanned);
            let on_page = move |tally: &mut Tally, items: Vec<Item>| {
                for item in items {
                    tally.add::<C>(item, samples);
                }
                if let Some(progress) = &progress {
                    progress(SurveyProgress {
                        scanned: counter.load(Ordering::Relaxed),
                        segments,
                    });
                }
            };
            let (tallies, truncated) =
                scan::scan(self.db, self.plan, Arc::clone(&scanned), &on_page).await?;
            let scanned = scanned.load(Ordering::Relaxed);
            let report = Tally::report::<C>(tallies, samples, scanned, truncated);
            tracing::Span::current().record("scanned", report.scanned);
            Ok(report)
        }
        .instrument(span)
        .await
    }
}

into_future!(['db, C: CollectionItem + 'db] Survey<'db, C> => SurveyReport);

/// One segment's findings.
#[derive(Default)]
struct Tally {
    /// Per member, in `C::MEMBERS` order (grown on first use).
    matched: Vec<u64>,
    unmatched: Groups,
    ambiguous: Groups,
    undecodable: Groups,
}

impl Tally {
    fn add<C: CollectionItem>(&mut self, item: Item, samples: usize) {
        let schema = C::Table::SCHEMA;
        let (pk, sk) = stored_keys(&item, &schema);
        let key = (pk.unwrap_or_default().to_owned(), sk.map(str::to_owned));
        let shape = item_shape(
            (schema.primary.partition_key, pk),
            schema.primary.sort_key.map(|name| (name, sk)),
            schema.delimiter,
        );
        let tag = match schema.typing {
            Typing::Key => None,
            _ => item::type_tag(&item, &schema),
        };
        let claims: Vec<(usize, &'static Member)> = C::MEMBERS
            .iter()
            .enumerate()
            .filter(|(_, member)| match (tag, pk) {
                (Some(tag), _) => member.type_tag == tag,
                (None, Some(pk)) if schema.typing.reads_keys() => member.key_matches(pk, sk),
                _ => false,
            })
            .collect();
        match claims.as_slice() {
            [] => self.unmatched.add(shape, &[], key, || None, samples),
            [(position, member)] => {
                // Every key the item carries is verified: an index key the
                // library would write differently is reported here, before
                // a write through the library would change it.
                match C::from_typed_item(member.type_tag, item) {
                    Ok(Some(_)) => {
                        if self.matched.len() < C::MEMBERS.len() {
                            self.matched.resize(C::MEMBERS.len(), 0);
                        }
                        self.matched[*position] += 1;
                    }
                    Ok(None) => self.unmatched.add(shape, &[], key, || None, samples),
                    Err(err) => {
                        self.undecodable.add(
                            shape,
                            &[member.entity],
                            key,
                            || Some(err.to_string()),
                            samples,
                        );
                    }
                }
            }
            several => {
                let entities: Vec<&'static str> = several.iter().map(|(_, m)| m.entity).collect();
                self.ambiguous.add(shape, &entities, key, || None, samples);
            }
        }
    }

    fn report<C: CollectionItem>(
        tallies: Vec<Tally>,
        samples: usize,
        scanned: u64,
        truncated: bool,
    ) -> SurveyReport {
        let mut total = Tally::default();
        total.matched.resize(C::MEMBERS.len(), 0);
        for tally in tallies {
            for (position, count) in tally.matched.into_iter().enumerate() {
                total.matched[position] += count;
            }
            total.unmatched.merge(tally.unmatched, samples);
            total.ambiguous.merge(tally.ambiguous, samples);
            total.undecodable.merge(tally.undecodable, samples);
        }
        SurveyReport {
            scanned,
            matched: C::MEMBERS
                .iter()
                .map(|member| member.entity)
                .zip(total.matched)
                .collect(),
            unmatched: total.unmatched.into_sorted(),
            ambiguous: total.ambiguous.into_sorted(),
            undecodable: total.undecodable.into_sorted(),
            truncated,
        }
    }
}
