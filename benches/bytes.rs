//! From response bytes to typed entities: a Query response of a
//! customer's mixed collection (a profile, five addresses, 3,000 orders;
//! 0.72 MB of DynamoDB JSON in the declared format, key fields in the key),
//! served to a real `aws_sdk_dynamodb::Client` by a static HTTP client, so
//! no server is in the timing. In one run:
//!
//! - (a) the SDK alone: send and parse the body into `AttributeValue` maps;
//! - (b) today's full path through the SDK: the typed read
//!   `db.query(…).collect()` into a hand-written collection (which keeps
//!   the SDK's items: `push_item` hands each one to the derived view), so
//!   the SDK's parse, then the library's decode, type routing and
//!   stored-key verification, and the read's own bookkeeping;
//! - (b′) the SDK's parse, then `Collection::from_items` on its items
//!   (the decode, routing and verification alone);
//! - (c) the floor: a hand-written borrowed serde decode of the same bytes
//!   straight into the same typed rows (attribute strings borrowed from the
//!   body, keys parsed by hand) — what reading below the SDK could reach;
//! - (s) the SDK's send alone: the same request answered without items;
//! - (c') the floor through the SDK's public seam: a per-request
//!   interceptor (`customize().interceptor`) takes the successful
//!   response's body in `modify_before_deserialization` and hands the SDK
//!   a stub to parse, the bytes go to the floor's decode. What a bytes
//!   path costs beyond its own decoder, with the SDK still signing,
//!   retrying and parsing errors;
//! - (d) ours from the bytes: `db.query(…).collect()`, the typed read as it
//!   runs, decoding the entities from the response body through that seam.
//!
//! - (g) a get of one order through the SDK: its `AttributeValue` item
//!   decoded by `from_item`, as a typed get read it before it read the
//!   bytes; (gs) the same GetItem through the seam, its body taken and
//!   not decoded; (G) the typed get, decoded from the body.
//!
//! `BYTES_ROW=d BYTES_REPS=11 cargo bench --bench bytes` runs one row that
//! many times after the setup and exits, for instruction counts
//! (`valgrind --tool=callgrind` at two counts, the difference divided).
//!
//! The body is what the library itself writes for these entities (each
//! item from `Entity::to_item`), in DynamoDB's JSON wire format.
//!
//! `cargo bench --bench bytes`

use std::borrow::Cow;
use std::fmt;
use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodb::config::http::{HttpRequest, HttpResponse};
use aws_sdk_dynamodb::config::{
    BehaviorVersion, Credentials, HttpClient, Region, RuntimeComponents,
};
use aws_sdk_dynamodb::types::AttributeValue;
use aws_smithy_runtime_api::client::http::{
    HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_types::body::SdkBody;
use criterion::{Criterion, criterion_group, criterion_main};
use ddb_entity::{Collection, Db, Entity, Item, Table, UnknownItems};
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The bench table.
    pub struct App { partition_key: "PK", sort_key: "SK" }
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "PROFILE")]
struct Customer {
    customer_id: u64,
    name: String,
    email: String,
    tier: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
struct Address {
    customer_id: u64,
    seq: u16,
    street: String,
    city: String,
    postcode: String,
}

#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id}")]
struct Order {
    customer_id: u64,
    order_id: u64,
    placed: u32,
    total_cents: i64,
    status: String,
    currency: String,
    ship_city: String,
    item_count: u16,
    gift_note: Option<String>,
}

#[derive(Collection, Debug)]
struct CustomerView {
    customer: Option<Customer>,
    addresses: Vec<Address>,
    orders: Vec<Order>,
}

const CUSTOMER: u64 = 42;
const ORDERS: u64 = 3_000;

/// The collection as the library stores it.
fn items() -> Vec<Item> {
    let mut items = vec![
        Customer {
            customer_id: CUSTOMER,
            name: "Ada Lovelace".into(),
            email: "ada@example.com".into(),
            tier: "gold".into(),
        }
        .to_item()
        .unwrap(),
    ];
    for seq in 0..5 {
        let address = Address {
            customer_id: CUSTOMER,
            seq,
            street: format!("{} St James's Square", seq + 1),
            city: "London".into(),
            postcode: "SW1Y 4JU".into(),
        };
        items.push(address.to_item().unwrap());
    }
    for i in 0..ORDERS {
        let order = Order {
            customer_id: CUSTOMER,
            order_id: 9_000_000 + i,
            placed: 20_250_101 + (i as u32 % 28),
            total_cents: 1_000 + (i as i64 * 37) % 90_000,
            status: ["PLACED", "SHIPPED", "DELIVERED"][i as usize % 3].into(),
            currency: "GBP".into(),
            ship_city: ["London", "Manchester", "Edinburgh", "Cardiff"][i as usize % 4].into(),
            item_count: (i % 7) as u16 + 1,
            gift_note: (i % 5 == 0)
                .then(|| format!("Happy birthday, with love from all of us — order {i}")),
        };
        items.push(order.to_item().unwrap());
    }
    items
}

/// One attribute value in DynamoDB's JSON wire format.
fn write_value(value: &AttributeValue, out: &mut String) {
    let quoted = |s: &str| serde_json::to_string(s).unwrap();
    match value {
        AttributeValue::S(s) => out.push_str(&format!(r#"{{"S":{}}}"#, quoted(s))),
        AttributeValue::N(n) => out.push_str(&format!(r#"{{"N":{}}}"#, quoted(n))),
        AttributeValue::Bool(b) => out.push_str(&format!(r#"{{"BOOL":{b}}}"#)),
        AttributeValue::Null(_) => out.push_str(r#"{"NULL":true}"#),
        AttributeValue::Ss(v) | AttributeValue::Ns(v) => {
            let tag = if matches!(value, AttributeValue::Ss(_)) {
                "SS"
            } else {
                "NS"
            };
            let list: Vec<String> = v.iter().map(|s| quoted(s)).collect();
            out.push_str(&format!(r#"{{"{tag}":[{}]}}"#, list.join(",")));
        }
        AttributeValue::L(list) => {
            out.push_str(r#"{"L":["#);
            for (i, v) in list.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(v, out);
            }
            out.push_str("]}");
        }
        AttributeValue::M(map) => {
            out.push_str(r#"{"M":"#);
            write_item(map, out);
            out.push('}');
        }
        other => panic!("the bench's entities store no {other:?}"),
    }
}

fn write_item(item: &Item, out: &mut String) {
    out.push('{');
    for (i, (name, value)) in item.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(name).unwrap());
        out.push(':');
        write_value(value, out);
    }
    out.push('}');
}

/// The Query response body: every item, one page.
fn response_body(items: &[Item]) -> Vec<u8> {
    let mut out = String::from(r#"{"Count":"#);
    out.push_str(&format!(
        "{},\"ScannedCount\":{},\"Items\":[",
        items.len(),
        items.len()
    ));
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_item(item, &mut out);
    }
    out.push_str("]}");
    out.into_bytes()
}

/// An HTTP client that answers every request with the same body.
#[derive(Clone)]
struct Canned(bytes::Bytes);

impl fmt::Debug for Canned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Canned({} bytes)", self.0.len())
    }
}

impl HttpConnector for Canned {
    fn call(&self, _request: HttpRequest) -> HttpConnectorFuture {
        let mut response =
            HttpResponse::new(200.try_into().unwrap(), SdkBody::from(self.0.clone()));
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _: &HttpConnectorSettings,
        _: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

fn client(body: Vec<u8>) -> aws_sdk_dynamodb::Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("bench", "bench", None, None, "bench"))
        .endpoint_url("http://localhost:1")
        .http_client(Canned(body.into()))
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}

// The floor: DynamoDB JSON decoded straight from the bytes, by hand.

/// One attribute value, its text borrowed from the body where it has no
/// escapes.
enum Value<'a> {
    S(Cow<'a, str>),
    N(Cow<'a, str>),
    Other,
}

impl<'de> Deserialize<'de> for Value<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an attribute value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value<'de>, A::Error> {
                let tag: Cow<'de, str> = map
                    .next_key()?
                    .ok_or_else(|| de::Error::custom("empty value"))?;
                let value = match &*tag {
                    "S" => Value::S(map.next_value::<Borrowed<'de>>()?.0),
                    "N" => Value::N(map.next_value::<Borrowed<'de>>()?.0),
                    _ => {
                        map.next_value::<IgnoredAny>()?;
                        Value::Other
                    }
                };
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(value)
            }
        }
        d.deserialize_map(V)
    }
}

/// A string borrowed from the body when it has no escapes.
struct Borrowed<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Borrowed<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Borrowed<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Borrowed<'de>, E> {
                Ok(Borrowed(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Borrowed<'de>, E> {
                Ok(Borrowed(Cow::Owned(s.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// One item: its attributes in the body's order.
struct RawItem<'a>(Vec<(Cow<'a, str>, Value<'a>)>);

impl<'de> Deserialize<'de> for RawItem<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawItem<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an item")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawItem<'de>, A::Error> {
                let mut attributes = Vec::with_capacity(map.size_hint().unwrap_or(12));
                while let Some(name) = map.next_key::<Borrowed<'de>>()? {
                    attributes.push((name.0, map.next_value()?));
                }
                Ok(RawItem(attributes))
            }
        }
        d.deserialize_map(V)
    }
}

/// The response: its items decoded one by one into the view.
struct FloorPage(CustomerView);

impl<'de> Deserialize<'de> for FloorPage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Items;
        impl<'de> Visitor<'de> for Items {
            type Value = CustomerView;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CustomerView, A::Error> {
                let mut view = CustomerView::default();
                while let Some(item) = seq.next_element::<RawItem<'de>>()? {
                    route(item, &mut view)
                        .ok_or_else(|| de::Error::custom("an item of no known shape"))?;
                }
                Ok(view)
            }
        }
        struct ItemsSeed;
        impl<'de> de::DeserializeSeed<'de> for ItemsSeed {
            type Value = CustomerView;
            fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<CustomerView, D::Error> {
                d.deserialize_seq(Items)
            }
        }
        struct Page;
        impl<'de> Visitor<'de> for Page {
            type Value = FloorPage;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Query response")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FloorPage, A::Error> {
                let mut view = None;
                while let Some(key) = map.next_key::<Borrowed<'de>>()? {
                    if key.0 == "Items" {
                        view = Some(map.next_value_seed(ItemsSeed)?);
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(FloorPage(view.unwrap_or_default()))
            }
        }
        d.deserialize_map(Page)
    }
}

/// The attributes of one item a hand-written decoder looks at.
#[derive(Default)]
struct Fields<'i, 'a> {
    tag: Option<&'i str>,
    pk: Option<&'i str>,
    sk: Option<&'i str>,
    s: Vec<(&'i str, &'i Cow<'a, str>)>,
    n: Vec<(&'i str, &'i Cow<'a, str>)>,
}

impl Fields<'_, '_> {
    fn s(&self, name: &str) -> Option<String> {
        self.s
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.to_string())
    }
    fn n<T: std::str::FromStr>(&self, name: &str) -> Option<T> {
        self.n.iter().find(|(n, _)| *n == name)?.1.parse().ok()
    }
}

/// The key's fields parsed from the key strings (whether or not the item
/// also carries them as attributes), the rest from the attributes.
fn route(item: RawItem<'_>, view: &mut CustomerView) -> Option<()> {
    let schema = &App::SCHEMA;
    let mut f = Fields::default();
    for (name, value) in &item.0 {
        match value {
            Value::S(s) if name == schema.type_attribute => f.tag = Some(s),
            Value::S(s) if name == "PK" => f.pk = Some(s),
            Value::S(s) if name == "SK" => f.sk = Some(s),
            Value::S(s) => f.s.push((name, s)),
            Value::N(n) => f.n.push((name, n)),
            Value::Other => {}
        }
    }
    let customer_id = f.pk?.strip_prefix("CUST#")?.parse().ok()?;
    let sk = f.sk?;
    match f.tag? {
        tag if tag == Customer::TYPE_TAG => {
            view.customer = Some(Customer {
                customer_id,
                name: f.s("name")?,
                email: f.s("email")?,
                tier: f.s("tier")?,
            })
        }
        tag if tag == Address::TYPE_TAG => view.addresses.push(Address {
            customer_id,
            seq: sk.strip_prefix("ADDR#")?.parse().ok()?,
            street: f.s("street")?,
            city: f.s("city")?,
            postcode: f.s("postcode")?,
        }),
        tag if tag == Order::TYPE_TAG => {
            let (placed, order_id) = sk.strip_prefix("ORDER#")?.split_once('#')?;
            view.orders.push(Order {
                customer_id,
                order_id: order_id.parse().ok()?,
                placed: placed.parse().ok()?,
                total_cents: f.n("total_cents")?,
                status: f.s("status")?,
                currency: f.s("currency")?,
                ship_city: f.s("ship_city")?,
                item_count: f.n("item_count")?,
                gift_note: f.s("gift_note"),
            })
        }
        _ => {}
    }
    Some(())
}

fn floor(body: &[u8]) -> CustomerView {
    serde_json::from_slice::<FloorPage>(body).unwrap().0
}

/// The SDK's seam for reading a response's bytes: an interceptor of one
/// request that, on a successful response, wraps the body before the SDK
/// reads it; once read, the bytes go to `slot` and the SDK is handed a
/// stub (`{}`) to parse. Errors are left to the SDK.
mod seam {
    use std::pin::Pin;
    use std::sync::{Arc, Mutex};
    use std::task::{Context, Poll};

    use aws_smithy_runtime_api::box_error::BoxError;
    use aws_smithy_runtime_api::client::interceptors::Intercept;
    use aws_smithy_runtime_api::client::interceptors::context::BeforeDeserializationInterceptorContextMut;
    use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
    use aws_smithy_types::body::SdkBody;
    use aws_smithy_types::config_bag::ConfigBag;
    use bytes::{Bytes, BytesMut};
    use http_body::{Body, Frame};

    /// Where the body of the request's successful response goes.
    pub(crate) type Slot = Arc<Mutex<Option<Bytes>>>;

    /// The interceptor.
    #[derive(Debug)]
    pub(crate) struct Capture(pub(crate) Slot);

    impl Intercept for Capture {
        fn name(&self) -> &'static str {
            "capture the response body"
        }

        fn modify_before_deserialization(
            &self,
            context: &mut BeforeDeserializationInterceptorContextMut<'_>,
            _: &RuntimeComponents,
            _: &mut ConfigBag,
        ) -> Result<(), BoxError> {
            if !context.response().status().is_success() {
                return Ok(());
            }
            let body = std::mem::replace(context.response_mut().body_mut(), SdkBody::taken());
            *context.response_mut().body_mut() = SdkBody::from_body_1_x(Tap {
                inner: body,
                read: BytesMut::new(),
                slot: self.0.clone(),
                done: false,
            });
            Ok(())
        }
    }

    /// The body as the SDK reads it: the real one, collected, then the stub.
    struct Tap {
        inner: SdkBody,
        read: BytesMut,
        slot: Slot,
        done: bool,
    }

    impl Body for Tap {
        type Data = Bytes;
        type Error = BoxError;

        fn poll_frame(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
            let this = &mut *self;
            if this.done {
                return Poll::Ready(None);
            }
            loop {
                match Pin::new(&mut this.inner).poll_frame(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Some(Ok(frame))) => {
                        if let Ok(data) = frame.into_data() {
                            this.read.extend_from_slice(&data);
                        }
                    }
                    Poll::Ready(Some(Err(err))) => return Poll::Ready(Some(Err(err))),
                    Poll::Ready(None) => {
                        this.done = true;
                        let read = std::mem::take(&mut this.read).freeze();
                        *this.slot.lock().unwrap() = Some(read);
                        return Poll::Ready(Some(Ok(Frame::data(Bytes::from_static(b"{}")))));
                    }
                }
            }
        }
    }
}

/// The Query every row sends.
fn query(
    client: &aws_sdk_dynamodb::Client,
) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    client
        .query()
        .table_name("app")
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("CUST#42".into()))
}

/// (b): the typed read into a hand-written collection: the SDK's items,
/// as every typed read took them before it read the bytes.
#[derive(Default)]
struct SdkView(CustomerView);

impl Collection for SdkView {
    type Table = App;
    const NAME: &'static str = "SdkView";
    const TYPES: &'static [&'static str] = CustomerView::TYPES;
    const MEMBERS: &'static [ddb_entity::Member] = CustomerView::MEMBERS;

    fn push_item(&mut self, entity_type: &str, item: Item) -> ddb_entity::Result<bool> {
        self.0.push_item(entity_type, item)
    }
}

async fn sdk_read(db: &Db<App>) -> CustomerView {
    db.query(Customer::partition(CUSTOMER).unwrap())
        .collect::<SdkView>()
        .await
        .unwrap()
        .0
}

/// (b′): the SDK's items, decoded, routed and verified by the library.
async fn through_sdk(client: &aws_sdk_dynamodb::Client) -> CustomerView {
    let out = query(client).send().await.unwrap();
    CustomerView::from_items(out.items.unwrap_or_default(), UnknownItems::Error).unwrap()
}

/// (d): the typed read.
async fn typed_read(db: &Db<App>) -> CustomerView {
    db.query(Customer::partition(CUSTOMER).unwrap())
        .collect()
        .await
        .unwrap()
}

/// (c'): the floor's decode of the bytes the seam took.
async fn through_seam(client: &aws_sdk_dynamodb::Client) -> CustomerView {
    let slot = seam::Slot::default();
    let out = query(client)
        .customize()
        .interceptor(seam::Capture(slot.clone()))
        .send()
        .await
        .unwrap();
    assert!(out.items().is_empty(), "the SDK parsed the stub");
    let body = slot.lock().unwrap().take().expect("a successful response");
    floor(&body)
}

fn bytes_to_entities(c: &mut Criterion) {
    let items = items();
    let body = response_body(&items);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = client(body.clone());
    let db = Db::<App>::new(client.clone(), "app");

    // Every path reads the same view.
    let sdk = runtime.block_on(async { query(&client).send().await.unwrap() });
    assert_eq!(sdk.items().len(), items.len());
    // The same request answered without items: the SDK's own cost.
    let stub = self::client(format!(r#"{{"Count":{0},"ScannedCount":{0}}}"#, items.len()).into());
    let seamed = runtime.block_on(through_seam(&client));
    assert_eq!(seamed.orders, floor(&body).orders);
    let ours: CustomerView = runtime
        .block_on(db.query(Customer::partition(CUSTOMER).unwrap()).collect())
        .unwrap();
    let hand = floor(&body);
    assert_eq!(ours.customer, hand.customer);
    assert_eq!(ours.addresses, hand.addresses);
    assert_eq!(ours.orders, hand.orders);
    assert_eq!(ours.orders.len(), ORDERS as usize);

    let sdk_path = runtime.block_on(through_sdk(&client));
    assert_eq!(sdk_path.orders, hand.orders);
    assert_eq!(sdk_path.addresses, hand.addresses);
    let sdk_read_path = runtime.block_on(sdk_read(&db));
    assert_eq!(sdk_read_path.orders, hand.orders);
    assert_eq!(sdk_read_path.addresses, hand.addresses);

    // A get of one order: a GetItem answer of its item, read (g) as the
    // SDK's item decoded by `from_item`, as a typed get read it before,
    // and (G) by the typed get, from the bytes.
    let order = items
        .iter()
        .find(|item| item["SK"].as_s().is_ok_and(|sk| sk.starts_with("ORDER#")))
        .unwrap();
    let mut get_body = String::from(r#"{"Item":"#);
    write_item(order, &mut get_body);
    get_body.push_str(r#","ConsumedCapacity":{"TableName":"app","CapacityUnits":0.5}}"#);
    let get_client = self::client(get_body.into_bytes());
    let get_db = Db::<App>::new(get_client.clone(), "app");
    let get_key = || {
        let order = Order::from_item(order.clone()).unwrap();
        Order::key(order.customer_id, order.placed, order.order_id).unwrap()
    };
    let sdk_get = || async {
        let key = get_key();
        let out = get_client
            .get_item()
            .table_name("app")
            .set_key(Some(key.to_attributes()))
            .send()
            .await
            .unwrap();
        Order::from_item(out.item.unwrap()).unwrap()
    };
    let typed_get = || async { get_db.get(get_key()).await.unwrap().unwrap() };
    // The same GetItem with the seam's interceptor, its body taken and
    // not decoded: what the seam costs a request.
    let seam_get = || async {
        let slot = seam::Slot::default();
        get_client
            .get_item()
            .table_name("app")
            .set_key(Some(get_key().to_attributes()))
            .customize()
            .interceptor(seam::Capture(slot.clone()))
            .send()
            .await
            .unwrap();
        let body = slot.lock().unwrap().take().expect("a successful response");
        body.len()
    };
    assert_eq!(runtime.block_on(sdk_get()), runtime.block_on(typed_get()));

    // One row, many times, for instruction counts.
    if let (Ok(row), Ok(reps)) = (std::env::var("BYTES_ROW"), std::env::var("BYTES_REPS")) {
        let reps: usize = reps.parse().expect("BYTES_REPS is a count");
        for _ in 0..reps {
            let n =
                match row.as_str() {
                    "a" => runtime
                        .block_on(async { query(&client).send().await.unwrap().items().len() }),
                    "b" => runtime.block_on(sdk_read(&db)).orders.len(),
                    "b'" => runtime.block_on(through_sdk(&client)).orders.len(),
                    "c" => floor(black_box(&body)).orders.len(),
                    "s" => runtime
                        .block_on(async { query(&stub).send().await.unwrap().count() as usize }),
                    "c'" => runtime.block_on(through_seam(&client)).orders.len(),
                    "d" => runtime.block_on(typed_read(&db)).orders.len(),
                    "g" => runtime.block_on(sdk_get()).item_count.into(),
                    "G" => runtime.block_on(typed_get()).item_count.into(),
                    "gs" => runtime.block_on(seam_get()),
                    other => panic!("no row {other}"),
                };
            black_box(n);
        }
        std::process::exit(0);
    }

    let mut group = c.benchmark_group(format!(
        "a {:.2} MB Query response of {} mixed items",
        body.len() as f64 / 1e6,
        items.len()
    ));
    group
        .sample_size(15)
        .measurement_time(Duration::from_secs(8));
    group.bench_function(
        "(a) the SDK: send and parse into AttributeValue maps",
        |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let out = query(&client).send().await.unwrap();
                    black_box(out.items().len())
                })
            })
        },
    );
    group.bench_function(
        "(b) today's full path: the typed read through the SDK's items",
        |b| b.iter(|| black_box(runtime.block_on(sdk_read(&db)).orders.len())),
    );
    group.bench_function("(b') the SDK's parse, then Collection::from_items", |b| {
        b.iter(|| black_box(runtime.block_on(through_sdk(&client)).orders.len()))
    });
    group.bench_function(
        "(c) the floor: hand-written borrowed serde decode of the bytes",
        |b| b.iter(|| black_box(floor(black_box(&body)).orders.len())),
    );
    group.bench_function("(s) the SDK's send alone: no items in the answer", |b| {
        b.iter(|| runtime.block_on(async { black_box(query(&stub).send().await.unwrap().count()) }))
    });
    group.bench_function(
        "(c') the floor through the SDK's seam: the body taken by an interceptor",
        |b| b.iter(|| black_box(runtime.block_on(through_seam(&client)).orders.len())),
    );
    group.bench_function(
        "(d) ours from the bytes: the typed read, decoded from the body",
        |b| b.iter(|| black_box(runtime.block_on(typed_read(&db)).orders.len())),
    );
    group.finish();

    let mut group = c.benchmark_group("a get of one order");
    group.bench_function("(g) the SDK's item, then from_item", |b| {
        b.iter(|| black_box(runtime.block_on(sdk_get()).item_count))
    });
    group.bench_function("(gs) the same GetItem through the seam, not decoded", |b| {
        b.iter(|| black_box(runtime.block_on(seam_get())))
    });
    group.bench_function("(G) the typed get, decoded from the body", |b| {
        b.iter(|| black_box(runtime.block_on(typed_get()).item_count))
    });
    group.finish();
}

criterion_group!(benches, bytes_to_entities);
criterion_main!(benches);
