//! Names: a field's name as written in templates, generated function
//! names, and "did you mean" suggestions.

use syn::Ident;
use syn::ext::IdentExt;

/// The identifier without its raw prefix: `type` for `r#type`. Templates,
/// messages, attribute names and generated method names all use it.
pub(crate) fn unraw(ident: &Ident) -> String {
    ident.unraw().to_string()
}

/// `gsi1` for `Gsi1`, `by_email` for `ByEmail`.
pub(crate) fn snake(ident: &Ident) -> String {
    let mut out = String::new();
    for (i, c) in unraw(ident).chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The candidate nearest to `name`, if it is near enough to be a typo of
/// it (about one edit in three characters).
pub(crate) fn closest<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let limit = name.chars().count().max(3) / 3 + 1;
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unraw_and_snake() {
        let raw: Ident = syn::parse_quote!(r#type);
        assert_eq!(unraw(&raw), "type");
        let index: Ident = syn::parse_quote!(ByEmail);
        assert_eq!(snake(&index), "by_email");
    }

    #[test]
    fn suggests_near_names_only() {
        let options = ["table", "pk", "sk", "version"];
        assert_eq!(closest("tabel", options), Some("table"));
        assert_eq!(closest("verison", options), Some("version"));
        assert_eq!(closest("ttl", options), None);
        assert_eq!(
            closest("custmer_id", ["customer_id", "id"]),
            Some("customer_id")
        );
    }
}
