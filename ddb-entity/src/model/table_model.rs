//! `Model`: the table, its indexes, its entities and its access patterns
//! as one value.

use std::fmt;

use aws_sdk_dynamodb::config::BehaviorVersion;
use aws_sdk_dynamodb::operation::create_table::CreateTableInput;

use super::finding::{Allow, Lint};
use super::pattern::{AccessPattern, DeclaredPattern};
use crate::db::Db;
use crate::entity::Entity;
use crate::error::Result;
use crate::layout::EntityLayout;
use crate::table::{Table, TableSchema};

/// The model of a single table: its declaration ([`table!`](crate::table!):
/// keys, global and local indexes, projections, billing), every entity
/// stored in it with its templates, and the access patterns the
/// application runs on it.
///
/// Built from the types the application already has, by listing them (no
/// registry, no link-time collection): the entity types are checked at
/// compile time to belong to the table, the patterns are the typed
/// requests the service sends. From it come the [`report`](Model::report)
/// (the access-pattern table and the lints), the deploy definitions
/// ([`aws_cli_json`](Model::aws_cli_json), [`cloudformation_json`](Model::cloudformation_json),
/// [`terraform_hcl`](Model::terraform_hcl), [`terraform_json`](Model::terraform_json),
/// [`workbench_json`](Model::workbench_json)), the [`key_layout`](Model::key_layout)
/// snapshot, the per-tenant [`tenant_policy`](Model::tenant_policy) and the
/// [`drift`](Model::drift) of a live table.
///
/// ```
/// use ddb_entity::model::{AccessPattern, Model};
/// use ddb_entity::{Entity, Table};
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! {
///     /// The shop's table.
///     pub struct App {
///         partition_key: "PK",
///         sort_key: "SK",
///         indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } },
///     }
/// }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
/// struct User { email: String, name: String }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
/// #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
/// struct Order { email: String, order_id: u64, total_cents: i64 }
///
/// let model = Model::<App>::new("shop")
///     .entity::<User>()
///     .entity::<Order>()
///     .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
///     .pattern(
///         AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
///             .returns::<Vec<Order>>(),
///     );
/// let report = model.report();
/// assert!(report.is_clean(), "{report}");
/// assert!(report.access_patterns_markdown().contains("| Order by id | Query | GSI1 |"));
/// ```
pub struct Model<T: Table> {
    table_name: String,
    entities: Vec<&'static EntityLayout>,
    patterns: Vec<DeclaredPattern>,
    allowed: Vec<Allow>,
    /// Builds the patterns' requests; never sends one.
    db: Db<T>,
}

impl<T: Table> Model<T> {
    /// The model of table `T`, deployed as `table_name` (the name the deploy
    /// definitions use; stages may differ, see [`Model::with_table_name`]).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let model = model();
    /// assert_eq!(model.table_name(), "shop");
    /// assert!(model.report().is_clean());
    /// ```
    pub fn new(table_name: impl Into<String>) -> Self {
        let table_name = table_name.into();
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .build();
        let db = Db::new(
            aws_sdk_dynamodb::Client::from_conf(config),
            table_name.clone(),
        );
        Model {
            table_name,
            entities: Vec::new(),
            patterns: Vec::new(),
            allowed: Vec::new(),
            db,
        }
    }

    /// The same model, deployed under another name.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let staging = model().with_table_name("shop-staging");
    /// assert_eq!(staging.create_table_input()?.table_name(), Some("shop-staging"));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn with_table_name(mut self, table_name: impl Into<String>) -> Self {
        self.table_name = table_name.into();
        self
    }

    /// Adds an entity stored in the table (each once, in the order the
    /// report lists them).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// // Listing an entity twice keeps one.
    /// let model = model().entity::<User>();
    /// let names: Vec<&str> = model.entities().iter().map(|e| e.entity).collect();
    /// assert_eq!(names, ["User", "Order"]);
    /// ```
    pub fn entity<E: Entity<Table = T>>(mut self) -> Self {
        const {
            assert!(
                E::LAYOUT.is_described(),
                "Model::entity takes entities whose keys #[derive(Entity)] described (Entity::LAYOUT); write a LAYOUT for an entity implemented by hand"
            )
        };
        if !self.entities.contains(&E::LAYOUT) {
            self.entities.push(E::LAYOUT);
        }
        self
    }

    /// Adds an access pattern; its request is built now, from the model's
    /// `Db`, and checked by [`report`](Model::report).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let model = model().pattern(AccessPattern::query("Orders of a user", |db| {
    ///     Ok(db.query(Order::partition("ada@example.com")?).sk_begins_with(Order::sk()))
    /// }).returns::<Vec<Order>>());
    /// let report = model.report();
    /// assert_eq!(report.patterns.len(), 3);
    /// assert_eq!(report.patterns[2].reads, ["Order"]);
    /// ```
    pub fn pattern(mut self, pattern: AccessPattern<T>) -> Self {
        self.patterns
            .push(DeclaredPattern::declare(pattern, &self.db));
        self
    }

    /// Adds several access patterns.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let model = Model::<App>::new("shop").entity::<User>().entity::<Order>().patterns([
    ///     AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))),
    ///     AccessPattern::get("User by name", |db| Ok(db.get(User::key("bob@example.com")?))),
    /// ]);
    /// assert_eq!(model.report().patterns.len(), 2);
    /// ```
    pub fn patterns(self, patterns: impl IntoIterator<Item = AccessPattern<T>>) -> Self {
        patterns.into_iter().fold(self, Model::pattern)
    }

    /// Silences `lint` for `subject` (an index name, an entity's Rust name
    /// or a pattern's name, as the finding names it), with the reason the
    /// report shows next to it.
    ///
    /// ```
    /// use ddb_entity::Entity;
    /// use ddb_entity::model::{Lint, Model};
    /// use serde::{Deserialize, Serialize};
    ///
    /// ddb_entity::table! {
    ///     pub struct App {
    ///         partition_key: "PK",
    ///         sort_key: "SK",
    ///         indexes: { pub Open = "Open" { partition_key: "OPENPK", sort_key: "OPENSK" } },
    ///     }
    /// }
    ///
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
    /// #[entity(index = Open, pk = "OPEN", sk = "{id}")]
    /// struct Ticket { id: u64 }
    ///
    /// let model = || Model::<App>::new("tickets").entity::<Ticket>();
    /// let hot = model().report();
    /// assert_eq!(hot.findings[0].lint, Lint::HotPartition);
    /// assert_eq!(hot.findings[0].subject, "Ticket on Open");
    ///
    /// let allowed = model()
    ///     .allow(Lint::HotPartition, "Ticket on Open", "a few open tickets a day")
    ///     .report();
    /// assert!(allowed.is_clean());
    /// assert_eq!(allowed.findings[0].allowed.as_deref(), Some("a few open tickets a day"));
    /// ```
    pub fn allow(
        mut self,
        lint: Lint,
        subject: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.allowed.push(Allow {
            lint,
            subject: subject.into(),
            reason: reason.into(),
        });
        self
    }

    /// The table's declaration.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// assert_eq!(model().schema().primary.partition_key, "PK");
    /// ```
    pub fn schema(&self) -> &'static TableSchema {
        &T::SCHEMA
    }

    /// The table name the deploy definitions use.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// assert_eq!(model().table_name(), "shop");
    /// ```
    pub fn table_name(&self) -> &str {
        &self.table_name
    }

    /// The entities, as added.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// assert_eq!(model().entities()[1].type_tag, "order");
    /// ```
    pub fn entities(&self) -> &[&'static EntityLayout] {
        &self.entities
    }

    /// The entity whose Rust name is `rust_name`.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let model = model();
    /// assert_eq!(model.entity_layout("Order").unwrap().keys[1].index_name(), Some("GSI1"));
    /// assert!(model.entity_layout("Invoice").is_none());
    /// ```
    pub fn entity_layout(&self, rust_name: &str) -> Option<&'static EntityLayout> {
        self.entities
            .iter()
            .copied()
            .find(|e| e.entity == rust_name)
    }

    pub(crate) fn declared_patterns(&self) -> &[DeclaredPattern] {
        &self.patterns
    }

    pub(crate) fn allowed(&self) -> &[Allow] {
        &self.allowed
    }

    /// The CreateTable request of the table: exactly what
    /// [`Db::create_table_if_missing`](crate::db::Db::create_table_if_missing) sends.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// let input = model().create_table_input()?;
    /// assert_eq!(input.table_name(), Some("shop"));
    /// assert_eq!(input.global_secondary_indexes()[0].index_name(), "GSI1");
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn create_table_input(&self) -> Result<CreateTableInput> {
        super::create_table_input(&T::SCHEMA, &self.table_name)
    }

    /// Compares the live table `table_name` (for a stage, or the model's
    /// own name) with the declaration; see [`Db::drift`](crate::db::Db::drift).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::{AccessPattern, Model};
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK",
    /// #     indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" } } } }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "PROFILE")]
    /// # struct User { email: String, name: String }
    /// # #[derive(Entity, Serialize, Deserialize)]
    /// # #[entity(table = App, pk = "USER#{email}", sk = "ORDER#{order_id}")]
    /// # #[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "ORDER")]
    /// # struct Order { email: String, order_id: u64, total_cents: i64 }
    /// # fn model() -> Model<App> {
    /// #     Model::<App>::new("shop")
    /// #         .entity::<User>()
    /// #         .entity::<Order>()
    /// #         .pattern(AccessPattern::get("User by email", |db| Ok(db.get(User::key("ada@example.com")?))))
    /// #         .pattern(
    /// #             AccessPattern::query("Order by id", |db| Ok(db.query(Order::gsi1_partition(9931)?)))
    /// #                 .returns::<Vec<Order>>(),
    /// #         )
    /// # }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// use ddb_entity::{Db, local::LocalDynamo};
    ///
    /// let dynamo = LocalDynamo::start().await?;
    /// let name = dynamo.unique_table_name("shop");
    /// Db::<App>::new(dynamo.client(), name.clone()).create_table_if_missing().await?;
    /// let drift = model().drift(dynamo.client(), &name).await?;
    /// assert!(drift.is_empty(), "{drift}");
    /// # Ok(())
    /// # }
    /// ```
    pub async fn drift(
        &self,
        client: aws_sdk_dynamodb::Client,
        table_name: &str,
    ) -> Result<super::Drift> {
        Db::<T>::new(client, table_name.to_owned()).drift().await
    }
}

impl<T: Table> fmt::Debug for Model<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("table_name", &self.table_name)
            .field(
                "entities",
                &self.entities.iter().map(|e| e.entity).collect::<Vec<_>>(),
            )
            .field(
                "patterns",
                &self.patterns.iter().map(|p| &p.name).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}
