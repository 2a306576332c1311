use ddb_entity::Collection;

#[derive(Collection)]
pub struct Nothing {}

#[derive(Collection)]
pub enum Never {}

fn main() {}
