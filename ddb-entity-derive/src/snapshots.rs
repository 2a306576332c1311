//! Expansion snapshots: what each derive generates for one representative
//! input, pretty-printed, so a change to generated code shows as a diff in
//! review. Update with `UPDATE_EXPECT=1 cargo test -p ddb-entity-derive`.

use expect_test::{ExpectFile, expect_file};
use proc_macro2::TokenStream;
use syn::{DeriveInput, parse_quote};

fn assert_expands(
    expand: fn(&DeriveInput) -> TokenStream,
    input: DeriveInput,
    expected: ExpectFile,
) {
    let tokens = expand(&input);
    let file: syn::File = match syn::parse2(tokens.clone()) {
        Ok(file) => file,
        Err(err) => panic!("generated code does not parse: {err}\n{tokens}"),
    };
    expected.assert_eq(&prettyplease::unparse(&file));
}

/// Two key templates with a width, a sparse index reusing a primary-key
/// field, a version and an updated-at timestamp.
#[test]
fn entity() {
    assert_expands(
        crate::entity,
        parse_quote! {
            #[entity(table = App, pk = "CUST#{customer_id}", sk = "ORDER#{placed}#{order_id:6}", version = "version", updated_at = "updated")]
            #[entity(index = Gsi1, pk = "OPEN#{open_since}", sk = "CUST#{customer_id}")]
            pub struct Order {
                pub customer_id: u64,
                pub order_id: u32,
                pub placed: String,
                pub open_since: Option<u32>,
                pub version: u64,
                pub updated: u64,
            }
        },
        expect_file!["../snapshots/entity.rs"],
    );
}

/// A leading `#`, and segments that hold literal text and holes: the
/// builders write no `#` inside a segment, and an update reads the
/// primary key back piece by piece for the index that reuses it.
#[test]
fn entity_partial_segments() {
    assert_expands(
        crate::entity,
        parse_quote! {
            #[entity(table = App, pk = "REPO#{repo}", sk = "#ISSUE#{number}-{comment}")]
            #[entity(index = Gsi1, pk = "AUTHOR#{author}", sk = "{kind}REACT#{number}")]
            pub struct Comment {
                pub repo: String,
                pub number: u32,
                pub comment: String,
                pub author: String,
                pub kind: Kind,
            }
        },
        expect_file!["../snapshots/entity_partial_segments.rs"],
    );
}

/// A table without a sort key, and key attributes that are fields: no
/// sort key at all, the token and the username written as they are.
#[test]
fn entity_raw_keys() {
    assert_expands(
        crate::entity,
        parse_quote! {
            #[entity(table = Sessions, pk = session_token, type = "SESSION")]
            #[entity(index = UserIndex, pk = username)]
            pub struct Session {
                pub session_token: String,
                pub username: String,
                pub expires_at: u64,
            }
        },
        expect_file!["../snapshots/entity_raw_keys.rs"],
    );
}

/// Index keys computed from fields, and membership by a predicate: what
/// puts write, and how an update recomputes both from its changes.
#[test]
fn entity_computed() {
    assert_expands(
        crate::entity,
        parse_quote! {
            #[entity(table = App, pk = "TICKET#{id}", sk = "TICKET")]
            #[entity(computed = day: Option<NaiveDate> = ddb_entity::key::date_of(opened))]
            #[entity(index = Gsi1, pk = "DAY#{day}", sk = "{id}")]
            #[entity(index = Gsi2, pk = "OPEN", sk = "{priority}", when = Self::is_open(status))]
            pub struct Ticket {
                pub id: u64,
                pub status: Status,
                pub priority: u8,
                pub opened: Option<DateTime<Utc>>,
            }
        },
        expect_file!["../snapshots/entity_computed.rs"],
    );
}

#[test]
fn collection() {
    assert_expands(
        crate::collection,
        parse_quote! {
            pub struct CustomerView {
                pub customer: Option<Customer>,
                pub orders: Vec<Order>,
            }
        },
        expect_file!["../snapshots/collection.rs"],
    );
}

#[test]
fn key_part() {
    assert_expands(
        crate::key_part,
        parse_quote! {
            pub enum Priority {
                Low,
                #[key(rename = "MEDIUM")]
                Medium,
                High,
            }
        },
        expect_file!["../snapshots/key_part.rs"],
    );
}
