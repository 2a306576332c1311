//! The primary key of an entity the model holds. [`Model::entity`]
//! refuses at compile time an entity `#[derive(Entity)]` did not describe,
//! so every layout here has one; the empty key (`layout::NO_KEY`) stands
//! in only for a layout built by hand against that rule, instead of a
//! panic.
//!
//! [`Model::entity`]: super::Model::entity

use crate::layout::{EntityLayout, KeyLayout, NO_KEY, TemplateLayout};
use crate::table::IndexSchema;

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
        self.primary().unwrap_or(&NO_KEY)
    }

    fn index_keys(&self) -> impl Iterator<Item = (IndexSchema, &KeyLayout)> {
        self.indexes().filter_map(|key| Some((key.index?, key)))
    }
}
