//! Every access pattern of the GitHub model: its result, and how many
//! requests it costs (metered with `Db::metered`).

use ddb_entity::local::LocalDynamo;
use ddb_entity::{Capacity, Db, ErrorKind, Set};

use crate::model::*;
use crate::patterns::*;

/// A fresh table and a handle that counts its requests.
struct Hub {
    db: Db<GitHub>,
    capacity: Capacity,
    counted: u64,
    _dynamo: LocalDynamo,
}

impl Hub {
    async fn new() -> Hub {
        let dynamo = LocalDynamo::start().await.unwrap();
        let db = Db::<GitHub>::new(dynamo.client(), dynamo.unique_table_name("github"));
        db.create_table_if_missing().await.unwrap();
        let capacity = Capacity::new();
        Hub {
            db: db.metered(&capacity),
            capacity,
            counted: 0,
            _dynamo: dynamo,
        }
    }

    /// Requests since the last call.
    fn requests(&mut self) -> u64 {
        let now = self.capacity.requests();
        let since = now - self.counted;
        self.counted = now;
        since
    }

    /// octocat and hubot, octocat's `hello-world`.
    async fn seeded() -> Hub {
        let mut hub = Hub::new().await;
        sign_up(&hub.db, "octocat", "The Octocat", "octocat@github.example")
            .await
            .unwrap();
        sign_up(&hub.db, "hubot", "Hubot", "hubot@github.example")
            .await
            .unwrap();
        create_repo(&hub.db, "octocat", "hello-world", "My first repo")
            .await
            .unwrap();
        hub.requests();
        hub
    }
}

#[tokio::test]
async fn accounts_share_one_namespace_and_are_found_by_email() {
    let mut hub = Hub::new().await;
    let db = &hub.db;
    sign_up(db, "octocat", "The Octocat", "octocat@github.example")
        .await
        .unwrap();
    create_org(db, "github", "octocat").await.unwrap();
    assert_eq!(hub.requests(), 2, "a create; a transaction");

    let err = sign_up(&hub.db, "github", "Someone", "s@example.com")
        .await
        .unwrap_err();
    assert!(err.is_already_exists(), "{err:?}");
    let err = create_org(&hub.db, "octocat", "octocat").await.unwrap_err();
    assert!(
        err.is_already_exists() && err.is_transaction_canceled(),
        "{err:?}"
    );

    hub.requests();
    let found = user_by_email(&hub.db, "octocat@github.example")
        .await
        .unwrap();
    assert_eq!(found.map(|u| u.username).as_deref(), Some("octocat"));
    assert!(
        user_by_email(&hub.db, "nobody@example.com")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(hub.requests(), 2, "one Query each");

    // Whichever kind of account a name is, one read tells.
    assert!(matches!(
        account(&hub.db, "github").await.unwrap(),
        Some(Account::Org(_))
    ));
    assert!(matches!(
        account(&hub.db, "octocat").await.unwrap(),
        Some(Account::User(_))
    ));
    assert_eq!(account(&hub.db, "nobody").await.unwrap(), None);
    assert_eq!(hub.requests(), 3);
}

#[tokio::test]
async fn an_organization_and_its_members_are_one_query() {
    let mut hub = Hub::seeded().await;
    create_org(&hub.db, "github", "octocat").await.unwrap();
    set_role(&hub.db, "github", "hubot", Role::Member)
        .await
        .unwrap();
    let promoted = set_role(&hub.db, "github", "hubot", Role::Admin)
        .await
        .unwrap();
    assert_eq!(
        promoted.role,
        Role::Admin,
        "an upsert: created, then changed"
    );
    hub.requests();

    let page = org_page(&hub.db, "github").await.unwrap();
    assert_eq!(hub.requests(), 1);
    assert_eq!(page.org.unwrap().name, "github");
    let members: Vec<(&str, Role)> = page
        .members
        .iter()
        .map(|m| (m.username.as_str(), m.role))
        .collect();
    assert_eq!(members, [("hubot", Role::Admin), ("octocat", Role::Admin)]);
}

#[tokio::test]
async fn a_repository_page_is_one_query_with_its_newest_issues_first() {
    let mut hub = Hub::seeded().await;
    for title in ["One", "Two", "Three", "Four"] {
        open_issue(&hub.db, "octocat", "hello-world", "hubot", title)
            .await
            .unwrap();
    }
    assert_eq!(hub.requests(), 8, "a counter update and a create per issue");
    close_issue(&hub.db, "octocat", "hello-world", 2)
        .await
        .unwrap();
    hub.requests();

    let page = repo_page(&hub.db, "octocat", "hello-world", 3)
        .await
        .unwrap();
    assert_eq!(hub.requests(), 1);
    let repo = page.repo.unwrap();
    assert_eq!(repo.issue_count, 4);
    let numbers: Vec<u32> = page.issues.iter().map(|i| i.number).collect();
    assert_eq!(numbers, [4, 3, 2], "the latest three");

    let open = repo_with_open_issues(&hub.db, "octocat", "hello-world")
        .await
        .unwrap();
    assert!(
        open.repo.is_some(),
        "the filter leaves the repository alone"
    );
    let numbers: Vec<u32> = open.issues.iter().map(|i| i.number).collect();
    assert_eq!(numbers, [4, 3, 1]);
    assert_eq!(
        open_issue_count(&hub.db, "octocat", "hello-world")
            .await
            .unwrap(),
        3
    );
    assert_eq!(hub.requests(), 2);
}

#[tokio::test]
async fn an_issue_page_is_one_query_on_the_index_and_reactions_count_once() {
    let mut hub = Hub::seeded().await;
    open_issue(
        &hub.db,
        "octocat",
        "hello-world",
        "hubot",
        "It does not build",
    )
    .await
    .unwrap();
    for (id, author) in [(1, "octocat"), (2, "hubot")] {
        comment(&hub.db, "octocat", "hello-world", 1, id, author, "…")
            .await
            .unwrap();
    }
    react(&hub.db, "octocat", "hello-world", 1, "hubot", "+1")
        .await
        .unwrap();
    react(&hub.db, "octocat", "hello-world", 1, "octocat", "+1")
        .await
        .unwrap();
    react(&hub.db, "octocat", "hello-world", 1, "octocat", "heart")
        .await
        .unwrap();
    hub.requests();
    let twice = react(&hub.db, "octocat", "hello-world", 1, "hubot", "+1")
        .await
        .unwrap_err();
    assert!(
        twice.is_already_exists() && twice.is_transaction_canceled(),
        "{twice:?}"
    );
    assert_eq!(hub.requests(), 1, "one transaction, refused whole");

    let page = issue_page(&hub.db, "octocat", "hello-world", 1)
        .await
        .unwrap();
    assert_eq!(hub.requests(), 1);
    let issue = page.issue.unwrap();
    assert_eq!(issue.reactions.get("+1"), Some(&2));
    assert_eq!(issue.reactions.get("heart"), Some(&1));
    let authors: Vec<&str> = page.comments.iter().map(|c| c.author.as_str()).collect();
    assert_eq!(authors, ["octocat", "hubot"]);
}

#[tokio::test]
async fn stars_and_forks_keep_their_counters_in_one_transaction_each() {
    let mut hub = Hub::seeded().await;
    star(&hub.db, "hubot", "octocat", "hello-world")
        .await
        .unwrap();
    star(&hub.db, "octocat", "octocat", "hello-world")
        .await
        .unwrap();
    assert_eq!(hub.requests(), 2);
    let err = star(&hub.db, "hubot", "octocat", "hello-world")
        .await
        .unwrap_err();
    assert!(err.is_already_exists(), "{err:?}");
    unstar(&hub.db, "octocat", "octocat", "hello-world")
        .await
        .unwrap();
    let err = unstar(&hub.db, "octocat", "octocat", "hello-world")
        .await
        .unwrap_err();
    assert!(err.is_condition_failed(), "not starred: {err:?}");

    hub.requests();
    let gazers: Vec<String> = stargazers(&hub.db, "octocat", "hello-world")
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.user)
        .collect();
    assert_eq!(gazers, ["hubot"]);
    let starred = starred_by(&hub.db, "hubot").await.unwrap();
    assert_eq!(starred.len(), 1);
    assert_eq!(hub.requests(), 2);

    let source = hub
        .db
        .get(Repo::key("octocat", "hello-world").unwrap())
        .consistent_read(true)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(source.stars, 1);
    hub.requests();
    fork(&hub.db, &source, "hubot").await.unwrap();
    assert_eq!(hub.requests(), 1);
    let forks = forks_of(&hub.db, "octocat", "hello-world").await.unwrap();
    assert_eq!(
        forks.iter().map(|r| r.owner.as_str()).collect::<Vec<_>>(),
        ["hubot"]
    );
    assert!(
        forks_of(&hub.db, "hubot", "hello-world")
            .await
            .unwrap()
            .is_empty()
    );

    let (repo, owner) = repo_and_owner(&hub.db, "octocat", "hello-world")
        .await
        .unwrap();
    assert_eq!(hub.requests(), 3, "two queries, one read transaction");
    let repo = repo.unwrap();
    assert_eq!((repo.stars, repo.forks), (1, 1));
    assert_eq!(owner.unwrap().name, "The Octocat");
}

#[tokio::test]
async fn topics_are_a_set_and_repositories_are_found_by_them() {
    let mut hub = Hub::seeded().await;
    create_repo(&hub.db, "octocat", "spoon-knife", "Forks")
        .await
        .unwrap();
    add_topics(&hub.db, "octocat", "hello-world", &["rust", "dynamodb"])
        .await
        .unwrap();
    add_topics(&hub.db, "octocat", "spoon-knife", &["rust", "go"])
        .await
        .unwrap();
    let repo = remove_topics(&hub.db, "octocat", "spoon-knife", &["go", "java"])
        .await
        .unwrap();
    assert_eq!(repo.topics, Set::from(["rust"]));
    hub.requests();
    let rust = repos_with_topic(&hub.db, "octocat", "rust").await.unwrap();
    assert_eq!(rust.len(), 2);
    let dynamo = repos_with_topic(&hub.db, "octocat", "dynamodb")
        .await
        .unwrap();
    assert_eq!(dynamo[0].name, "hello-world");
    assert_eq!(hub.requests(), 2);

    // Nothing to add: an update with no change, refused before sending.
    let err = add_topics(&hub.db, "octocat", "hello-world", &[])
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::EmptyUpdate);
    // The last topic taken off: no attribute, an empty set.
    let repo = remove_topics(&hub.db, "octocat", "spoon-knife", &["rust"])
        .await
        .unwrap();
    assert!(repo.topics.is_empty());
}
