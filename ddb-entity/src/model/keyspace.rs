//! Key spaces: the set of strings a key template can produce, as a small
//! pattern, and the questions the model asks of them — does a template
//! produce this key, a key under this prefix, a key inside this range, a
//! key another template also produces?
//!
//! A template becomes a sequence of atoms: its literal characters, the
//! `#` between segments, and per hole either a run of exactly
//! [`fixed_len`](crate::layout::HoleLayout::fixed_len) characters or any run
//! of characters. Every character a hole writes is above `#` (the
//! [`KeyPart`](crate::key::KeyPart) contract), so a hole never matches a
//! delimiter; a raw key attribute (`pk = field`) matches anything. A
//! shard segment is a run of its components' one length (`03/16`).
//!
//! The answers are exact for that pattern and conservative for the
//! template: a hole of a fixed length matches *any* characters of that
//! length, so `ADDR#{seq:3}` is taken to be able to write `ADDR#ALL`,
//! which no number writes. A reported overlap can therefore be one no
//! value produces; an overlap that exists is never missed.

use crate::key::prefix_upper_bound;
use crate::layout::{Piece, TemplateLayout, literal_prefix};
use crate::shard::ShardComponent;

/// The characters one atom may match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// Exactly this character.
    Char(char),
    /// Any character but the delimiter `#`: a character a hole writes.
    Component,
    /// Any character: a raw key attribute's.
    Any,
}

impl Class {
    fn meets(self, other: Class) -> bool {
        match (self, other) {
            (Class::Char(a), Class::Char(b)) => a == b,
            (Class::Char(c), Class::Component) | (Class::Component, Class::Char(c)) => c != '#',
            _ => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Atom {
    /// One character of the class.
    One(Class),
    /// Any number of characters of the class, none included.
    Many(Class),
}

/// The strings a template (or a value, or a prefix) stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyPattern {
    atoms: Vec<Atom>,
    /// The literal text every string starts with.
    literal_prefix: String,
    /// Whether the pattern is one string (no hole).
    exact: bool,
}

impl KeyPattern {
    /// The keys `template` writes.
    pub(crate) fn of(template: &TemplateLayout) -> Self {
        Self::of_segments(template.segments, template.raw)
    }

    /// The keys a template of these segments writes (`raw`: a key
    /// attribute that is the field's own string).
    pub(crate) fn of_segments(segments: &[&[Piece]], raw: bool) -> Self {
        let mut atoms = Vec::new();
        for (i, segment) in segments.iter().enumerate() {
            if i > 0 {
                atoms.push(Atom::One(Class::Char('#')));
            }
            for piece in *segment {
                match piece {
                    Piece::Literal(text) => {
                        atoms.extend(text.chars().map(|c| Atom::One(Class::Char(c))));
                    }
                    Piece::Hole(_) if raw => atoms.push(Atom::Many(Class::Any)),
                    // `03/16`: every shard of one count writes as many characters.
                    Piece::Shard(spec) => atoms.extend(std::iter::repeat_n(
                        Atom::One(Class::Component),
                        ShardComponent::len_for(spec.count()),
                    )),
                    Piece::Hole(hole) => match hole.fixed_len {
                        Some(len) => {
                            atoms.extend(std::iter::repeat_n(Atom::One(Class::Component), len));
                        }
                        None => atoms.push(Atom::Many(Class::Component)),
                    },
                }
            }
        }
        let exact = !segments
            .iter()
            .flat_map(|segment| segment.iter())
            .any(|p| matches!(p, Piece::Hole(_) | Piece::Shard(_)));
        KeyPattern {
            atoms,
            literal_prefix: literal_prefix(segments),
            exact,
        }
    }

    /// Any string: an attribute an entity stores as it is.
    pub(crate) fn any() -> Self {
        KeyPattern {
            atoms: vec![Atom::Many(Class::Any)],
            literal_prefix: String::new(),
            exact: false,
        }
    }

    /// Exactly `value`.
    pub(crate) fn value(value: &str) -> Self {
        KeyPattern {
            atoms: value.chars().map(|c| Atom::One(Class::Char(c))).collect(),
            literal_prefix: value.to_owned(),
            exact: true,
        }
    }

    /// The strings followed by the delimiter `#`.
    pub(crate) fn then_delimiter(mut self) -> Self {
        self.atoms.push(Atom::One(Class::Char('#')));
        if self.exact {
            self.literal_prefix.push('#');
        }
        self
    }

    /// The strings followed by anything.
    pub(crate) fn then_anything(mut self) -> Self {
        self.atoms.push(Atom::Many(Class::Any));
        self.exact = false;
        self
    }

    /// Every string starting with `prefix`.
    fn prefix(prefix: &str) -> Self {
        let mut pattern = Self::value(prefix);
        pattern.atoms.push(Atom::Many(Class::Any));
        pattern.exact = false;
        pattern
    }

    /// Whether `value` is one of the strings.
    pub(crate) fn matches(&self, value: &str) -> bool {
        self.meets(&Self::value(value))
    }

    /// Whether some string of the pattern starts with `prefix`.
    pub(crate) fn reaches_prefix(&self, prefix: &str) -> bool {
        self.meets(&Self::prefix(prefix))
    }

    /// Whether some string of the pattern lies in `low ..= high` (`None`:
    /// unbounded), comparing bytes as DynamoDB does. Exact for a pattern
    /// of one string; otherwise judged on the literal prefix every string
    /// starts with, which bounds them from both sides.
    pub(crate) fn reaches_range(&self, low: Option<&str>, high: Option<&str>) -> bool {
        if self.exact {
            let key = self.literal_prefix.as_bytes();
            return low.is_none_or(|low| low.as_bytes() <= key)
                && high.is_none_or(|high| key <= high.as_bytes());
        }
        let prefix = &self.literal_prefix;
        if prefix.is_empty() {
            return true;
        }
        let greatest = prefix_upper_bound(prefix);
        high.is_none_or(|high| prefix.as_bytes() <= high.as_bytes())
            && low.is_none_or(|low| low.as_bytes() <= greatest.as_bytes())
    }

    /// Whether the two patterns share a string: the product of the two
    /// automata, searched breadth first from both starts to both ends.
    pub(crate) fn meets(&self, other: &KeyPattern) -> bool {
        let (a, b) = (&self.atoms, &other.atoms);
        let mut seen = vec![false; (a.len() + 1) * (b.len() + 1)];
        let mut queue = vec![(0usize, 0usize)];
        while let Some((i, j)) = queue.pop() {
            let slot = i * (b.len() + 1) + j;
            if seen[slot] {
                continue;
            }
            seen[slot] = true;
            if i == a.len() && j == b.len() {
                return true;
            }
            // A run may stop: move past it without a character.
            if let Some(Atom::Many(_)) = a.get(i) {
                queue.push((i + 1, j));
            }
            if let Some(Atom::Many(_)) = b.get(j) {
                queue.push((i, j + 1));
            }
            // Both read one character they can agree on.
            let (Some(x), Some(y)) = (a.get(i), b.get(j)) else {
                continue;
            };
            let step = |atom: &Atom, at: usize| match atom {
                Atom::One(class) => (*class, at + 1),
                Atom::Many(class) => (*class, at),
            };
            let ((cx, ni), (cy, nj)) = (step(x, i), step(y, j));
            if cx.meets(cy) && (ni, nj) != (i, j) {
                queue.push((ni, nj));
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Cardinality;
    use crate::layout::HoleLayout;

    fn hole(field: &'static str, fixed_len: Option<usize>) -> Piece {
        Piece::Hole(HoleLayout::new(
            field,
            "T",
            None,
            fixed_len,
            Cardinality::Unbounded,
            false,
            false,
        ))
    }

    fn template(segments: Vec<Vec<Piece>>) -> KeyPattern {
        let segments: Vec<&[Piece]> = segments.iter().map(Vec::as_slice).collect();
        KeyPattern::of_segments(&segments, false)
    }

    #[test]
    fn values_match_their_template_only() {
        let order = template(vec![
            vec![Piece::Literal("ORDER")],
            vec![hole("placed", Some(10))],
            vec![hole("id", None)],
        ]);
        assert!(order.matches("ORDER#2026-03-14#a$`b"));
        assert!(
            !order.matches("ORDER#2026-03-1#x"),
            "a fixed width is exact"
        );
        assert!(
            !order.matches("ORDER#2026-03-14#x#y"),
            "holes never write #"
        );
        assert!(order.reaches_prefix("ORDER#2026-03"));
        assert!(!order.reaches_prefix("ORDERS"));
    }

    #[test]
    fn templates_meet_only_where_their_segments_can_agree() {
        let profile = template(vec![vec![Piece::Literal("PROFILE")]]);
        let order = template(vec![vec![Piece::Literal("ORDER")], vec![hole("id", None)]]);
        let nested = template(vec![
            vec![Piece::Literal("ORDER")],
            vec![hole("id", None)],
            vec![Piece::Literal("LINE")],
        ]);
        let named = template(vec![vec![hole("name", None)]]);
        assert!(!profile.meets(&order));
        assert!(!order.meets(&nested), "another number of segments");
        assert!(
            named.meets(&profile),
            "a hole-led template reaches every literal"
        );
        assert!(!named.meets(&order), "but never a #");
        assert!(KeyPattern::any().meets(&nested));
    }

    #[test]
    fn a_shard_segment_is_one_whole_component_of_its_count() {
        let spec = crate::shard::ShardSpec::new(16, &["id"]);
        let sharded = template(vec![
            vec![Piece::Literal("STATUS")],
            vec![hole("status", None)],
            vec![Piece::Shard(spec)],
        ]);
        assert!(sharded.matches("STATUS#open#03/16"));
        assert!(
            !sharded.matches("STATUS#open#"),
            "the prefix of every shard is none of them"
        );
        assert!(!sharded.matches("STATUS#open#3/16"));
    }

    #[test]
    fn ranges_are_judged_on_the_literal_prefix() {
        let order = template(vec![vec![Piece::Literal("ORDER")], vec![hole("id", None)]]);
        assert!(order.reaches_range(Some("ORDER#"), Some("ORDER#\u{10FFFF}")));
        assert!(!order.reaches_range(Some("PROFILE"), None));
        assert!(!order.reaches_range(None, Some("ADDR#\u{10FFFF}")));
        let profile = template(vec![vec![Piece::Literal("PROFILE")]]);
        assert!(profile.reaches_range(Some("P"), Some("Q")));
        assert!(!profile.reaches_range(Some("PROFILE$"), None));
    }
}
