//! Stream records as typed changes: Lambda events written by hand (no
//! server), and a real stream read through the Streams API.

mod end_to_end;
mod lambda_events;
mod model;
