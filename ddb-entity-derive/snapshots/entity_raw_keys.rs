const _: () = {
    /// The identity on types, reached through an array whose length
    /// holds a check (see the derive's `expand/checks.rs`).
    pub trait __KeyType<T: ?::core::marker::Sized> {
        type Checked: ?::core::marker::Sized;
    }
    impl<T: ?::core::marker::Sized> __KeyType<T> for [(); 0] {
        type Checked = T;
    }
    #[allow(dead_code)]
    fn __checked<T: ?::core::marker::Sized>(value: &T) -> &T {
        value
    }
    #[allow(non_camel_case_types)]
    type __Key_session_token = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        ::ddb_entity::__private::assert_raw_key::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_username = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        ::ddb_entity::__private::assert_raw_key::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[cfg(not(doc))]
    type __TableNamed = Sessions;
    #[cfg(not(doc))]
    type __Table = <[(); {
        ::ddb_entity::__private::assert_table::<__TableNamed>();
        0
    }] as __KeyType<__TableNamed>>::Checked;
    #[cfg(doc)]
    type __Table = Sessions;
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __IndexNamed_user_index = UserIndex;
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __Index_user_index = <[(); {
        ::ddb_entity::__private::index_of_table::<__IndexNamed_user_index, __Table>();
        0
    }] as __KeyType<__IndexNamed_user_index>>::Checked;
    #[cfg(doc)]
    #[allow(non_camel_case_types)]
    type __Index_user_index = UserIndex;
    const _: () = ::core::assert!(
        ! ::ddb_entity::__private::index_has_sort_key:: < __Index_user_index > (),
        "index `UserIndex` has a sort key in its `table!` declaration: add `sk = \"…\"` to this #[entity(index = UserIndex, …)]"
    );
    const _: () = ::core::assert!(
        ! ::ddb_entity::__private::table_has_sort_key:: < __Table > (),
        "table `Sessions` has a sort key, so its entities have a sort key template: add one, e.g. sk = \"PROFILE\" or sk = \"ORDER#{{order_id}}\""
    );
    const _: () = ::core::assert!(
        ::ddb_entity::__private::same_name(< __Table as ::ddb_entity::Table > ::SCHEMA
        .primary.partition_key, "session_token"),
        "`session_token` is the partition key of table `Sessions` itself, so it must be stored under the key attribute's name, but serde stores it as `session_token`, which is not the name `table!` declares for that key: rename the field, or add #[serde(rename = \"…\")] with the attribute's name"
    );
    const _: () = ::core::assert!(
        ::ddb_entity::__private::same_name(< __Index_user_index as ::ddb_entity::Index >
        ::SCHEMA.keys.partition_key, "username"),
        "`username` is the partition key of index `UserIndex` itself, so it must be stored under the key attribute's name, but serde stores it as `username`, which is not the name `table!` declares for that key: rename the field, or add #[serde(rename = \"…\")] with the attribute's name"
    );
    #[automatically_derived]
    impl Session {
        ///The primary key of the `Session` with these key fields: `session_token`.
        pub fn key(
            session_token: impl ::ddb_entity::RawKey,
        ) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Session");
            __pk.raw(&session_token);
            ::ddb_entity::Key::new(
                __pk.finish_partition()?,
                ::std::string::String::new(),
            )
        }
        ///The partition `session_token`: where a Query for `Session` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            session_token: impl ::ddb_entity::RawKey,
        ) -> ::ddb_entity::Result<
            ::ddb_entity::Partition<::ddb_entity::Primary<__Table>>,
        > {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Session");
            __pk.raw(&session_token);
            ::ddb_entity::Partition::new(__pk.finish_partition()?)
        }
        ///The partition `username` of index `UserIndex`: where a Query for `Session` items on that index starts.
        pub fn user_index_partition(
            username: impl ::ddb_entity::RawKey,
        ) -> ::ddb_entity::Result<::ddb_entity::Partition<__Index_user_index>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Session");
            __pk.raw(&username);
            ::ddb_entity::Partition::new(
                __pk.finish_index_partition::<__Index_user_index>()?,
            )
        }
        ///The stored fields of `Session`, to name in an update.
        pub const fn fields() -> SessionFields {
            SessionFields {
                session_token: ::ddb_entity::Field::new(
                    "session_token",
                    "session_token",
                ),
                username: ::ddb_entity::Field::new("username", "username"),
                expires_at: ::ddb_entity::Field::new("expires_at", "expires_at"),
            }
        }
    }
    #[automatically_derived]
    impl Session {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &::core::primitive::str,
            __sort: &::core::primitive::str,
        ) -> ::core::result::Result<
            (__Key_session_token,),
            ::ddb_entity::key::KeyError,
        > {
            let __decoded_session_token: __Key_session_token = ::core::convert::From::from(
                ::std::string::String::from(__partition),
            );
            ::core::result::Result::Ok((__decoded_session_token,))
        }
    }
    ///The stored fields of `Session`, for typed updates: `Session::fields()`.
    #[derive(Debug, Clone, Copy)]
    pub struct SessionFields {
        ///`Session::session_token`, stored as `session_token`.
        pub session_token: ::ddb_entity::Field<
            Session,
            String,
            ::ddb_entity::field::PrimaryKeyPart,
        >,
        ///`Session::username`, stored as `username`.
        pub username: ::ddb_entity::Field<
            Session,
            String,
            ::ddb_entity::field::IndexKeyPart,
        >,
        ///`Session::expires_at`, stored as `expires_at`.
        pub expires_at: ::ddb_entity::Field<Session, u64, ::ddb_entity::field::Stored>,
    }
    #[automatically_derived]
    impl ::ddb_entity::Entity for Session {
        type Table = __Table;
        const RUST_NAME: &'static ::core::primitive::str = "Session";
        const TYPE_TAG: &'static ::core::primitive::str = "SESSION";
        const INDEXES: &'static [::ddb_entity::IndexSchema] = &[
            <__Index_user_index as ::ddb_entity::Index>::SCHEMA,
        ];
        const LAYOUT: &'static ::ddb_entity::layout::EntityLayout = &::ddb_entity::layout::EntityLayout::new(
            "Session",
            "SESSION",
            &[
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::None,
                    ::ddb_entity::layout::TemplateLayout::new(
                        "session_token",
                        true,
                        &[
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "session_token",
                                        "String",
                                        ::core::option::Option::None,
                                        ::core::option::Option::None,
                                        ::ddb_entity::key::Cardinality::Unbounded,
                                        false,
                                        false,
                                    ),
                                ),
                            ],
                        ],
                    ),
                    ::core::option::Option::None,
                    false,
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                ),
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::Some(
                        <__Index_user_index as ::ddb_entity::Index>::SCHEMA,
                    ),
                    ::ddb_entity::layout::TemplateLayout::new(
                        "username",
                        true,
                        &[
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "username",
                                        "String",
                                        ::core::option::Option::None,
                                        ::core::option::Option::None,
                                        ::ddb_entity::key::Cardinality::Unbounded,
                                        false,
                                        false,
                                    ),
                                ),
                            ],
                        ],
                    ),
                    ::core::option::Option::None,
                    false,
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                ),
            ],
            &[
                ::ddb_entity::layout::FieldLayout::new(
                    "session_token",
                    "session_token",
                    "String",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "username",
                    "username",
                    "String",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "expires_at",
                    "expires_at",
                    "u64",
                    false,
                ),
            ],
            false,
        );
        fn primary_key(&self) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            Self::key(__checked::<__Key_session_token>(&self.session_token))
        }
        fn index_entries(
            &self,
        ) -> ::ddb_entity::Result<::std::vec::Vec<::ddb_entity::IndexEntry>> {
            #[allow(unused_mut)]
            let mut entries = ::std::vec::Vec::with_capacity(1usize);
            entries
                .push(::ddb_entity::IndexEntry {
                    index: <__Index_user_index as ::ddb_entity::Index>::SCHEMA,
                    key: ::core::option::Option::Some(::ddb_entity::IndexKey {
                        partition: Self::user_index_partition(
                                __checked::<__Key_username>(&self.username),
                            )?
                            .into_string(),
                        sort: ::core::option::Option::None,
                    }),
                });
            ::core::result::Result::Ok(entries)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::__private::EntityHooks for Session {
        const KEY_FIELD_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[];
        const KEY_ONLY_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[];
        fn key_matches(
            __partition: &::core::primitive::str,
            __sort: ::core::option::Option<&::core::primitive::str>,
        ) -> ::core::primitive::bool {
            let __sort = "";
            Self::__read_key(__partition, __sort).is_ok()
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &::ddb_entity::Key<Self>,
            changes: &::ddb_entity::__private::Changes,
        ) -> ::ddb_entity::Result<
            ::std::vec::Vec<::ddb_entity::__private::IndexChange>,
        > {
            let _ = key;
            #[allow(unused_mut)]
            let mut out = ::std::vec::Vec::new();
            if changes.touches(&["username"]) {
                let __field_username: &String = match changes
                    .lookup::<String>("username")
                {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Session",
                                <__Index_user_index as ::ddb_entity::Index>::SCHEMA.name,
                                "username",
                            ),
                        );
                    }
                };
                let username: &__Key_username = __field_username;
                out.push(
                    ::ddb_entity::__private::IndexChange::Set(
                        <__Index_user_index as ::ddb_entity::Index>::SCHEMA,
                        ::ddb_entity::IndexKey {
                            partition: Self::user_index_partition(username)?
                                .into_string(),
                            sort: ::core::option::Option::None,
                        },
                    ),
                );
            } else if changes.creates() {
                return ::core::result::Result::Err(
                    ::ddb_entity::__private::missing_key_field(
                        "Session",
                        <__Index_user_index as ::ddb_entity::Index>::SCHEMA.name,
                        "username",
                    ),
                );
            }
            ::core::result::Result::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &::ddb_entity::Key<Self>,
        ) -> ::ddb_entity::Result<
            ::std::vec::Vec<
                (
                    &'static ::core::primitive::str,
                    ::ddb_entity::sdk::types::AttributeValue,
                ),
            >,
        > {
            let (__decoded_session_token,) = Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let session_token = &__decoded_session_token;
            #[allow(unused_mut)]
            let mut fields = ::std::vec::Vec::with_capacity(1usize);
            ::core::result::Result::Ok(fields)
        }
    }
    const _: () = ::ddb_entity::__private::assert_global_index::<__Index_user_index>();
};
