// Misspelt projections, billing, capacities, typings and key types say
// what to write, each at the token written.

ddb_entity::table! {
    pub struct Keys {
        partition_key: "PK",
        indexes: { pub Gsi1 = "GSI1" { partition_key: "GSI1PK", projection: keys } },
    }
}

ddb_entity::table! {
    pub struct Include {
        partition_key: "PK",
        indexes: { pub Gsi2 = "GSI2" { partition_key: "GSI2PK", projection: include } },
    }
}

ddb_entity::table! {
    pub struct Provisioned {
        partition_key: "PK",
        billing: provisioned,
    }
}

ddb_entity::table! {
    pub struct Free {
        partition_key: "PK",
        billing: free,
    }
}

ddb_entity::table! {
    pub struct Capacity {
        partition_key: "PK",
        billing: provisioned { write: 5 },
    }
}

ddb_entity::table! {
    pub struct Typing {
        partition_key: "PK",
        typed_by: Keys,
    }
}

ddb_entity::table! {
    pub struct Multi {
        partition_key: "PK",
        multi_key_indexes: { pub ByRound = "ByRound" { partition_key: ["round": Number] } },
    }
}

fn main() {}
