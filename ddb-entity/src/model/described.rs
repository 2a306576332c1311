//! The primary key of an entity the model holds. [`Model::entity`]
//! refuses at compile time an entity `#[derive(Entity)]` did not describe,
//! so every layout here has one; the empty key below only keeps a layout
//! built by hand against that rule from panicking.
//!
//! [`Model::entity`]: super::Model::entity

use crate::layout::{EntityLayout, KeyLayout, TemplateLayout};
use crate::table::IndexSchema;

/// An undescribed entity's stand-in primary key: no segment, no sort key.
const NO_KEY: &KeyLayout = &KeyLayout::new(
    None,
    TemplateLayout::new("", false, &[]),
    None,
    false,
    None,
    None,
);

/// The primary key templates of an entity of the model.
pub(crate) trait PrimaryKey {
    /// The table's key of the entity.
    fn primary_key(&self) -> &KeyLayout;

    /// The partition key template of the table.
    fn pk(&self) -> &TemplateLayout {
        &self.primary_key().partition
    }

    /// The sort key template of the table, if it has a sort key.
    fn sk(&self) -> Option<&TemplateLayout> {
        self.primary_key().sort.as_ref()
    }

    /// Each index the entity fills, with its key there.
    fn index_keys(&self) -> impl Iterator<Item = (IndexSchema, &KeyLayout)>;
}

impl PrimaryKey for EntityLayout {
    fn primary_key(&self) -> &KeyLayout {
        self.primary().unwrap_or(NO_KEY)
    }

    fn index_keys(&self) -> impl Iterator<Item = (IndexSchema, &KeyLayout)> {
        self.indexes().filter_map(|key| Some((key.index?, key)))
    }
}
