#[allow(non_camel_case_types)]
const _: () = {
    use ::ddb_entity as __ddb;
    use ::ddb_entity::__private as __p;
    type __Key_session_token = __p::Checked<
        String,
        {
            __p::assert_key_part::<String>();
            __p::assert_raw_key::<String>();
            0
        },
    >;
    type __Key_username = __p::Checked<
        String,
        {
            __p::assert_key_part::<String>();
            __p::assert_raw_key::<String>();
            0
        },
    >;
    #[cfg(not(doc))]
    type __TableNamed = Sessions;
    #[cfg(not(doc))]
    type __Table = __p::Checked<__TableNamed, { __p::assert_table::<__TableNamed>() }>;
    #[cfg(doc)]
    type __Table = Sessions;
    #[cfg(not(doc))]
    type __IndexNamed_user_index = UserIndex;
    #[cfg(not(doc))]
    type __Index_user_index = __p::Checked<
        __IndexNamed_user_index,
        { __p::index_of_table::<__IndexNamed_user_index, __Table>() },
    >;
    #[cfg(doc)]
    type __Index_user_index = UserIndex;
    const _: () = ::core::assert!(
        ! __p::index_has_sort_key:: < __Index_user_index > (),
        "index `UserIndex` has a sort key in its `table!` declaration: add `sk = \"…\"` to this #[entity(index = UserIndex, …)]"
    );
    const _: () = ::core::assert!(
        ! __p::table_has_sort_key:: < __Table > (),
        "table `Sessions` has a sort key, so its entities have a sort key template: add one, e.g. sk = \"PROFILE\" or sk = \"ORDER#{{order_id}}\""
    );
    const _: () = ::core::assert!(
        __p::same_name(< __Table as __ddb::Table > ::SCHEMA.primary.partition_key,
        "session_token"),
        "`session_token` is the partition key of table `Sessions` itself, so it must be stored under the key attribute's name, but serde stores it as `session_token`, which is not the name `table!` declares for that key: rename the field, or add #[serde(rename = \"…\")] with the attribute's name"
    );
    const _: () = ::core::assert!(
        __p::same_name(< __Index_user_index as __ddb::Index > ::SCHEMA.keys
        .partition_key, "username"),
        "`username` is the partition key of index `UserIndex` itself, so it must be stored under the key attribute's name, but serde stores it as `username`, which is not the name `table!` declares for that key: rename the field, or add #[serde(rename = \"…\")] with the attribute's name"
    );
    impl Session {
        ///The primary key of the `Session` with these key fields: `session_token`.
        pub fn key(
            session_token: impl __ddb::RawKey,
        ) -> __ddb::Result<__ddb::Key<Self>> {
            let mut __pk = __p::KeyWriter::new("Session");
            __pk.raw(&session_token);
            __ddb::Key::new(__pk.finish_partition()?, __p::String::new())
        }
        ///The partition `session_token`: where a Query for `Session` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            session_token: impl __ddb::RawKey,
        ) -> __ddb::Result<__ddb::Partition<__ddb::Primary<__Table>>> {
            let mut __pk = __p::KeyWriter::new("Session");
            __pk.raw(&session_token);
            __ddb::Partition::new(__pk.finish_partition()?)
        }
        ///The partition `username` of index `UserIndex`: where a Query for `Session` items on that index starts.
        pub fn user_index_partition(
            username: impl __ddb::RawKey,
        ) -> __ddb::Result<__ddb::Partition<__Index_user_index>> {
            let mut __pk = __p::KeyWriter::new("Session");
            __pk.raw(&username);
            __ddb::Partition::new(__pk.finish_index_partition::<__Index_user_index>()?)
        }
        ///The stored fields of `Session`, to name in an update.
        pub const fn fields() -> SessionFields {
            SessionFields {
                session_token: __ddb::Field::new("session_token", "session_token"),
                username: __ddb::Field::new("username", "username"),
                expires_at: __ddb::Field::new("expires_at", "expires_at"),
            }
        }
    }
    impl Session {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<(__Key_session_token,), __ddb::key::KeyError> {
            let __decoded_session_token: __Key_session_token = ::core::convert::From::from(
                __p::String::from(__partition),
            );
            __p::Ok((__decoded_session_token,))
        }
    }
    ///The stored fields of `Session`, for typed updates: `Session::fields()`.
    pub struct SessionFields {
        ///`Session::session_token`, stored as `session_token`.
        pub session_token: __ddb::Field<Session, String, __ddb::field::PrimaryKeyPart>,
        ///`Session::username`, stored as `username`.
        pub username: __ddb::Field<Session, String, __ddb::field::IndexKeyPart>,
        ///`Session::expires_at`, stored as `expires_at`.
        pub expires_at: __ddb::Field<Session, u64, __ddb::field::Stored>,
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for SessionFields {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __p::debug_fields(f, "SessionFields", <Session as __ddb::Entity>::LAYOUT)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for SessionFields {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for SessionFields {}
    #[automatically_derived]
    impl __ddb::Entity for Session {
        type Table = __Table;
        const RUST_NAME: &'static __p::str = "Session";
        const TYPE_TAG: &'static __p::str = "SESSION";
        const INDEXES: &'static [__ddb::IndexSchema] = &[
            <__Index_user_index as __ddb::Index>::SCHEMA,
        ];
        const LAYOUT: &'static __ddb::layout::EntityLayout = &__ddb::layout::EntityLayout::new(
            "Session",
            "SESSION",
            &[
                __p::layout::primary(
                    __p::layout::template(
                        "session_token",
                        true,
                        &[&[__p::layout::raw_hole("session_token", "String", false)]],
                    ),
                    __p::None,
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_user_index as __ddb::Index>::SCHEMA,
                    __p::layout::template(
                        "username",
                        true,
                        &[&[__p::layout::raw_hole("username", "String", false)]],
                    ),
                    __p::None,
                    false,
                    __p::None,
                    __p::None,
                ),
            ],
            &[
                __p::layout::field("session_token", "session_token", "String", false),
                __p::layout::field("username", "username", "String", false),
                __p::layout::field("expires_at", "expires_at", "u64", false),
            ],
            false,
        );
        fn primary_key(&self) -> __ddb::Result<__ddb::Key<Self>> {
            Self::key(__p::checked::<__Key_session_token>(&self.session_token))
        }
        fn index_entries(&self) -> __ddb::Result<__p::Vec<__ddb::IndexEntry>> {
            __p::Ok(
                __p::Vec::from([
                    __ddb::IndexEntry {
                        index: <__Index_user_index as __ddb::Index>::SCHEMA,
                        key: __p::Some(__ddb::IndexKey {
                            partition: Self::user_index_partition(
                                    __p::checked::<__Key_username>(&self.username),
                                )?
                                .into_string(),
                            sort: __p::None,
                        }),
                    },
                ]),
            )
        }
    }
    #[automatically_derived]
    impl __p::EntityHooks for Session {
        fn key_matches(p: &__p::str, _: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, __p::Some(""), Self::__read_key)
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &__ddb::Key<Self>,
            changes: &__p::Changes,
        ) -> __ddb::Result<__p::Vec<__p::IndexChange>> {
            let _ = key;
            let __index_user_index = <__Index_user_index as __ddb::Index>::SCHEMA;
            let mut out = __p::Vec::new();
            if changes.touches(&["username"]) {
                let __field_username: &String = changes
                    .value_of("Session", __index_user_index.name, "username")?;
                let username: &__Key_username = __field_username;
                out.push(
                    __p::IndexChange::Set(
                        __index_user_index,
                        __ddb::IndexKey {
                            partition: Self::user_index_partition(username)?
                                .into_string(),
                            sort: __p::None,
                        },
                    ),
                );
            } else if changes.creates() {
                return __p::Err(
                    __p::missing_key_field(
                        "Session",
                        __index_user_index.name,
                        "username",
                    ),
                );
            }
            __p::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &__ddb::Key<Self>,
        ) -> __ddb::Result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
            let (session_token,) = &Self::__read_key(key.partition(), key.sort())?;
            let fields = __p::key_fields_buffer(1usize);
            __p::Ok(fields)
        }
    }
    const _: () = __p::assert_global_index::<__Index_user_index>();
};
