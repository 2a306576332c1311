//! Key-layout snapshots: every entity's templates and the exact keys
//! written for sample values, as stable text to commit and compare.
//!
//! A key is where an item *is*: change an encoder, a template, a width or
//! a shard count and every item stored under the old keys is no longer
//! found by the new code. Committing the layout makes such a change a
//! reviewed diff instead of a silent orphaning.

use std::fmt::Write;

use super::described::PrimaryKey;
use super::table_model::Model;
use crate::entity::Entity;
use crate::error::{Repr, Result};
use crate::layout::{EntityLayout, TemplateLayout};
use crate::table::Table;

/// The key layout of a model's entities for sample values, rendered by
/// [`render`](LayoutSnapshot::render) into a stable text to compare with a
/// committed snapshot (with `expect-test` or `insta`). Made by
/// [`Model::key_layout`].
///
/// ```
/// use ddb_entity::Entity;
/// use ddb_entity::model::Model;
/// use serde::{Deserialize, Serialize};
///
/// ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
///
/// #[derive(Entity, Serialize, Deserialize)]
/// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
/// struct Address { customer_id: u64, seq: u16, city: String }
///
/// let model = Model::<App>::new("shop").entity::<Address>();
/// let layout = model
///     .key_layout()
///     .sample(&Address { customer_id: 42, seq: 7, city: "Oslo".into() })
///     .sample(&Address { customer_id: 42, seq: 1000, city: "Bergen".into() })
///     .render()?;
/// assert!(layout.contains(r#"PK = "CUST#42"  SK = "ADDR#007""#));
/// assert!(layout.contains("refused: "), "1000 does not fit 3 digits:\n{layout}");
/// # Ok::<(), ddb_entity::Error>(())
/// ```
#[must_use = "render the layout and compare it with the committed snapshot"]
pub struct LayoutSnapshot<'m, T: Table> {
    model: &'m Model<T>,
    /// Per entity (by Rust name), the rendered keys of each sample.
    samples: Vec<(&'static str, Vec<String>)>,
    /// Samples of entities the model does not list.
    strangers: Vec<&'static str>,
}

impl<T: Table> Model<T> {
    /// A key-layout snapshot of this model: add sample values of every
    /// entity with [`LayoutSnapshot::sample`], then [`render`](LayoutSnapshot::render).
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
    /// struct Address { customer_id: u64, seq: u16, city: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<Address>();
    /// let layout = model.key_layout().sample(&Address { customer_id: 7, seq: 1, city: "Oslo".into() }).render()?;
    /// assert!(layout.contains("CUST#{customer_id}"));
    /// assert!(layout.contains(r#"SK = "ADDR#001""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn key_layout(&self) -> LayoutSnapshot<'_, T> {
        LayoutSnapshot {
            model: self,
            samples: Vec::new(),
            strangers: Vec::new(),
        }
    }
}

impl<T: Table> LayoutSnapshot<'_, T> {
    /// Adds a representative value of an entity of the model: its keys are
    /// written exactly as a put writes them (a value whose key cannot be
    /// encoded shows why). Choose values that show padding (small and
    /// large numbers), escaping (a space, a `#`, a `$`), absent sparse
    /// index keys and, with shards, the shard.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
    /// struct Address { customer_id: u64, seq: u16, city: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<Address>();
    /// // Two samples: padding shows on both.
    /// let layout = model
    ///     .key_layout()
    ///     .sample(&Address { customer_id: 7, seq: 1, city: "Oslo".into() })
    ///     .sample(&Address { customer_id: 7, seq: 999, city: "Bergen".into() })
    ///     .render()?;
    /// assert!(layout.contains(r#"SK = "ADDR#001""#) && layout.contains(r#"SK = "ADDR#999""#));
    /// # Ok::<(), ddb_entity::Error>(())
    /// ```
    pub fn sample<E: Entity<Table = T>>(mut self, value: &E) -> Self {
        let name = E::RUST_NAME;
        if self.model.entity_layout(name).is_none() {
            self.strangers.push(name);
            return self;
        }
        let keys = sample_keys(value, &T::SCHEMA);
        match self.samples.iter_mut().find(|(n, _)| *n == name) {
            Some((_, keys_of)) => keys_of.push(keys),
            None => self.samples.push((name, vec![keys])),
        }
        self
    }

    /// The layout as text: per entity, its templates, then the keys of each
    /// sample. An entity of the model without a sample, or a sample of an
    /// entity the model does not list, is an
    /// [`ErrorKind::InvalidSchema`](crate::error::ErrorKind::InvalidSchema) error
    /// naming them: a layout that leaves out an entity would let its keys
    /// change unseen.
    ///
    /// ```
    /// # use ddb_entity::Entity;
    /// # use ddb_entity::model::Model;
    /// # use serde::{Deserialize, Serialize};
    /// # ddb_entity::table! { pub struct App { partition_key: "PK", sort_key: "SK" } }
    /// #[derive(Entity, Serialize, Deserialize)]
    /// #[entity(table = App, pk = "CUST#{customer_id}", sk = "ADDR#{seq:3}")]
    /// struct Address { customer_id: u64, seq: u16, city: String }
    ///
    /// let model = Model::<App>::new("shop").entity::<Address>();
    /// // Without a sample of Address, no layout: its keys could change unseen.
    /// let err = model.key_layout().render().unwrap_err();
    /// assert_eq!(err.kind(), ddb_entity::ErrorKind::InvalidSchema);
    /// assert!(err.to_string().contains("Address"));
    /// ```
    pub fn render(&self) -> Result<String> {
        let missing: Vec<&str> = self
            .model
            .entities()
            .iter()
            .map(|e| e.entity)
            .filter(|name| !self.samples.iter().any(|(n, _)| n == name))
            .collect();
        if !missing.is_empty() || !self.strangers.is_empty() {
            let mut detail = String::from("the key layout ");
            if !missing.is_empty() {
                let _ = write!(detail, "has no sample of {}", missing.join(", "));
            }
            if !self.strangers.is_empty() {
                if !missing.is_empty() {
                    detail.push_str(", and ");
                }
                let _ = write!(
                    detail,
                    "has samples of {}, which the model does not list",
                    self.strangers.join(", ")
                );
            }
            return Err(Repr::InvalidSchema { detail }.into());
        }
        let schema = &T::SCHEMA;
        let mut out = String::new();
        let _ = writeln!(out, "# Key layout of table `{}`", self.model.table_name());
        out.push_str("# Every line below is where stored items are. A change to one means items\n");
        out.push_str(
            "# written under the old keys are no longer found: migrate them, or revert.\n",
        );
        for entity in self.model.entities() {
            out.push('\n');
            let _ = writeln!(out, "{} (type `{}`)", entity.entity, entity.type_tag);
            templates(&mut out, entity, schema);
            let samples = self
                .samples
                .iter()
                .find(|(n, _)| *n == entity.entity)
                .map(|(_, s)| s.as_slice())
                .unwrap_or_default();
            for (i, keys) in samples.iter().enumerate() {
                let _ = writeln!(out, "  sample {}", i + 1);
                out.push_str(keys);
            }
        }
        Ok(out)
    }
}

fn templates(out: &mut String, entity: &EntityLayout, schema: &crate::table::TableSchema) {
    let shown = |t: &TemplateLayout| {
        let widths: Vec<String> = t
            .holes()
            .filter_map(|h| h.fixed_len.map(|n| format!("{}: {n} chars", h.field)))
            .collect();
        match widths.is_empty() {
            true => t.source.to_owned(),
            false => format!("{}  ({})", t.source, widths.join(", ")),
        }
    };
    let _ = writeln!(
        out,
        "  table  {} = {}",
        schema.primary.partition_key,
        shown(entity.pk())
    );
    if let (Some(name), Some(sk)) = (schema.primary.sort_key, entity.sk()) {
        let _ = writeln!(out, "         {name} = {}", shown(sk));
    }
    for (index, key) in entity.index_keys() {
        let sparse = if key.sparse { "  (sparse)" } else { "" };
        let _ = writeln!(
            out,
            "  {}  {} = {}{sparse}",
            index.name,
            index.keys.partition_key,
            shown(&key.partition)
        );
        if let (Some(name), Some(sk)) = (index.keys.sort_key, &key.sort) {
            let pad = " ".repeat(index.name.len() + 2);
            let _ = writeln!(out, "  {pad}{name} = {}", shown(sk));
        }
    }
}

/// The keys a put of `value` writes, one line per table or index.
fn sample_keys<E: Entity>(value: &E, schema: &crate::table::TableSchema) -> String {
    let mut out = String::new();
    match value.primary_key() {
        Ok(key) => {
            let _ = write!(
                out,
                "    table: {} = {:?}",
                schema.primary.partition_key,
                key.partition()
            );
            if let Some(name) = schema.primary.sort_key {
                let _ = write!(out, "  {name} = {:?}", key.sort());
            }
            out.push('\n');
        }
        Err(err) => {
            let _ = writeln!(out, "    table: refused: {err}");
            return out;
        }
    }
    match value.index_entries() {
        Ok(entries) => {
            for entry in entries {
                let keys = entry.index.keys;
                match entry.key {
                    Some(key) => {
                        let _ = write!(
                            out,
                            "    {}: {} = {:?}",
                            entry.index.name, keys.partition_key, key.partition
                        );
                        if let (Some(name), Some(sort)) = (keys.sort_key, key.sort) {
                            let _ = write!(out, "  {name} = {sort:?}");
                        }
                        out.push('\n');
                    }
                    None => {
                        let _ = writeln!(out, "    {}: absent (sparse)", entry.index.name);
                    }
                }
            }
        }
        Err(err) => {
            let _ = writeln!(out, "    indexes: refused: {err}");
        }
    }
    out
}
