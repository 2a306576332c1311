#[automatically_derived]
impl ::ddb_entity::key::KeyPart for Priority {
    const PREFIX_FREE: bool = true;
    fn encode_key(
        &self,
        out: &mut ::std::string::String,
    ) -> ::core::result::Result<(), ::ddb_entity::key::KeyError> {
        out.push_str(
            match self {
                Self::Low => "00-Low",
                Self::Medium => "01-MEDIUM",
                Self::High => "02-High",
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
            "00-Low" => ::core::result::Result::Ok(Self::Low),
            "01-MEDIUM" => ::core::result::Result::Ok(Self::Medium),
            "02-High" => ::core::result::Result::Ok(Self::High),
            _ => {
                ::core::result::Result::Err(
                    ::ddb_entity::key::KeyError::malformed(
                        "Priority (one of `00-Low`, `01-MEDIUM`, `02-High`)",
                        component,
                    ),
                )
            }
        }
    }
}
