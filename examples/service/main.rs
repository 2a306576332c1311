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
//! Every answer carries what DynamoDB cost (`x-ddb-requests`,
//! `x-ddb-read-units`, `x-ddb-write-units`), metered per request with
//! `Db::metered`. Its tests (`cargo test --example service --features
//! service`) start it on `127.0.0.1:0` over the embedded server and talk
//! HTTP to it.

mod app;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;

use aws_sdk_dynamodb::Client;
use ddb_entity::Db;
use ddb_entity::local::LocalDynamo;

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

/// A client for real AWS, from aws-config's default chain. The SDK is
/// built without its default HTTPS stack, so the example brings one:
/// rustls with ring (no aws-lc build).
async fn aws_client() -> Client {
    use aws_smithy_http_client::tls;
    let https = aws_smithy_http_client::Builder::new()
        .tls_provider(tls::Provider::Rustls(
            tls::rustls_provider::CryptoMode::Ring,
        ))
        .build_https();
    let config = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .http_client(https)
        .load()
        .await;
    Client::new(&config)
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let options = options()?;
    // Keep the embedded server alive as long as the service.
    let (client, _local) = if options.aws {
        (aws_client().await, None)
    } else {
        let local = LocalDynamo::start().await?;
        (local.client(), Some(local))
    };
    let db = Db::<app::Shop>::new(client, options.table);
    db.create_table_if_missing().await?;
    let listener = tokio::net::TcpListener::bind(options.addr).await?;
    println!("serving on http://{}", listener.local_addr()?);
    axum::serve(listener, app::router(db)).await?;
    Ok(())
}
