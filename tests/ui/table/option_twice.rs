// An option given twice is one error at the second, and the first stays;
// a table without a partition key says how to declare it.
ddb_entity::table! {
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        partition_key: "pk",
    }
}

ddb_entity::table! {
    pub struct Keyless {
        sort_key: "SK",
    }
}

fn main() {
    use ddb_entity::Table;
    assert_eq!(App::SCHEMA.primary.partition_key, "PK");
    let _ = Keyless::SCHEMA;
}
