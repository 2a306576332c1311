//! GitHub's data model as a single table (after Alex DeBrie's classic
//! design): accounts (users and organizations share one namespace),
//! repositories with their issues, comments, reactions, stars and forks.
//!
//! | item | PK | SK | index entries |
//! |---|---|---|---|
//! | `User` | `ACCOUNT#{username}` | `ACCOUNT` | GSI1 `EMAIL#{email}` |
//! | `Org` | `ACCOUNT#{name}` | `ACCOUNT` | |
//! | `Membership` | `ACCOUNT#{org}` | `MEMBER#{username}` | GSI2 `MEMBER_OF#{username}` |
//! | `Repo` | `REPO#{owner}#{name}` | `REPO` | GSI2 `OWNER#{owner}`, GSI3 (forks only) `FORKS#{fork_of…}` |
//! | `Issue` | `REPO#{owner}#{repo}` | `ISSUE#{number:8}` | GSI1 `ISSUE#{owner}#{repo}#{number:8}` |
//! | `Comment` | `ISSUE#{owner}#{repo}#{issue:8}` | `COMMENT#{id:12}` | GSI1 as its issue |
//! | `Reaction` | `REACTION#{owner}#{repo}#{issue:8}#{user}` | `REACTION#{kind}` | |
//! | `Star` | `REPO#{owner}#{repo}` | `STAR#{user}` | GSI2 `STARS#{user}` |

use std::collections::HashMap;

use ddb_entity::{Collection, Entity, KeyPart, Set};
use serde::{Deserialize, Serialize};

ddb_entity::table! {
    /// The whole of GitHub in one table.
    pub struct GitHub {
        partition_key: "PK",
        sort_key: "SK",
        indexes: {
            /// Users by email; an issue with its comments.
            pub Gsi1 = "GSI1" { partition_key: "GSI1PK", sort_key: "GSI1SK" },
            /// An account's repositories, a user's stars and memberships.
            pub Gsi2 = "GSI2" { partition_key: "GSI2PK", sort_key: "GSI2SK" },
            /// Sparse: a repository's forks (only forks carry GSI3PK).
            pub Gsi3 = "GSI3" { partition_key: "GSI3PK", sort_key: "GSI3SK" },
        },
    }
}

/// A user account. Its name is taken in the namespace users and
/// organizations share: both are `ACCOUNT#{name}`.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "ACCOUNT#{username}", sk = "ACCOUNT", type = "USER")]
#[entity(index = Gsi1, pk = "EMAIL#{email}", sk = "ACCOUNT")]
pub struct User {
    pub username: String,
    pub name: String,
    pub email: String,
}

/// An organization account, in the same namespace as users.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "ACCOUNT#{name}", sk = "ACCOUNT", type = "ORG")]
pub struct Org {
    pub name: String,
    pub billing_email: String,
}

/// A member's role in an organization.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    #[key(rename = "MEMBER")]
    Member,
    #[key(rename = "ADMIN")]
    Admin,
}

/// A user in an organization: in the org's partition (org + members, one
/// Query) and under the user in GSI2 (a user's organizations).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "ACCOUNT#{org}", sk = "MEMBER#{username}")]
#[entity(index = Gsi2, pk = "MEMBER_OF#{username}", sk = "{org}")]
pub struct Membership {
    pub org: String,
    pub username: String,
    pub role: Role,
}

/// A repository, with its counters kept by the writes that change them.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "REPO#{owner}#{name}", sk = "REPO", version = "version")]
#[entity(index = Gsi2, pk = "OWNER#{owner}", sk = "REPO#{name}")]
#[entity(index = Gsi3, pk = "FORKS#{fork_of_owner}#{fork_of_name}", sk = "{owner}")]
pub struct Repo {
    pub owner: String,
    pub name: String,
    pub description: String,
    pub topics: Set<String>,
    pub stars: i64,
    pub forks: i64,
    /// The last issue number given out.
    pub issue_count: u32,
    /// The repository this one is a fork of (both or neither).
    pub fork_of_owner: Option<String>,
    pub fork_of_name: Option<String>,
    #[serde(default)]
    pub version: u64,
}

/// Open or closed.
#[derive(KeyPart, Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum IssueStatus {
    #[key(rename = "OPEN")]
    Open,
    #[key(rename = "CLOSED")]
    Closed,
}

/// An issue, numbered per repository: in the repository's partition
/// (repository + issues, one Query, newest first by its padded number) and
/// in GSI1 with its comments (issue + comments, one Query).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "REPO#{owner}#{repo}", sk = "ISSUE#{number:8}")]
#[entity(index = Gsi1, pk = "ISSUE#{owner}#{repo}#{number:8}", sk = "ISSUE")]
pub struct Issue {
    pub owner: String,
    pub repo: String,
    pub number: u32,
    pub title: String,
    pub author: String,
    pub status: IssueStatus,
    pub labels: Set<String>,
    /// Reaction counts by kind (`+1`, `heart`, …): a map the reactions
    /// count into, one document path each.
    pub reactions: HashMap<String, u32>,
}

/// A comment on an issue, in the issue's partition and, with it, in GSI1.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "ISSUE#{owner}#{repo}#{issue:8}", sk = "COMMENT#{id:12}")]
#[entity(index = Gsi1, pk = "ISSUE#{owner}#{repo}#{issue:8}", sk = "COMMENT#{id:12}")]
pub struct Comment {
    pub owner: String,
    pub repo: String,
    pub issue: u32,
    pub id: u64,
    pub author: String,
    pub body: String,
}

/// That `user` reacted with `kind` to an issue: one item per user and
/// kind, created only if new, so a reaction counts once.
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "REACTION#{owner}#{repo}#{issue:8}#{user}", sk = "REACTION#{kind}")]
pub struct Reaction {
    pub owner: String,
    pub repo: String,
    pub issue: u32,
    pub user: String,
    pub kind: String,
}

/// That `user` starred a repository: in the repository's partition
/// (stargazers) and under the user in GSI2 (starred repositories).
#[derive(Entity, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[entity(table = GitHub, pk = "REPO#{owner}#{repo}", sk = "STAR#{user}")]
#[entity(index = Gsi2, pk = "STARS#{user}", sk = "{owner}#{repo}")]
pub struct Star {
    pub owner: String,
    pub repo: String,
    pub user: String,
}

/// A repository page: the repository and its latest issues, one Query.
#[derive(Collection, Debug)]
pub struct RepoPage {
    pub repo: Option<Repo>,
    pub issues: Vec<Issue>,
}

/// An issue page: the issue and its comments, one Query on GSI1.
#[derive(Collection, Debug)]
pub struct IssuePage {
    pub issue: Option<Issue>,
    pub comments: Vec<Comment>,
}

/// An organization and its members, one Query.
#[derive(Collection, Debug)]
pub struct OrgPage {
    pub org: Option<Org>,
    pub members: Vec<Membership>,
}

/// Any account: a user or an organization.
#[derive(Collection, Debug, PartialEq)]
pub enum Account {
    User(User),
    Org(Org),
}
