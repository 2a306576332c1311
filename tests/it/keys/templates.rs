//! The key contract for the template shapes beyond whole segments (the
//! entities of `crate::templates`): a leading `#`, a hole with literal text
//! in its segment, two holes in one segment. For each: tuple order ⇔ byte
//! order of the generated keys, round trip through `KeyReader`, injectivity
//! — within the template and across the templates sharing a partition —
//! and typed ranges that stay in the template's key space.

use ddb_entity::key::{KeyError, KeyReader};
use ddb_entity::{Entity, SortKey, SortRange};
use proptest::prelude::*;

use super::strings::text;
use crate::templates::{Comment, Customer, Kind, Order, PlainOrder, Reaction, Score};

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::Heart), Just(Kind::Laugh), Just(Kind::ThumbsUp)]
}

/// Numbers that often tie, so the later parts decide.
fn small() -> impl Strategy<Value = u16> {
    prop_oneof![0u16..3, any::<u16>()]
}

fn score() -> impl Strategy<Value = i32> {
    prop_oneof![-3i32..3, any::<i32>()]
}

fn order_sk(placed: u32, id: &str) -> Option<String> {
    Some(Order::key("u", placed, id).ok()?.sort().to_owned())
}

fn plain_sk(placed: u32, id: &str) -> Option<String> {
    Some(PlainOrder::key("u", placed, id).ok()?.sort().to_owned())
}

fn reaction_sk(kind: Kind, user: &str) -> Option<String> {
    Some(Reaction::key(1, kind, user).ok()?.sort().to_owned())
}

fn comment_sk(number: u16, comment: &str) -> Option<String> {
    Some(Comment::key("r", number, comment).ok()?.sort().to_owned())
}

fn score_sk(score: i32, round: u16, player: &str) -> Option<String> {
    Some(
        Score::key(1, score, u32::from(round), player)
            .ok()?
            .sort()
            .to_owned(),
    )
}

/// `{kind}REACTION#{user}` read back, piece by piece.
fn read_reaction(key: &str) -> Result<(Kind, String), KeyError> {
    let mut reader = KeyReader::new(key);
    let kind = reader.segment()?.last::<Kind>("REACTION")?;
    let user = reader.part()?;
    reader.finish()?;
    Ok((kind, user))
}

/// `ISSUE#{number}-{comment}` read back.
fn read_comment(key: &str) -> Result<(u16, String), KeyError> {
    let mut reader = KeyReader::new(key);
    reader.literal("ISSUE")?;
    let mut segment = reader.segment()?;
    let number = segment.fixed::<u16>()?;
    segment.literal("-")?;
    let comment = segment.last::<String>("")?;
    reader.finish()?;
    Ok((number, comment))
}

/// `#ORDER#{placed}#{order_id}` read back: an empty first segment.
fn read_order(key: &str) -> Result<(u32, String), KeyError> {
    let mut reader = KeyReader::new(key);
    reader.literal("")?;
    reader.literal("ORDER")?;
    let placed = reader.part()?;
    let id = reader.part()?;
    reader.finish()?;
    Ok((placed, id))
}

/// `S{score}PTS#{round:3}.{player}` read back.
fn read_score(key: &str) -> Result<(i32, u16, String), KeyError> {
    let mut reader = KeyReader::new(key);
    let mut first = reader.segment()?;
    first.literal("S")?;
    let score = first.last::<i32>("PTS")?;
    let mut second = reader.segment()?;
    let round = second.fixed::<ddb_entity::key::Padded<3, u32>>()?.0;
    second.literal(".")?;
    let player = second.last::<String>("")?;
    reader.finish()?;
    Ok((score, u16::try_from(round).unwrap_or(u16::MAX), player))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn leading_hash_order_round_trip_injectivity(
        (a, b) in ((any::<u32>(), text()), (any::<u32>(), text())),
    ) {
        let (Some(ka), Some(kb)) = (order_sk(a.0, &a.1), order_sk(b.0, &b.1)) else { return Ok(()) };
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(ka == kb, a == b);
        prop_assert_eq!(read_order(&ka)?, a.clone());
        // Another template's key never equals it: `#ORDER#` vs `ORDER#`
        // differ at the first byte, and every `#`-led key sorts first.
        let plain = plain_sk(a.0, &a.1).expect("same length");
        prop_assert_ne!(&ka, &plain);
        prop_assert!(ka < plain);
        prop_assert!(ka.as_str() < "CUSTOMER#");
        prop_assert!(read_order(&plain).is_err());
    }

    #[test]
    fn hole_then_literal_in_one_segment(
        (a, b) in ((kind(), text()), (kind(), text())),
    ) {
        let (Some(ka), Some(kb)) = (reaction_sk(a.0, &a.1), reaction_sk(b.0, &b.1)) else { return Ok(()) };
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(ka == kb, a == b);
        prop_assert_eq!(read_reaction(&ka)?, a);
    }

    #[test]
    fn two_holes_in_one_segment(
        (a, b) in ((small(), text()), (small(), text())),
    ) {
        let (Some(ka), Some(kb)) = (comment_sk(a.0, &a.1), comment_sk(b.0, &b.1)) else { return Ok(()) };
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(ka == kb, a == b);
        prop_assert_eq!(read_comment(&ka)?, a.clone());
        // The prefix cut after `number` holds exactly that number's keys.
        let prefix: SortKey<ddb_entity::Primary<crate::support::App>> = Comment::sk().number(b.0).into();
        prop_assert_eq!(ka.starts_with(prefix.value()?), a.0 == b.0);
    }

    #[test]
    fn signed_hole_then_literal_then_padded_hole(
        (a, b) in ((score(), 0u16..1000, text()), (score(), 0u16..1000, text())),
    ) {
        let (Some(ka), Some(kb)) = (score_sk(a.0, a.1, &a.2), score_sk(b.0, b.1, &b.2)) else { return Ok(()) };
        prop_assert_eq!(ka.cmp(&kb), a.cmp(&b));
        prop_assert_eq!(ka == kb, a == b);
        prop_assert_eq!(read_score(&ka)?, a);
    }

    /// Open ranges built from a template's key stay in its key space: no
    /// key of another template in the same partition is selected.
    #[test]
    fn open_ranges_stay_in_the_key_space(
        placed in any::<u32>(),
        id in text(),
        number in small(),
        comment in text(),
        other in text(),
    ) {
        type Table = ddb_entity::Primary<crate::support::App>;
        let customer = Customer::key(other.as_str()).ok().map(|k| k.sort().to_owned());
        let foreign: Vec<String> = [plain_sk(placed, &id), customer, reaction_sk(Kind::Laugh, &other)]
            .into_iter()
            .flatten()
            .collect();
        for range in [
            SortRange::<Table>::gt(Order::sk().placed(placed))?,
            SortRange::lt(Order::sk().placed(placed))?,
            SortRange::ge(Order::sk())?,
        ] {
            for key in &foreign {
                prop_assert!(!range.contains(key), "{:?} holds {:?}", range, key);
            }
        }
        let own = comment_sk(number, &comment);
        for range in [
            SortRange::<Table>::gt(Comment::sk().number(number))?,
            SortRange::lt(Comment::sk().number(number))?,
        ] {
            for key in foreign.iter().chain(order_sk(placed, &id).iter()) {
                prop_assert!(!range.contains(key), "{:?} holds {:?}", range, key);
            }
            if let Some(own) = &own {
                prop_assert!(!range.contains(own), "{:?} holds its own cut {:?}", range, own);
            }
        }
    }
}

#[test]
fn the_entities_fill_their_keys_as_the_readers_read_them() {
    let reaction = Reaction {
        number: 1,
        kind: Kind::ThumbsUp,
        user: "a b".into(),
        note: String::new(),
    };
    let key = reaction.primary_key().expect("key");
    assert_eq!(
        read_reaction(key.sort()).expect("reads"),
        (Kind::ThumbsUp, "a b".to_owned())
    );
}

/// What `FIXED_LEN` and `PREFIX_FREE` promise, for one pair of values:
/// every encoding has the declared length, and no encoding is a proper
/// prefix of another's.
fn assert_shape<T: ddb_entity::key::KeyPart + std::fmt::Debug>(
    a: &T,
    b: &T,
) -> Result<(), TestCaseError> {
    let (Ok(ea), Ok(eb)) = (ddb_entity::key::encode(a), ddb_entity::key::encode(b)) else {
        return Ok(());
    };
    if let Some(len) = T::FIXED_LEN {
        prop_assert!(T::PREFIX_FREE);
        prop_assert_eq!(ea.len(), len, "{:?}", a);
        prop_assert_eq!(eb.len(), len, "{:?}", b);
    }
    if T::PREFIX_FREE && ea != eb {
        prop_assert!(
            !eb.starts_with(&ea) && !ea.starts_with(&eb),
            "{:?} {:?} -> {:?} {:?}",
            a,
            b,
            ea,
            eb
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn declared_shapes_hold(
        ints in (any::<u8>(), any::<u8>(), any::<u64>(), any::<u64>()),
        signed in (any::<i8>(), any::<i8>(), any::<i64>(), any::<i64>()),
        floats in (any::<f64>(), any::<f64>(), any::<f32>(), any::<f32>()),
        scalars in (any::<bool>(), any::<bool>(), any::<char>(), any::<char>()),
        kinds in (kind(), kind()),
        dates in (super::time::date(), super::time::date(), super::time::datetime(), super::time::datetime()),
        ids in (any::<u128>(), any::<u128>()),
        padded in (0u32..1_000_000, 0u32..1_000_000, -999i32..1000, -999i32..1000),
    ) {
        use ddb_entity::key::Padded;
        assert_shape(&ints.0, &ints.1)?;
        assert_shape(&ints.2, &ints.3)?;
        assert_shape(&signed.0, &signed.1)?;
        assert_shape(&signed.2, &signed.3)?;
        assert_shape(&floats.0, &floats.1)?;
        assert_shape(&floats.2, &floats.3)?;
        assert_shape(&scalars.0, &scalars.1)?;
        assert_shape(&scalars.2, &scalars.3)?;
        assert_shape(&kinds.0, &kinds.1)?;
        assert_shape(&dates.0, &dates.1)?;
        assert_shape(&dates.2, &dates.3)?;
        assert_shape(&dates.2.naive_utc(), &dates.3.naive_utc())?;
        assert_shape(&dates.2.time(), &dates.3.time())?;
        assert_shape(&uuid::Uuid::from_u128(ids.0), &uuid::Uuid::from_u128(ids.1))?;
        assert_shape(&ulid::Ulid(ids.0), &ulid::Ulid(ids.1))?;
        assert_shape(&Padded::<6, u32>(padded.0), &Padded::<6, u32>(padded.1))?;
        assert_shape(&Padded::<3, i32>(padded.2), &Padded::<3, i32>(padded.3))?;
        prop_assert!(!<String as ddb_entity::key::KeyPart>::PREFIX_FREE);
        prop_assert_eq!(<i32 as ddb_entity::key::KeyPart>::FIXED_LEN, None);
        prop_assert_eq!(<Padded<3, i32> as ddb_entity::key::KeyPart>::FIXED_LEN, None);
    }
}
