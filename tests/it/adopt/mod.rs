//! Adopting a table designed by hand (seed 003's `USER#email` / `PROFILE` /
//! `ORDER#ts#id` layout, ISO timestamps in keys, no type attribute), written
//! by raw SDK calls: typed reads return what the hand-written data holds,
//! writes through the library leave the format byte for byte as the
//! hand-written code wrote it, and a survey reports the foreign items.

mod filters;
mod formats;
pub mod legacy;
mod reads;
mod scans;
mod survey;
mod tokens;
mod writes;
