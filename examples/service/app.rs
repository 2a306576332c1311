//! The service: a customer and order API over one DynamoDB table, every
//! handler a typed ddb-entity call.

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use ddb_entity::{Capacity, Collection, Cursor, Db, Entity, ErrorKind};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The service's single table (an e-commerce model).
    pub struct Shop {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Orders by id: `ORDER#{order_id}`.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

/// `PK=CUST#{customer_id}`, `SK=PROFILE`, versioned for optimistic locking.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "PROFILE", version = "version")]
pub struct Customer {
    pub customer_id: u64,
    pub name: String,
    pub email: String,
    #[serde(default)]
    pub version: u64,
}

/// `SK=ORDER#{placed}#{order_id}` under its customer (newest last), and
/// `ORDER#{order_id}` in GSI1 for "order by id".
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
#[entity(index = Gsi1, pk = "ORDER#{order_id}", sk = "CUST#{customer_id}")]
pub struct Order {
    pub customer_id: u64,
    pub order_id: u64,
    /// `yyyymmdd`.
    pub placed: u32,
    pub total_cents: i64,
}

/// Claims an order id for the whole table: created with its order in one
/// transaction, so an id posted again (under any customer) is 409, and
/// `GET /orders/{id}` finds at most one order.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = Shop, pk = "ORDERID#{order_id}", sk = "CLAIM")]
pub struct OrderIdClaim {
    pub order_id: u64,
}

/// The customer page: profile and latest orders, from ONE Query.
#[derive(Collection, Serialize, Debug)]
pub struct CustomerView {
    pub customer: Option<Customer>,
    pub orders: Vec<Order>,
}

/// How many orders the customer page shows.
const LATEST_ORDERS: usize = 10;

/// The longest name or email the service takes, in bytes: a client's
/// text is bounded here, at the edge, rather than by DynamoDB's 400 KB
/// item limit.
const MAX_TEXT: usize = 256;

/// `field`'s text, or a 400 naming the bound.
fn bounded(field: &str, text: String) -> Result<String, ApiError> {
    if text.len() > MAX_TEXT {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("{field} is longer than {MAX_TEXT} bytes"),
        ));
    }
    Ok(text)
}

/// The service's routes over `db`.
pub fn router(db: Db<Shop>) -> Router {
    Router::new()
        .route("/customers", post(create_customer))
        .route("/customers/{id}", get(customer_view).put(update_customer))
        .route(
            "/customers/{id}/orders",
            get(list_orders).post(create_order),
        )
        .route("/orders/{order_id}", get(order_by_id))
        .with_state(db)
}

/// What a handler answers: a JSON body, and what DynamoDB cost it.
type Answer = Result<Response, ApiError>;

/// A handle that meters this HTTP request's DynamoDB calls, and the
/// headers reporting them (`x-ddb-requests`, `x-ddb-read-units`,
/// `x-ddb-write-units`): the cost of each endpoint is visible to its
/// caller — and to the tests.
fn metered(db: &Db<Shop>) -> (Db<Shop>, Capacity) {
    let capacity = Capacity::new();
    (db.metered(&capacity), capacity)
}

fn respond(status: StatusCode, body: impl Serialize, capacity: &Capacity) -> Response {
    let mut response = (status, Json(body)).into_response();
    let headers = response.headers_mut();
    for (name, value) in [
        ("x-ddb-requests", capacity.requests().to_string()),
        ("x-ddb-read-units", capacity.read_units().to_string()),
        ("x-ddb-write-units", capacity.write_units().to_string()),
    ] {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    response
}

/// `ETag: "<version>"`.
fn with_etag(mut response: Response, version: u64) -> Response {
    if let Ok(value) = HeaderValue::from_str(&format!("\"{version}\"")) {
        response.headers_mut().insert(header::ETAG, value);
    }
    response
}

/// `GET /customers/{id}`: the profile and the latest orders, one Query
/// (newest first: `PROFILE` sorts after every `ORDER#…`).
async fn customer_view(State(db): State<Db<Shop>>, Path(id): Path<u64>) -> Answer {
    let (db, capacity) = metered(&db);
    let view: CustomerView = db
        .query(Customer::partition(id)?)
        .reverse(true)
        .limit(LATEST_ORDERS + 1)
        .collect()
        .await?;
    let Some(customer) = &view.customer else {
        return Err(ApiError::not_found(format!("no customer {id}")));
    };
    let version = customer.version;
    Ok(with_etag(respond(StatusCode::OK, view, &capacity), version))
}

/// The body of `POST /customers`.
#[derive(Deserialize)]
struct NewCustomer {
    customer_id: u64,
    name: String,
    email: String,
}

/// `POST /customers`: a create, conditioned on the key being free — a
/// taken key is 409 Conflict.
async fn create_customer(State(db): State<Db<Shop>>, Json(new): Json<NewCustomer>) -> Answer {
    let (db, capacity) = metered(&db);
    let customer = db
        .create(&Customer {
            customer_id: new.customer_id,
            name: bounded("name", new.name)?,
            email: bounded("email", new.email)?,
            version: 0,
        })
        .returning_new()
        .await?;
    let version = customer.version;
    let mut response = with_etag(respond(StatusCode::CREATED, customer, &capacity), version);
    let location = format!("/customers/{}", new.customer_id);
    if let Ok(location) = HeaderValue::from_str(&location) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

/// The body of `PUT /customers/{id}`.
#[derive(Deserialize)]
struct CustomerChange {
    name: String,
    email: String,
}

/// `PUT /customers/{id}` with `If-Match: "<version>"`: an update that
/// applies only over that version (optimistic locking). Another writer
/// first is 412 Precondition Failed; no `If-Match` is 428.
async fn update_customer(
    State(db): State<Db<Shop>>,
    Path(id): Path<u64>,
    headers: HeaderMap,
    Json(change): Json<CustomerChange>,
) -> Answer {
    let (db, capacity) = metered(&db);
    let expected = if_match(&headers)?;
    let f = Customer::fields();
    let customer = db
        .update(Customer::key(id)?)
        .set(f.name, bounded("name", change.name)?)
        .set(f.email, bounded("email", change.email)?)
        .expect_version(expected)
        .await?;
    let version = customer.version;
    Ok(with_etag(
        respond(StatusCode::OK, customer, &capacity),
        version,
    ))
}

/// The version an `If-Match: "3"` names.
fn if_match(headers: &HeaderMap) -> Result<u64, ApiError> {
    let value = headers.get(header::IF_MATCH).ok_or_else(|| {
        ApiError::new(
            StatusCode::PRECONDITION_REQUIRED,
            "send If-Match with the ETag you read",
        )
    })?;
    value
        .to_str()
        .ok()
        .map(|v| v.trim().trim_matches('"'))
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| ApiError::new(StatusCode::BAD_REQUEST, "If-Match is not an ETag of ours"))
}

/// The query of `GET /customers/{id}/orders`.
#[derive(Deserialize)]
struct PageQuery {
    /// Orders per page (default 20, at most 100).
    limit: Option<usize>,
    /// Where the previous page stopped.
    cursor: Option<String>,
}

/// A page of orders and where to go on.
#[derive(Serialize)]
struct OrderPage {
    orders: Vec<Order>,
    /// Pass as `?cursor=` for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

/// `GET /customers/{id}/orders?limit=&cursor=`: oldest first, a page per
/// request, the cursor an opaque query parameter (refused, 400, when it is
/// not from this list).
async fn list_orders(
    State(db): State<Db<Shop>>,
    Path(id): Path<u64>,
    Query(page): Query<PageQuery>,
) -> Answer {
    let (db, capacity) = metered(&db);
    let mut query = db
        .query(Order::partition(id)?)
        .sk_begins_with(Order::sk())
        .limit(page.limit.unwrap_or(20).clamp(1, 100));
    if let Some(cursor) = page.cursor {
        query = query.after(cursor.parse::<Cursor>()?);
    }
    let page = query.page::<Vec<Order>>().await?;
    let body = OrderPage {
        orders: page.items,
        next: page.cursor.map(|cursor| cursor.to_string()),
    };
    Ok(respond(StatusCode::OK, body, &capacity))
}

/// The body of `POST /customers/{id}/orders`.
#[derive(Deserialize)]
struct NewOrder {
    order_id: u64,
    placed: u32,
    total_cents: i64,
}

/// `POST /customers/{id}/orders`: the order and its id's claim, both or
/// neither: an id taken (by any customer) is 409.
async fn create_order(
    State(db): State<Db<Shop>>,
    Path(id): Path<u64>,
    Json(new): Json<NewOrder>,
) -> Answer {
    let (db, capacity) = metered(&db);
    let order = Order {
        customer_id: id,
        order_id: new.order_id,
        placed: new.placed,
        total_cents: new.total_cents,
    };
    db.transact()
        .create(&OrderIdClaim {
            order_id: new.order_id,
        })
        .create(&order)
        .await?;
    Ok(respond(StatusCode::CREATED, order, &capacity))
}

/// `GET /orders/{order_id}`: the one order with that id, through GSI1.
async fn order_by_id(State(db): State<Db<Shop>>, Path(order_id): Path<u64>) -> Answer {
    let (db, capacity) = metered(&db);
    let order: Option<Order> = db.query(Order::gsi1_partition(order_id)?).one().await?;
    match order {
        Some(order) => Ok(respond(StatusCode::OK, order, &capacity)),
        None => Err(ApiError::not_found(format!("no order {order_id}"))),
    }
}

/// An error answer: a status and `{"error": "…"}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn not_found(message: String) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
}

/// The library's errors as HTTP statuses, by its predicates. The client
/// gets a fixed sentence (no keys, no table names, no library text); the
/// whole error goes to the log.
impl From<ddb_entity::Error> for ApiError {
    fn from(err: ddb_entity::Error) -> Self {
        let (status, message) = if err.is_already_exists() {
            (StatusCode::CONFLICT, "it exists already")
        } else if err.is_version_conflict() {
            (
                StatusCode::PRECONDITION_FAILED,
                "it changed since you read it",
            )
        } else if err.is_not_found() {
            (StatusCode::NOT_FOUND, "not found")
        } else if err.is_item_too_large() {
            (StatusCode::PAYLOAD_TOO_LARGE, "it is too large to store")
        } else if err.is_misconfigured() {
            // Not transient: a 503 would hide it behind clients' retries.
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "the service is misconfigured",
            )
        } else if err.is_retryable() {
            (StatusCode::SERVICE_UNAVAILABLE, "try again later")
        } else {
            match err.kind() {
                ErrorKind::InvalidCursor => {
                    (StatusCode::BAD_REQUEST, "the cursor is not from this list")
                }
                ErrorKind::Key => (StatusCode::BAD_REQUEST, "a value cannot be used as an id"),
                _ => (StatusCode::INTERNAL_SERVER_ERROR, "internal error"),
            }
        };
        if status.is_server_error() {
            tracing::error!(error = %err, misconfigured = err.is_misconfigured(), "request failed");
        } else {
            tracing::info!(error = %err, status = status.as_u16(), "request refused");
        }
        ApiError::new(status, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (
            self.status,
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}
