//! The handle every operation starts from: the user's client plus a table.

use std::fmt;
use std::marker::PhantomData;
use std::sync::Arc;

use aws_sdk_dynamodb::Client;

use crate::table::Table;

/// A table of shape `T`, reached through the `aws_sdk_dynamodb::Client` you
/// built (with `aws-config` for credentials and region, as for any AWS SDK
/// client). Cheap to clone: the SDK client and the name are shared.
///
/// ```no_run
/// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
/// # async fn run(config: aws_sdk_dynamodb::Config) {
/// use ddb_entity::Db;
///
/// let client = aws_sdk_dynamodb::Client::from_conf(config);
/// let db = Db::<App>::new(client, "app-prod");
/// assert_eq!(db.table_name(), "app-prod");
/// # }
/// ```
pub struct Db<T: Table> {
    client: Client,
    table_name: Arc<str>,
    table: PhantomData<fn() -> T>,
}

impl<T: Table> Db<T> {
    /// A handle on the table named `table_name` (a runtime value: it usually
    /// differs per stage and per test).
    pub fn new(client: Client, table_name: impl Into<Arc<str>>) -> Self {
        Db {
            client,
            table_name: table_name.into(),
            table: PhantomData,
        }
    }

    /// The SDK client, for anything this crate does not cover.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The table's name.
    pub fn table_name(&self) -> &str {
        &self.table_name
    }
}

impl<T: Table> Clone for Db<T> {
    fn clone(&self) -> Self {
        Db {
            client: self.client.clone(),
            table_name: Arc::clone(&self.table_name),
            table: PhantomData,
        }
    }
}

impl<T: Table> fmt::Debug for Db<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Db")
            .field("table", &std::any::type_name::<T>())
            .field("table_name", &self.table_name)
            .finish_non_exhaustive()
    }
}
