//! The service over real HTTP: started on 127.0.0.1:0 with the embedded
//! DynamoDB (or `DDB_ENDPOINT`), called with a tiny HTTP/1.1 client.

use std::collections::HashMap;
use std::net::SocketAddr;

use ddb_entity::local::LocalDynamo;
use ddb_entity::{CursorSeal, Db};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use crate::app;

/// The service, running until the test ends.
struct Service {
    addr: SocketAddr,
    _dynamo: LocalDynamo,
}

async fn start() -> Service {
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<app::Shop>::new(dynamo.client(), dynamo.unique_table_name("service"))
        .with_cursor_seal(CursorSeal::new(1, [9; 32]));
    db.create_table_if_missing().await.unwrap();
    serve(db, dynamo).await
}

async fn serve(db: Db<app::Shop>, dynamo: LocalDynamo) -> Service {
    let listener = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app::router(db)).await });
    Service {
        addr,
        _dynamo: dynamo,
    }
}

/// An HTTP answer.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: HashMap<String, String>,
    body: Value,
}

impl Answer {
    fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    /// DynamoDB requests the call cost, as the service reports them.
    fn ddb_requests(&self) -> u32 {
        self.header("x-ddb-requests").parse().unwrap()
    }
}

impl Service {
    /// One HTTP/1.1 request on its own connection.
    async fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<Value>,
    ) -> Answer {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Length: {}\r\n",
            self.addr,
            body.len()
        );
        if !body.is_empty() {
            request.push_str("Content-Type: application/json\r\n");
        }
        for (name, value) in headers {
            request.push_str(&format!("{name}: {value}\r\n"));
        }
        request.push_str("\r\n");
        request.push_str(&body);
        let mut stream = TcpStream::connect(self.addr).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await.unwrap();
        parse(&raw)
    }

    async fn get(&self, path: &str) -> Answer {
        self.call("GET", path, &[], None).await
    }

    async fn post(&self, path: &str, body: Value) -> Answer {
        self.call("POST", path, &[], Some(body)).await
    }
}

/// Status, headers (lower-case names) and JSON body of a response, its
/// body sent whole or chunked.
fn parse(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: HashMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let body = if headers
        .get("transfer-encoding")
        .is_some_and(|v| v == "chunked")
    {
        let mut out = String::new();
        let mut rest = body;
        while let Some((size, tail)) = rest.split_once("\r\n") {
            let size = usize::from_str_radix(size.trim(), 16).unwrap();
            if size == 0 {
                break;
            }
            out.push_str(&tail[..size]);
            rest = &tail[size + 2..];
        }
        out
    } else {
        body.to_owned()
    };
    let body = if body.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&body).unwrap_or(Value::String(body))
    };
    Answer {
        status,
        headers,
        body,
    }
}

async fn customer(service: &Service, id: u64) -> Answer {
    service
        .post(
            "/customers",
            json!({ "customer_id": id, "name": "Ada", "email": "ada@example.com" }),
        )
        .await
}

#[tokio::test]
async fn the_customer_page_is_one_query_and_a_taken_id_is_409() {
    let service = start().await;
    let created = customer(&service, 42).await;
    assert_eq!(created.status, 201, "{created:?}");
    assert_eq!(created.header("etag"), "\"1\"");
    assert_eq!(created.header("location"), "/customers/42");
    assert_eq!(created.ddb_requests(), 1);

    let again = customer(&service, 42).await;
    assert_eq!(again.status, 409, "{again:?}");
    // A fixed sentence for the client: no key, no library text.
    assert_eq!(again.body, json!({"error": "it exists already"}));

    for (order_id, placed) in [(1, 20260301), (2, 20260314), (3, 20260402)] {
        let order = service
            .post(
                "/customers/42/orders",
                json!({ "order_id": order_id, "placed": placed, "total_cents": 100 * order_id }),
            )
            .await;
        assert_eq!(order.status, 201, "{order:?}");
    }

    let page = service.get("/customers/42").await;
    assert_eq!(page.status, 200, "{page:?}");
    assert_eq!(page.ddb_requests(), 1, "the composite view is ONE Query");
    assert_eq!(page.body["customer"]["name"], "Ada");
    let orders: Vec<u64> = page.body["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["order_id"].as_u64().unwrap())
        .collect();
    assert_eq!(orders, [3, 2, 1], "newest first");
    assert_eq!(page.header("etag"), "\"1\"");

    let missing = service.get("/customers/7").await;
    assert_eq!(missing.status, 404);
    let by_id = service.get("/orders/2").await;
    assert_eq!(
        (by_id.status, by_id.body["customer_id"].as_u64()),
        (200, Some(42))
    );
    assert_eq!(service.get("/orders/99").await.status, 404);
}

#[tokio::test]
async fn an_update_applies_over_the_version_read_and_a_stale_one_is_412() {
    let service = start().await;
    customer(&service, 1).await;
    let read = service.get("/customers/1").await;
    let etag = read.header("etag").to_owned();

    let change = |name: &str| json!({ "name": name, "email": "ada@example.com" });
    let updated = service
        .call(
            "PUT",
            "/customers/1",
            &[("If-Match", &etag)],
            Some(change("Ada L.")),
        )
        .await;
    assert_eq!(updated.status, 200, "{updated:?}");
    assert_eq!(updated.header("etag"), "\"2\"");
    assert_eq!(updated.body["name"], "Ada L.");

    // A second writer with the same, now stale, ETag.
    let stale = service
        .call(
            "PUT",
            "/customers/1",
            &[("If-Match", &etag)],
            Some(change("Grace")),
        )
        .await;
    assert_eq!(stale.status, 412, "{stale:?}");
    assert_eq!(
        service.get("/customers/1").await.body["customer"]["name"],
        "Ada L."
    );

    let unconditional = service
        .call("PUT", "/customers/1", &[], Some(change("Grace")))
        .await;
    assert_eq!(unconditional.status, 428);
    let nobody = service
        .call(
            "PUT",
            "/customers/9",
            &[("If-Match", "\"1\"")],
            Some(change("X")),
        )
        .await;
    assert_eq!(nobody.status, 404, "{nobody:?}");
}

#[tokio::test]
async fn orders_are_listed_page_by_page_with_the_cursor_as_a_query_parameter() {
    let service = start().await;
    customer(&service, 5).await;
    for order_id in 1..=5u64 {
        service
            .post(
                "/customers/5/orders",
                json!({ "order_id": order_id, "placed": 20260300 + order_id, "total_cents": 1 }),
            )
            .await;
    }
    let mut seen = Vec::new();
    let mut path = "/customers/5/orders?limit=2".to_owned();
    let mut pages = 0;
    loop {
        let page = service.get(&path).await;
        assert_eq!(page.status, 200, "{page:?}");
        assert_eq!(page.ddb_requests(), 1, "a page is one request");
        pages += 1;
        seen.extend(
            page.body["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["order_id"].as_u64().unwrap()),
        );
        match page.body["next"].as_str() {
            Some(next) => path = format!("/customers/5/orders?limit=2&cursor={next}"),
            None => break,
        }
    }
    assert_eq!(seen, [1, 2, 3, 4, 5]);
    assert!(pages >= 3);

    // A cursor of another customer's list, or made up, is 400.
    let first = service.get("/customers/5/orders?limit=1").await;
    let cursor = first.body["next"].as_str().unwrap();
    let other = service
        .get(&format!("/customers/6/orders?cursor={cursor}"))
        .await;
    assert_eq!(other.status, 400, "{other:?}");
    assert_eq!(
        service.get("/customers/5/orders?cursor=nope").await.status,
        400
    );
}

#[tokio::test]
async fn an_order_id_posted_under_two_customers_is_409_and_stays_findable() {
    let service = start().await;
    let order = json!({"order_id": 77, "placed": 20260301, "total_cents": 500});
    assert_eq!(
        service
            .post("/customers/1/orders", order.clone())
            .await
            .status,
        201
    );
    let again = service.post("/customers/2/orders", order).await;
    assert_eq!(again.status, 409, "{again:?}");
    let found = service.get("/orders/77").await;
    assert_eq!((found.status, &found.body["customer_id"]), (200, &json!(1)));
}

#[tokio::test]
async fn forged_cursors_and_bad_input_are_400_with_client_safe_bodies() {
    let service = start().await;
    for order_id in 1..=3 {
        let order = json!({"order_id": 100 + order_id, "placed": 20260301, "total_cents": 1});
        assert_eq!(service.post("/customers/8/orders", order).await.status, 201);
    }
    let first = service.get("/customers/8/orders?limit=1").await;
    let cursor = first.body["next"].as_str().unwrap().to_owned();
    // Sealed: nothing of the customer's keys is readable in it.
    assert!(
        cursor.starts_with("s1.") && !cursor.contains("CUST"),
        "{cursor}"
    );
    // One character changed is refused, with a body that names no key.
    let mut forged = cursor.into_bytes();
    let last = forged.len() - 1;
    forged[last] = if forged[last] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    let refused = service
        .get(&format!("/customers/8/orders?cursor={forged}"))
        .await;
    assert_eq!(refused.status, 400, "{refused:?}");
    assert_eq!(
        refused.body,
        json!({"error": "the cursor is not from this list"})
    );
    // A cursor of another customer's listing, and text that is no cursor
    // at all, are refused alike.
    let order = json!({"order_id": 200, "placed": 20260301, "total_cents": 1});
    assert_eq!(
        service
            .post("/customers/9/orders", order.clone())
            .await
            .status,
        201
    );
    let order = json!({"order_id": 201, "placed": 20260302, "total_cents": 1});
    assert_eq!(service.post("/customers/9/orders", order).await.status, 201);
    let other = service.get("/customers/9/orders?limit=1").await;
    let other = other.body["next"].as_str().unwrap().to_owned();
    for cursor in [other.as_str(), "x", "s1.", "s9.AAAA"] {
        let refused = service
            .get(&format!("/customers/8/orders?cursor={cursor}"))
            .await;
        assert_eq!(
            (refused.status, &refused.body),
            (400, &json!({"error": "the cursor is not from this list"})),
            "{cursor}"
        );
    }
    // Input axum refuses before any handler: not a 500 either.
    assert_eq!(service.get("/customers/not-a-number").await.status, 400);
    assert_eq!(
        service.get("/customers/8/orders?limit=many").await.status,
        400
    );
    let bad = service
        .post("/customers", json!({"customer_id": "x"}))
        .await;
    assert!(bad.status == 400 || bad.status == 422, "{bad:?}");
}

/// Every input a client controls, at its edge: none reaches a 500, and
/// no body carries a key, a table name or the library's text.
#[tokio::test]
async fn no_input_reaches_a_500() {
    let service = start().await;
    assert_eq!(customer(&service, 5).await.status, 201);
    let long = "x".repeat(300_000); // under axum's 2 MB body limit
    let put = |body: Value, etag: &'static str| {
        let service = &service;
        async move {
            service
                .call("PUT", "/customers/5", &[("If-Match", etag)], Some(body))
                .await
        }
    };
    let answers = [
        // Text too long for a field, on create and on update.
        service
            .post("/customers", json!({"customer_id": 6, "name": long, "email": "e"}))
            .await,
        put(json!({"name": long, "email": "e"}), "\"1\"").await,
        // Versions that cannot be: none stored, and one that cannot grow.
        put(json!({"name": "A", "email": "e"}), "\"0\"").await,
        put(json!({"name": "A", "email": "e"}), "\"18446744073709551615\"").await,
        put(json!({"name": "A", "email": "e"}), "\"-1\"").await,
        // Ids at the ends of their range, and no such customer.
        service.get("/customers/18446744073709551615").await,
        service.get("/customers/0").await,
        service
            .call("PUT", "/customers/7", &[("If-Match", "\"1\"")], Some(json!({"name": "A", "email": "e"})))
            .await,
        service
            .post("/customers/18446744073709551615/orders", json!({"order_id": 18446744073709551615u64, "placed": 4294967295u32, "total_cents": i64::MIN}))
            .await,
        service.get("/orders/18446744073709551615").await,
        service.get("/orders/0").await,
        service.get("/customers/5/orders?limit=0").await,
        service.get("/customers/5/orders?limit=18446744073709551616").await,
        service.get(&format!("/customers/5/orders?cursor={}", "A".repeat(4000))).await,
        service.post("/customers", json!([])).await,
    ];
    for answer in &answers {
        assert!(answer.status < 500, "{answer:?}");
        let body = answer.body.to_string();
        assert!(
            !body.contains("CUST#") && !body.contains("service-") && !body.contains("Exception"),
            "{body}"
        );
    }
    let statuses: Vec<u16> = answers.iter().map(|a| a.status).collect();
    assert_eq!(&statuses[..5], [400, 400, 412, 412, 400], "{answers:?}");
    assert_eq!(
        answers[0].body,
        json!({"error": "name is longer than 256 bytes"})
    );
    assert_eq!(&statuses[5..8], [404, 404, 404]);
    assert_eq!(statuses[8], 201, "{:?}", answers[8]);
    assert_eq!(answers[9].status, 200);
}

#[tokio::test]
async fn a_dead_endpoint_is_503_within_the_timeouts() {
    use std::time::Duration;
    // A DynamoDB endpoint that accepts connections and never answers.
    let dead = TcpListener::bind(("127.0.0.1", 0)).await.unwrap();
    let endpoint = format!("http://{}", dead.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = dead.accept().await {
            held.push(socket);
        }
    });
    let loader = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .region(aws_config::Region::new("us-east-1"))
        .credentials_provider(aws_sdk_dynamodb::config::Credentials::new(
            "test", "test", None, None, "test",
        ))
        .endpoint_url(endpoint);
    let client = ddb_entity::client::ClientOptions::default()
        .attempt_timeout(Duration::from_millis(300))
        .operation_timeout(Duration::from_secs(1))
        .load_from(loader)
        .await
        .unwrap();
    let dynamo = LocalDynamo::start().await.unwrap();
    let service = serve(Db::<app::Shop>::new(client, "shop"), dynamo).await;
    let answer = service.get("/customers/1").await;
    assert_eq!(answer.status, 503, "{answer:?}");
    assert_eq!(answer.body, json!({"error": "try again later"}));
}

#[test]
fn the_log_level_is_one_name_from_rust_log() {
    use tracing_subscriber::filter::LevelFilter;
    assert_eq!(super::log_level(None).unwrap(), LevelFilter::INFO);
    assert_eq!(super::log_level(Some("debug")).unwrap(), LevelFilter::DEBUG);
    assert_eq!(super::log_level(Some("off")).unwrap(), LevelFilter::OFF);
    let refused = super::log_level(Some("ddb_entity=debug")).unwrap_err();
    assert!(refused.to_string().contains("give one level"), "{refused}");
}
