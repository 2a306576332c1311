//! Generated code for the newer template shapes compiles without warnings
//! next to names that shadow the prelude: a leading `#`, partial segments,
//! raw key attributes on a table without a sort key, computed index keys
//! and membership.
#![deny(warnings, missing_docs)]

use ddb_entity::{Entity, KeyPart};
use serde::{Deserialize, Serialize};

/// Shadows the prelude: generated code must use absolute paths.
#[allow(dead_code)]
struct Option;
/// Shadows the prelude.
#[allow(dead_code)]
struct String;

ddb_entity::table! {
    /// The table.
    pub struct App {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Overloaded index.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
        },
    }
}

ddb_entity::table! {
    /// Sessions, by token alone.
    pub struct Sessions {
        partition_key: "token",
        indexes: {
            /// By user.
            pub ByUser = "ByUser" { partition_key: "user" },
        },
    }
}

/// A unit enum key part.
#[derive(KeyPart, Serialize, Deserialize, Clone, Copy, PartialEq, Debug)]
pub enum Kind {
    /// A heart.
    Heart,
    /// A laugh.
    Laugh,
}

/// Partial segments, a leading `#`, a computed key and a predicate.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = App, pk = "ISSUE#{number}", sk = "#{kind}REACT#{at}-{user}", type = "REACTION")]
#[entity(computed = shout: std::string::String = Reaction::shout(user))]
#[entity(index = Gsi1, pk = "U#{shout}", sk = "N{number}", when = Reaction::counts(kind))]
pub struct Reaction {
    /// The issue.
    pub number: u32,
    /// The kind.
    pub kind: Kind,
    /// When.
    pub at: u64,
    /// Who.
    pub user: std::string::String,
}

impl Reaction {
    fn shout(user: &str) -> std::string::String {
        user.to_uppercase()
    }

    fn counts(kind: &Kind) -> bool {
        *kind == Kind::Heart
    }
}

/// A session: raw key attributes on a table without a sort key.
#[derive(Entity, Serialize, Deserialize, Debug)]
#[entity(table = Sessions, pk = token, type = "SESSION")]
#[entity(index = ByUser, pk = user)]
pub struct Session {
    /// The token.
    pub token: std::string::String,
    /// The user.
    pub user: core::option::Option<std::string::String>,
}

pub(crate) fn main() -> ddb_entity::Result<()> {
    let reaction = Reaction {
        number: 7,
        kind: Kind::Heart,
        at: 1,
        user: "ann".into(),
    };
    assert_eq!(
        reaction.primary_key()?.sort(),
        "#HeartREACT#00000000000000000001-ann"
    );
    let _ = Reaction::gsi1_partition("ANN")?;
    let _ = Reaction::sk().kind(Kind::Laugh).at(2u64);
    let session = Session {
        token: "t".into(),
        user: core::option::Option::None,
    };
    assert_eq!(session.primary_key()?.partition(), "t");
    assert_eq!(session.index_entries()?[0].key, core::option::Option::None);
    let _ = Session::by_user_partition("ann")?;
    Ok(())
}
