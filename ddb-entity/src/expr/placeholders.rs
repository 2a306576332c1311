//! Placeholder allocation: every attribute name and value in an
//! expression is a placeholder (`#n0`, `:v0`), so reserved words (`status`,
//! `name`, `size`, …) and values with any content just work.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

/// Names and values of one expression, allocated as placeholders.
#[derive(Debug, Default)]
pub(crate) struct Placeholders {
    pub(crate) names: HashMap<String, String>,
    pub(crate) values: HashMap<String, AttributeValue>,
}

impl Placeholders {
    /// `#nK` for `attribute`, reusing the placeholder of a name seen before.
    pub(crate) fn name(&mut self, attribute: &str) -> String {
        if let Some((placeholder, _)) = self.names.iter().find(|(_, a)| *a == attribute) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.names.len());
        self.names.insert(placeholder.clone(), attribute.to_owned());
        placeholder
    }

    /// `:vK` for `value`.
    pub(crate) fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// The names map, or `None` when empty (the SDK refuses an empty map).
    pub(crate) fn names_or_none(&self) -> Option<HashMap<String, String>> {
        (!self.names.is_empty()).then(|| self.names.clone())
    }

    /// The values map, or `None` when empty.
    pub(crate) fn values_or_none(&self) -> Option<HashMap<String, AttributeValue>> {
        (!self.values.is_empty()).then(|| self.values.clone())
    }
}
