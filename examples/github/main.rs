//! GitHub as one DynamoDB table, end to end: accounts (users and
//! organizations in one namespace), repositories with issues, comments,
//! reactions, stars and forks — every access pattern a Get, one Query, or
//! one transaction. The model is in `model.rs` (its key layout in a table
//! at the top), the patterns in `patterns.rs`; `cargo test --example
//! github --features model` holds each to its results and its request count.
//!
//! ```sh
//! cargo run --example github --features model
//! ```

mod model;
mod patterns;
#[cfg(test)]
mod tests;

use ddb_entity::local::LocalDynamo;
use ddb_entity::{Capacity, Db};

use model::GitHub;

type Error = Box<dyn std::error::Error + Send + Sync>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let dynamo = LocalDynamo::start().await?;
    let db = Db::<GitHub>::new(dynamo.client(), dynamo.unique_table_name("github"));
    db.create_table_if_missing().await?;
    let capacity = Capacity::new();
    let db = db.metered(&capacity);
    let mut requests = 0;
    let mut step = |what: &str| {
        let now = capacity.requests();
        println!("{:>3} request(s)  {what}", now - requests);
        requests = now;
    };

    patterns::sign_up(&db, "octocat", "The Octocat", "octocat@github.example").await?;
    patterns::sign_up(&db, "hubot", "Hubot", "hubot@github.example").await?;
    step("sign up two users");
    patterns::create_org(&db, "github", "octocat").await?;
    patterns::set_role(&db, "github", "hubot", model::Role::Member).await?;
    step("an organization, its admin, a member");
    let taken = patterns::sign_up(&db, "github", "Not GitHub", "x@example.com").await;
    step("a user named like the org: refused (one namespace)");
    assert!(taken.unwrap_err().is_already_exists());

    let repo = patterns::create_repo(&db, "octocat", "hello-world", "My first repo").await?;
    patterns::add_topics(&db, "octocat", "hello-world", &["rust", "dynamodb"]).await?;
    step("a repository, tagged");
    for title in ["It does not build", "Add a README", "Typo in the docs"] {
        patterns::open_issue(&db, "octocat", "hello-world", "hubot", title).await?;
    }
    step("three issues (counter + create each)");
    patterns::close_issue(&db, "octocat", "hello-world", 2).await?;
    patterns::comment(
        &db,
        "octocat",
        "hello-world",
        1,
        1,
        "octocat",
        "Works for me",
    )
    .await?;
    patterns::react(&db, "octocat", "hello-world", 1, "hubot", "+1").await?;
    patterns::star(&db, "hubot", "octocat", "hello-world").await?;
    patterns::fork(&db, &repo, "hubot").await?;
    step("close, comment, react, star, fork");

    let page = patterns::repo_page(&db, "octocat", "hello-world", 10).await?;
    step("repository page: the repository and its issues");
    let repo = page.repo.expect("the repository");
    println!(
        "       {}/{}: {} star(s), {} fork(s), topics {:?}",
        repo.owner, repo.name, repo.stars, repo.forks, repo.topics
    );
    for issue in &page.issues {
        println!(
            "       #{} {:?} {}",
            issue.number, issue.status, issue.title
        );
    }
    let open = patterns::open_issue_count(&db, "octocat", "hello-world").await?;
    step(&format!("open issues counted: {open}"));
    let issue = patterns::issue_page(&db, "octocat", "hello-world", 1).await?;
    step("issue page: the issue and its comments");
    println!(
        "       {} comment(s), reactions {:?}",
        issue.comments.len(),
        issue.issue.map(|i| i.reactions)
    );
    let forks = patterns::forks_of(&db, "octocat", "hello-world").await?;
    step(&format!("forks: {}", forks.len()));
    let org = patterns::org_page(&db, "github").await?;
    step(&format!(
        "organization page: {} member(s)",
        org.members.len()
    ));

    let open = patterns::repo_with_open_issues(&db, "octocat", "hello-world").await?;
    step(&format!(
        "the repository and its {} open issues",
        open.issues.len()
    ));
    let by_email = patterns::user_by_email(&db, "hubot@github.example").await?;
    step(&format!(
        "user by email: {:?}",
        by_email.map(|u| u.username)
    ));
    let kind = patterns::account(&db, "github").await?;
    step(&format!(
        "account `github` is an org: {}",
        matches!(kind, Some(model::Account::Org(_)))
    ));
    let gazers = patterns::stargazers(&db, "octocat", "hello-world").await?;
    let starred = patterns::starred_by(&db, "hubot").await?;
    step(&format!(
        "{} stargazer(s); hubot starred {}",
        gazers.len(),
        starred.len()
    ));
    patterns::unstar(&db, "hubot", "octocat", "hello-world").await?;
    patterns::remove_topics(&db, "octocat", "hello-world", &["dynamodb"]).await?;
    step("unstar, untag");
    let rust = patterns::repos_with_topic(&db, "octocat", "rust").await?;
    step(&format!(
        "octocat's repositories about rust: {}",
        rust.len()
    ));
    let (repo, owner) = patterns::repo_and_owner(&db, "octocat", "hello-world").await?;
    step(&format!(
        "repository and owner as of one instant: {} star(s), owned by {:?}",
        repo.map_or(0, |r| r.stars),
        owner.map(|u| u.name)
    ));
    Ok(())
}
