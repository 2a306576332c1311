//! A small HTTP service on ddb-entity: customers and their orders over one
//! DynamoDB table, served with axum.
//!
//! ```sh
//! # On the embedded DynamoDB (nothing to install), on 127.0.0.1:3000:
//! cargo run --example service --features service
//! # On real AWS: aws-config's usual chain (AWS_REGION / AWS_PROFILE,
//! # environment or SSO-less profile credentials, IMDS, ECS, web identity):
//! cargo run --example service --features service -- --aws --table shop-prod
//! ```
//!
//! | endpoint | what ddb-entity does |
//! |---|---|
//! | `GET /customers/{id}` | the profile and latest orders: ONE Query into a collection |
//! | `POST /customers` | a create; a taken key is `409 Conflict` |
//! | `PUT /customers/{id}` + `If-Match` | an update over that version; another writer first is `412` |
//! | `GET /customers/{id}/orders?limit=&cursor=` | a page of a Query; the cursor is a query parameter |
//! | `POST /customers/{id}/orders` | a create |
//! | `GET /orders/{order_id}` | `one()` on GSI1 |
//!
//! Log lines go to stderr through a `tracing` subscriber, at the level
//! `RUST_LOG` names (`info` by default): each refused or failed request
//! with its full error, which the client's body never carries.
//!
//! Every answer carries what DynamoDB cost (`x-ddb-requests`,
//! `x-ddb-read-units`, `x-ddb-write-units`), metered per request with
//! `Db::metered`. Its tests (`cargo test --example service --features
//! service`) start it on `127.0.0.1:0` over the embedded server and talk
//! HTTP to it.

mod app;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;

use ddb_entity::client::ClientOptions;
use ddb_entity::local::LocalDynamo;
use ddb_entity::{CursorSeal, Db};
use tracing_subscriber::filter::LevelFilter;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Where the service runs and on what.
struct Options {
    aws: bool,
    table: String,
    addr: SocketAddr,
}

fn options() -> Result<Options, Error> {
    let mut options = Options {
        aws: false,
        table: "shop".to_owned(),
        addr: SocketAddr::from(([127, 0, 0, 1], 3000)),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--aws" => options.aws = true,
            "--table" => options.table = args.next().ok_or("--table takes a name")?,
            "--addr" => options.addr = args.next().ok_or("--addr takes host:port")?.parse()?,
            other => return Err(format!("unknown argument {other:?}").into()),
        }
    }
    Ok(options)
}

/// The key that seals the cursors handed to clients: 64 hex digits from
/// `SHOP_CURSOR_KEY` (your secret store), required on AWS; a fixed
/// development key on the embedded server.
fn cursor_key(aws: bool) -> Result<[u8; 32], Error> {
    let Ok(hex) = std::env::var("SHOP_CURSOR_KEY") else {
        if aws {
            return Err("set SHOP_CURSOR_KEY to 64 hex digits (the cursor sealing key)".into());
        }
        return Ok(*b"development key, never in prod!!");
    };
    let mut key = [0u8; 32];
    if hex.len() != 64 || !hex.is_ascii() {
        return Err("SHOP_CURSOR_KEY must be 64 hex digits".into());
    }
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16)?;
    }
    Ok(key)
}

/// The level of the log lines, from `RUST_LOG` (`info` when unset): one
/// level name, `error` to `trace` or `off`. Refused requests are logged at
/// `info` and failed ones at `error`, with the full error a client never
/// sees (see `app.rs`).
fn log_level(rust_log: Option<&str>) -> Result<LevelFilter, Error> {
    let Some(level) = rust_log else {
        return Ok(LevelFilter::INFO);
    };
    level.trim().parse().map_err(|_| {
        format!("RUST_LOG={level:?}: give one level (error, warn, info, debug, trace, off)").into()
    })
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    // Log lines on stderr, for the platform's log collector.
    let level = log_level(std::env::var("RUST_LOG").ok().as_deref())?;
    tracing_subscriber::fmt()
        .with_max_level(level)
        .with_writer(std::io::stderr)
        .try_init()?;
    let options = options()?;
    // Keep the embedded server alive as long as the service.
    let (client, _local) = if options.aws {
        // The production client: bounded timeouts, retries, and a missing
        // region refused here, at start-up.
        (ClientOptions::default().load().await?, None)
    } else {
        let local = LocalDynamo::start().await?;
        (local.client(), Some(local))
    };
    let db = Db::<app::Shop>::new(client, options.table)
        .with_cursor_seal(CursorSeal::new(1, cursor_key(options.aws)?));
    db.create_table_if_missing().await?;
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    tracing::info!(addr = %listener.local_addr()?, "serving");
    axum::serve(listener, app::router(db)).await?;
    Ok(())
}
