use chrono::{DateTime, Utc};
use ddb_entity::key::IsoNanos;
use ddb_entity::Entity;
use serde::{Deserialize, Serialize};

ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }

// chrono writes `DateTime<Utc>` with as many fraction digits as it needs,
// so its stored text does not sort as time (`…00.5Z` < `…00Z`), and DynamoDB
// has no order on `BOOL`: a range on either is refused with what to store
// instead. Equality works on every type, and the fixed-width form takes
// ranges.
#[derive(Entity, Serialize, Deserialize)]
#[entity(table = App, pk = "DEVICE#{device}", sk = "EVENT#{id}")]
pub struct Event {
    pub device: u32,
    pub id: u64,
    pub at: DateTime<Utc>,
    pub fixed_at: IsoNanos,
    pub alarm: bool,
}

fn main() {
    let f = Event::fields();
    let t0 = DateTime::from_timestamp(1_750_000_000, 0).unwrap();
    let _fine = f.at.equals(t0).and(f.fixed_at.gt(IsoNanos(t0)));
    let _ = f.at.gt(t0);
    let _ = f.alarm.between(false, true);
}
