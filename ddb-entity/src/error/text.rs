//! Small helpers that keep messages readable.

use std::fmt;

/// A type name with its indefinite article, in backticks: "an `Order`",
/// "a `Customer`", "a `User`" (a `u` that sounds like "you" takes "a").
pub(crate) fn a(name: &str) -> impl fmt::Display + '_ {
    struct Article<'a>(&'a str);
    impl fmt::Display for Article<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let article = if starts_with_vowel_sound(self.0) {
                "an"
            } else {
                "a"
            };
            write!(f, "{article} `{}`", self.0)
        }
    }
    Article(name)
}

fn starts_with_vowel_sound(word: &str) -> bool {
    let lower: Vec<char> = word.chars().take(3).flat_map(char::to_lowercase).collect();
    let vowel = |c: &char| "aeiou".contains(*c);
    match lower.as_slice() {
        // "User", "Unit", "Usage" (a consonant, then a vowel, after the
        // `u`) sound like "you"; "Update", "Umbrella" do not.
        ['u', second, third, ..] => vowel(second) || !vowel(third),
        [first, ..] => vowel(first),
        [] => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_follow_the_sound() {
        let cases = [
            ("Order", "an `Order`"),
            ("Customer", "a `Customer`"),
            ("Address", "an `Address`"),
            ("User", "a `User`"),
            ("Unit", "a `Unit`"),
            ("Update", "an `Update`"),
            ("Item", "an `Item`"),
        ];
        for (name, expected) in cases {
            assert_eq!(a(name).to_string(), expected);
        }
    }
}
