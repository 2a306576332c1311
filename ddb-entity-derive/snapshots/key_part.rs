#[automatically_derived]
impl ::ddb_entity::key::KeyPart for Priority {
    const PREFIX_FREE: bool = true;
    const ORDERED: bool = false;
    const CARDINALITY: ::ddb_entity::key::Cardinality = ::ddb_entity::key::Cardinality::AtMost(
        3u64,
    );
    fn encode_key(
        &self,
        out: &mut ::std::string::String,
    ) -> ::core::result::Result<(), ::ddb_entity::key::KeyError> {
        out.push_str(
            match self {
                Self::Low => "Low",
                Self::Medium => "MEDIUM",
                Self::High => "High",
            },
        );
        ::core::result::Result::Ok(())
    }
}
#[automatically_derived]
impl ::ddb_entity::key::DecodeKeyPart for Priority {
    fn decode_key(
        component: &::core::primitive::str,
    ) -> ::core::result::Result<Self, ::ddb_entity::key::KeyError> {
        match component {
            "Low" => ::core::result::Result::Ok(Self::Low),
            "MEDIUM" => ::core::result::Result::Ok(Self::Medium),
            "High" => ::core::result::Result::Ok(Self::High),
            _ => {
                ::core::result::Result::Err(
                    ::ddb_entity::key::KeyError::malformed(
                        "Priority (one of `Low`, `MEDIUM`, `High`)",
                        component,
                    ),
                )
            }
        }
    }
}
