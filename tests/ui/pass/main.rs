//! The pass cases: generated code compiles, and runs, without a warning
//! (`#![deny(warnings, missing_docs)]` in every case). One module a case,
//! one test binary for all: cargo builds it (trybuild then only checks the
//! compile-fail cases, and never builds the SDK in its own project).
#![deny(warnings, missing_docs)]
// As trybuild compiles pass cases: the cases declare values they only
// construct (a variant's field, a user type's field), which is not what
// they check.
#![allow(dead_code)]

mod generated_code_is_warning_free;
mod table_options_in_any_order;
mod template_shapes_are_warning_free;
mod user_names_like_generated_helpers;

fn main() -> Result<(), ddb_entity::Error> {
    generated_code_is_warning_free::main()?;
    table_options_in_any_order::main()?;
    template_shapes_are_warning_free::main()?;
    user_names_like_generated_helpers::main()?;
    Ok(())
}
