//! `bool`.

use ddb_entity::key;
use proptest::prelude::*;

use super::{assert_contract, enc};

proptest! {
    #[test]
    fn contract(a in any::<bool>(), b in any::<bool>()) {
        assert_contract(&a, &b)?;
    }
}

#[test]
fn false_sorts_first_and_decoding_is_strict() {
    assert_eq!((enc(&false), enc(&true)), ("false".into(), "true".into()));
    for bad in ["", "TRUE", "True", "1", "0", "truee", "fals", " true"] {
        assert!(key::decode::<bool>(bad).is_err(), "{bad:?}");
    }
}
