//! Read plans: what a typed read will send, stated without sending it.

use std::fmt;

use crate::entity::RangeCondition;
use crate::table::KeySchema;

/// What a typed read sends, without sending it: the operation, the index,
/// the one partition key value and the sort-key condition. Made by
/// [`Get::plan`](crate::read::Get::plan) and [`Query::plan`](crate::read::Query::plan);
/// the model's access patterns are checked from it (feature `model`).
///
/// ```
/// use ddb_entity::op::{ReadOperation, SortCondition};
/// use ddb_entity::{Db, Entity};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{order_id}")]
/// struct Order { customer_id: u64, order_id: u64 }
///
/// # let config = ddb_entity::sdk::Config::builder()
/// #     .behavior_version(ddb_entity::sdk::config::BehaviorVersion::latest()).build();
/// let db = Db::<App>::new(ddb_entity::sdk::Client::from_conf(config), "app");
/// let plan = db.query(Order::partition(42)?).sk_begins_with(Order::sk()).reverse(true).plan()?;
/// assert_eq!(plan.operation, ReadOperation::Query);
/// assert_eq!(plan.index, None);
/// assert_eq!(plan.partition, "CUST#42");
/// assert_eq!(plan.sort, SortCondition::BeginsWith("ORDER#".into()));
/// assert_eq!(plan.to_string(), r#"Query PK = "CUST#42" AND begins_with(SK, "ORDER#"), newest first"#);
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadPlan {
    /// GetItem or Query.
    pub operation: ReadOperation,
    /// The index queried, `None` for the table.
    pub index: Option<&'static str>,
    /// The key attributes of the table or index read.
    pub keys: KeySchema,
    /// The one partition key value read.
    pub partition: String,
    /// The sort-key condition: a GetItem's is the whole sort key.
    pub sort: SortCondition,
    /// The Query's filter (its `filter` conditions joined by `AND`), with
    /// attribute names and values written out, `None` without one. A
    /// filter is applied after reading: the items it drops cost read
    /// capacity all the same. (Under
    /// [`UnknownItems::Filter`](crate::collection::UnknownItems::Filter) the send also
    /// restricts the types to the collection's, which the plan cannot
    /// know.) Values can be personal data: mind where a plan is logged.
    pub filter: Option<String>,
    /// The attributes a projection asks for, `None` for whole items.
    pub projection: Option<Vec<&'static str>>,
    /// Newest first (a reversed Query).
    pub reverse: bool,
    /// At most this many items.
    pub limit: Option<usize>,
    /// A strongly consistent read.
    pub consistent: bool,
}

/// The DynamoDB operation of a [`ReadPlan`].
///
/// ```
/// # use ddb_entity::{Db, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// struct User { email: String }
///
/// # let config = aws_sdk_dynamodb::Config::builder().behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest()).build();
/// let db = Db::<App>::new(aws_sdk_dynamodb::Client::from_conf(config), "app");
/// use ddb_entity::op::ReadOperation;
/// assert_eq!(db.get(User::key("ada@example.com")?).plan().operation, ReadOperation::GetItem);
/// assert_eq!(db.query(User::partition("ada@example.com")?).plan()?.operation, ReadOperation::Query);
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReadOperation {
    /// One item by its whole key.
    GetItem,
    /// One partition of the table or of an index.
    Query,
}

impl ReadOperation {
    /// `GetItem` or `Query`.
    ///
    /// ```
    /// assert_eq!(ddb_entity::op::ReadOperation::Query.as_str(), "Query");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            ReadOperation::GetItem => "GetItem",
            ReadOperation::Query => "Query",
        }
    }
}

/// The sort-key part of a key condition, as sent.
///
/// ```
/// # use ddb_entity::{Db, Entity};
/// # use serde::{Deserialize, Serialize};
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
/// struct Order { email: String, order_id: u64 }
///
/// # let config = aws_sdk_dynamodb::Config::builder().behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest()).build();
/// let db = Db::<App>::new(aws_sdk_dynamodb::Client::from_conf(config), "app");
/// use ddb_entity::op::SortCondition;
/// let plan = db.query(Order::partition("ada@example.com")?).plan()?;
/// assert_eq!(plan.sort, SortCondition::All);
/// let plan = db.query(Order::partition("ada@example.com")?).sk_begins_with(Order::sk()).plan()?;
/// assert_eq!(plan.sort, SortCondition::BeginsWith("ORDER#".into()));
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SortCondition {
    /// No sort-key condition: the whole partition.
    All,
    /// A range that holds nothing: no request is sent.
    Nothing,
    /// `sk = value` (a GetItem's sort key, too).
    Equal(String),
    /// `begins_with(sk, value)`.
    BeginsWith(String),
    /// `sk BETWEEN low AND high`.
    Between(String, String),
    /// `sk >= value`.
    AtLeast(String),
    /// `sk <= value`.
    AtMost(String),
}

impl SortCondition {
    pub(crate) fn from_range(condition: RangeCondition<'_>) -> Self {
        match condition {
            RangeCondition::All => SortCondition::All,
            RangeCondition::Nothing => SortCondition::Nothing,
            RangeCondition::Equal(v) => SortCondition::Equal(v.to_owned()),
            RangeCondition::BeginsWith(v) => SortCondition::BeginsWith(v.to_owned()),
            RangeCondition::Between(low, high) => {
                SortCondition::Between(low.to_owned(), high.to_owned())
            }
            RangeCondition::AtLeast(v) => SortCondition::AtLeast(v.to_owned()),
            RangeCondition::AtMost(v) => SortCondition::AtMost(v.to_owned()),
        }
    }

    /// The inclusive bounds of the sort keys it selects (`None`: no bound),
    /// or `None` for [`Nothing`](SortCondition::Nothing). A prefix's upper
    /// bound is the prefix followed by U+10FFFF.
    ///
    /// ```
    /// use ddb_entity::op::SortCondition;
    ///
    /// let at_least = SortCondition::AtLeast("ORDER#2026".into());
    /// assert_eq!(at_least.bounds(), Some((Some("ORDER#2026".into()), None)));
    /// assert_eq!(SortCondition::Nothing.bounds(), None);
    /// ```
    pub fn bounds(&self) -> Option<(Option<String>, Option<String>)> {
        Some(match self {
            SortCondition::All => (None, None),
            SortCondition::Nothing => return None,
            SortCondition::Equal(v) => (Some(v.clone()), Some(v.clone())),
            SortCondition::BeginsWith(v) => (Some(v.clone()), Some(format!("{v}\u{10FFFF}"))),
            SortCondition::Between(low, high) => (Some(low.clone()), Some(high.clone())),
            SortCondition::AtLeast(v) => (Some(v.clone()), None),
            SortCondition::AtMost(v) => (None, Some(v.clone())),
        })
    }
}

/// A key condition's value, quoted; a prefix's upper bound (the prefix,
/// then up to 1024 bytes of U+10FFFF) as `"prefix"…`.
pub(crate) fn shown(value: &str) -> String {
    match value.find('\u{10FFFF}') {
        Some(at) => format!("{:?}…", &value[..at]),
        None => format!("{value:?}"),
    }
}

impl fmt::Display for ReadPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.operation.as_str())?;
        if let Some(index) = self.index {
            write!(f, " on {index}")?;
        }
        write!(f, " {} = {:?}", self.keys.partition_key, self.partition)?;
        let sk = self.keys.sort_key.unwrap_or("sort key");
        match &self.sort {
            SortCondition::All => {}
            SortCondition::Nothing => write!(f, " AND (nothing: not sent)")?,
            SortCondition::Equal(v) => write!(f, " AND {sk} = {}", shown(v))?,
            SortCondition::BeginsWith(v) => write!(f, " AND begins_with({sk}, {})", shown(v))?,
            SortCondition::Between(low, high) => {
                write!(f, " AND {sk} BETWEEN {} AND {}", shown(low), shown(high))?
            }
            SortCondition::AtLeast(v) => write!(f, " AND {sk} >= {}", shown(v))?,
            SortCondition::AtMost(v) => write!(f, " AND {sk} <= {}", shown(v))?,
        }
        if let Some(filter) = &self.filter {
            write!(f, ", filtered by {filter}")?;
        }
        if self.reverse {
            write!(f, ", newest first")?;
        }
        if let Some(limit) = self.limit {
            write!(f, ", limit {limit}")?;
        }
        if let Some(projection) = &self.projection {
            write!(f, ", projecting {}", projection.join(", "))?;
        }
        if self.consistent {
            write!(f, ", consistent")?;
        }
        Ok(())
    }
}
