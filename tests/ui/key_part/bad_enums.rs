use ddb_entity::KeyPart;

#[derive(KeyPart)]
pub enum WithData {
    Open(u32),
    Closed,
}

#[derive(KeyPart)]
pub enum BadNames {
    #[key(rename = "in progress")]
    InProgress,
    #[key(rename = "DONE")]
    Done,
    #[key(rename = "DONE")]
    Finished,
    #[key(name = "X")]
    Other,
}

#[derive(KeyPart)]
pub struct NotAnEnum;

fn main() {}
