//! The access patterns, each a function of one or two requests: what the
//! example runs and what its tests hold to account.

use ddb_entity::{Db, Set};

use crate::model::*;

type Result<T> = ddb_entity::Result<T>;

/// Signs a user up: the name must be free in the account namespace
/// (users and organizations alike), or it is `is_already_exists()`.
pub async fn sign_up(db: &Db<GitHub>, username: &str, name: &str, email: &str) -> Result<User> {
    let user = User {
        username: username.into(),
        name: name.into(),
        email: email.into(),
    };
    db.create(&user).await?;
    Ok(user)
}

/// Creates an organization, in the same namespace, with its first admin:
/// one transaction.
pub async fn create_org(db: &Db<GitHub>, name: &str, admin: &str) -> Result<()> {
    db.transact()
        .create(&Org {
            name: name.into(),
            billing_email: format!("billing@{name}.example"),
        })
        .create(&Membership {
            org: name.into(),
            username: admin.into(),
            role: Role::Admin,
        })
        .await
}

/// Adds a member, or changes their role: an upsert.
pub async fn set_role(
    db: &Db<GitHub>,
    org: &str,
    username: &str,
    role: Role,
) -> Result<Membership> {
    db.upsert(Membership::key(org, username)?)
        .set(Membership::fields().role, role)
        .await
}

/// An organization and its members: one Query.
pub async fn org_page(db: &Db<GitHub>, org: &str) -> Result<OrgPage> {
    db.query(Org::partition(org)?).collect().await
}

/// A user by email: a unique lookup on GSI1.
pub async fn user_by_email(db: &Db<GitHub>, email: &str) -> Result<Option<User>> {
    db.query(User::gsi1_partition(email)?).one().await
}

/// Creates a repository.
pub async fn create_repo(
    db: &Db<GitHub>,
    owner: &str,
    name: &str,
    description: &str,
) -> Result<Repo> {
    db.create(&new_repo(owner, name, description, None))
        .returning_new()
        .await
}

fn new_repo(owner: &str, name: &str, description: &str, fork_of: Option<&Repo>) -> Repo {
    Repo {
        owner: owner.into(),
        name: name.into(),
        description: description.into(),
        topics: Set::new(),
        stars: 0,
        forks: 0,
        issue_count: 0,
        fork_of_owner: fork_of.map(|r| r.owner.clone()),
        fork_of_name: fork_of.map(|r| r.name.clone()),
        version: 0,
    }
}

/// Tags a repository with topics: a set, added to atomically on the
/// server. (Adding to and taking from one set in one update is refused:
/// DynamoDB takes one change per attribute.)
pub async fn add_topics(db: &Db<GitHub>, owner: &str, name: &str, topics: &[&str]) -> Result<Repo> {
    db.update(Repo::key(owner, name)?)
        .add_to_set(
            Repo::fields().topics,
            topics.iter().map(|t| (*t).to_owned()),
        )
        .await
}

/// Takes topics off a repository.
pub async fn remove_topics(
    db: &Db<GitHub>,
    owner: &str,
    name: &str,
    topics: &[&str],
) -> Result<Repo> {
    db.update(Repo::key(owner, name)?)
        .delete_from_set(
            Repo::fields().topics,
            topics.iter().map(|t| (*t).to_owned()),
        )
        .await
}

/// An owner's repositories with a topic: GSI2, filtered by `contains`.
pub async fn repos_with_topic(db: &Db<GitHub>, owner: &str, topic: &str) -> Result<Vec<Repo>> {
    db.query(Repo::gsi2_partition(owner)?)
        .filter(Repo::fields().topics.contains(topic.into()))
        .all()
        .await
}

/// Opens an issue: its number from the repository's counter (an update
/// returning the new count), then the issue — two requests; a resend of
/// either applies once.
pub async fn open_issue(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
    author: &str,
    title: &str,
) -> Result<Issue> {
    let counted = db
        .update(Repo::key(owner, repo)?)
        .add(Repo::fields().issue_count, 1)
        .await?;
    let issue = Issue {
        owner: owner.into(),
        repo: repo.into(),
        number: counted.issue_count,
        title: title.into(),
        author: author.into(),
        status: IssueStatus::Open,
        labels: Set::new(),
        reactions: Default::default(),
    };
    db.create(&issue).await?;
    Ok(issue)
}

/// Closes an issue.
pub async fn close_issue(db: &Db<GitHub>, owner: &str, repo: &str, number: u32) -> Result<Issue> {
    db.update(Issue::key(owner, repo, number)?)
        .set(Issue::fields().status, IssueStatus::Closed)
        .await
}

/// A repository page: the repository and its latest issues, newest first,
/// one Query (`REPO` sorts after every `ISSUE#…`, so it comes first).
pub async fn repo_page(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
    issues: usize,
) -> Result<RepoPage> {
    db.query(Repo::partition(owner, repo)?)
        .reverse(true)
        .limit(issues + 1)
        .collect()
        .await
}

/// The repository and its open issues only: one Query, the closed ones
/// dropped by a filter on `Issue` (which leaves the `Repo` alone).
pub async fn repo_with_open_issues(db: &Db<GitHub>, owner: &str, repo: &str) -> Result<RepoPage> {
    db.query(Repo::partition(owner, repo)?)
        .reverse(true)
        .filter(Issue::fields().status.equals(IssueStatus::Open))
        .collect()
        .await
}

/// How many issues of a repository are open: a count, no items sent back.
pub async fn open_issue_count(db: &Db<GitHub>, owner: &str, repo: &str) -> Result<usize> {
    db.query(Issue::partition(owner, repo)?)
        .sk_begins_with(Issue::sk())
        .filter(Issue::fields().status.equals(IssueStatus::Open))
        .count()
        .await
}

/// Comments on an issue.
pub async fn comment(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
    issue: u32,
    id: u64,
    author: &str,
    body: &str,
) -> Result<Comment> {
    let comment = Comment {
        owner: owner.into(),
        repo: repo.into(),
        issue,
        id,
        author: author.into(),
        body: body.into(),
    };
    db.create(&comment).await?;
    Ok(comment)
}

/// An issue page: the issue and its comments, one Query on GSI1.
pub async fn issue_page(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
    number: u32,
) -> Result<IssuePage> {
    db.query(Issue::gsi1_partition(owner, repo, number)?)
        .collect()
        .await
}

/// Reacts to an issue: the reaction created only if new, and the issue's
/// count for that kind incremented — a document path inside its
/// `reactions` map — in one transaction. Reacting twice is
/// `is_already_exists()` and counts nothing.
pub async fn react(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
    issue: u32,
    user: &str,
    kind: &str,
) -> Result<()> {
    db.transact()
        .create(&Reaction {
            owner: owner.into(),
            repo: repo.into(),
            issue,
            user: user.into(),
            kind: kind.into(),
        })
        .update(
            db.update(Issue::key(owner, repo, issue)?)
                .add_at(Issue::fields().reactions.key(kind), 1),
        )
        .await
}

/// Stars a repository: the star created only if new, and the count
/// incremented, in one transaction.
pub async fn star(db: &Db<GitHub>, user: &str, owner: &str, repo: &str) -> Result<()> {
    db.transact()
        .create(&Star {
            owner: owner.into(),
            repo: repo.into(),
            user: user.into(),
        })
        .update(
            db.update(Repo::key(owner, repo)?)
                .add(Repo::fields().stars, 1),
        )
        .await
}

/// Takes a star back: the star deleted only if it is there, and the count
/// decremented, in one transaction.
pub async fn unstar(db: &Db<GitHub>, user: &str, owner: &str, repo: &str) -> Result<()> {
    db.transact()
        .delete(
            db.delete(Star::key(owner, repo, user)?)
                .condition(ddb_entity::Condition::item_exists()),
        )
        .update(
            db.update(Repo::key(owner, repo)?)
                .add(Repo::fields().stars, -1),
        )
        .await
}

/// A repository's stargazers: its partition, cut at `STAR#`.
pub async fn stargazers(db: &Db<GitHub>, owner: &str, repo: &str) -> Result<Vec<Star>> {
    db.query(Star::partition(owner, repo)?)
        .sk_begins_with(Star::sk())
        .all()
        .await
}

/// The repositories a user starred: GSI2.
pub async fn starred_by(db: &Db<GitHub>, user: &str) -> Result<Vec<Star>> {
    db.query(Star::gsi2_partition(user)?).all().await
}

/// Forks a repository: the fork created (in the source's sparse forks
/// index) and the source's count incremented, in one transaction.
pub async fn fork(db: &Db<GitHub>, source: &Repo, new_owner: &str) -> Result<Repo> {
    let fork = new_repo(new_owner, &source.name, &source.description, Some(source));
    db.transact()
        .create(&fork)
        .update(
            db.update(Repo::key(&source.owner, &source.name)?)
                .add(Repo::fields().forks, 1),
        )
        .await?;
    Ok(Repo { version: 1, ..fork })
}

/// A repository's forks: the sparse GSI3 holds only forks.
pub async fn forks_of(db: &Db<GitHub>, owner: &str, repo: &str) -> Result<Vec<Repo>> {
    db.query(Repo::gsi3_partition(owner, repo)?).all().await
}

/// An account, whichever kind it is: the first (and only) item at
/// `ACCOUNT#{name}` / `ACCOUNT`, decoded as a user or an organization.
pub async fn account(db: &Db<GitHub>, name: &str) -> Result<Option<Account>> {
    db.query(User::partition(name)?)
        .sk_eq(User::sk())
        .first()
        .await
}

/// A repository and its owner as of one instant: a read transaction.
pub async fn repo_and_owner(
    db: &Db<GitHub>,
    owner: &str,
    repo: &str,
) -> Result<(Option<Repo>, Option<User>)> {
    let read = db
        .transact_get()
        .get(Repo::key(owner, repo)?)
        .get(User::key(owner)?)
        .await?;
    Ok((
        read.get(&Repo::key(owner, repo)?)?,
        read.get(&User::key(owner)?)?,
    ))
}
