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
    type __Key_id = <[(); {
        ::ddb_entity::__private::assert_key_part::<u64>();
        0
    }] as __KeyType<u64>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_day = <[(); {
        ::ddb_entity::__private::assert_key_part::<NaiveDate>();
        0
    }] as __KeyType<NaiveDate>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_priority = <[(); {
        ::ddb_entity::__private::assert_key_part::<u8>();
        0
    }] as __KeyType<u8>>::Checked;
    #[cfg(not(doc))]
    type __TableNamed = App;
    #[cfg(not(doc))]
    type __Table = <[(); {
        ::ddb_entity::__private::assert_table::<__TableNamed>();
        0
    }] as __KeyType<__TableNamed>>::Checked;
    #[cfg(doc)]
    type __Table = App;
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __IndexNamed_gsi1 = Gsi1;
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __Index_gsi1 = <[(); {
        ::ddb_entity::__private::index_of_table::<__IndexNamed_gsi1, __Table>();
        0
    }] as __KeyType<__IndexNamed_gsi1>>::Checked;
    #[cfg(doc)]
    #[allow(non_camel_case_types)]
    type __Index_gsi1 = Gsi1;
    const _: () = ::core::assert!(
        ::ddb_entity::__private::index_has_sort_key:: < __Index_gsi1 > (),
        "index `Gsi1` has no sort key in its `table!` declaration: remove this `sk`, or declare a sort_key for `Gsi1` in `table!`"
    );
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __IndexNamed_gsi2 = Gsi2;
    #[cfg(not(doc))]
    #[allow(non_camel_case_types)]
    type __Index_gsi2 = <[(); {
        ::ddb_entity::__private::index_of_table::<__IndexNamed_gsi2, __Table>();
        0
    }] as __KeyType<__IndexNamed_gsi2>>::Checked;
    #[cfg(doc)]
    #[allow(non_camel_case_types)]
    type __Index_gsi2 = Gsi2;
    const _: () = ::core::assert!(
        ::ddb_entity::__private::index_has_sort_key:: < __Index_gsi2 > (),
        "index `Gsi2` has no sort key in its `table!` declaration: remove this `sk`, or declare a sort_key for `Gsi2` in `table!`"
    );
    const _: () = ::core::assert!(
        ::ddb_entity::__private::table_has_sort_key:: < __Table > (),
        "table `App` has no sort key in its `table!` declaration (one item per partition key): remove this `sk`, or declare a sort_key in `table!`"
    );
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "TICKET#{id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "DAY#{day}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = ::core::assert!(
        < __Key_id as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{id}}` in the sort key \"{{id}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_priority as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{priority}}` in the sort key \"{{priority}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    #[automatically_derived]
    impl Ticket {
        ///The primary key of the `Ticket` with these key fields: `TICKET#{id}` / `TICKET`.
        pub fn key(
            id: impl ::ddb_entity::KeyArg<u64>,
        ) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Ticket");
            __pk.literal("TICKET");
            __pk.part(
                "id",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_id, _>(&id),
                ),
            )?;
            ::ddb_entity::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = ::ddb_entity::__private::KeyWriter::new("Ticket");
                    __sk.literal("TICKET");
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `TICKET#{id}`: where a Query for `Ticket` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            id: impl ::ddb_entity::KeyArg<u64>,
        ) -> ::ddb_entity::Result<
            ::ddb_entity::Partition<::ddb_entity::Primary<__Table>>,
        > {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Ticket");
            __pk.literal("TICKET");
            __pk.part(
                "id",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_id, _>(&id),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_partition()?)
        }
        ///The sort key of every `Ticket` in the table: `TICKET`, a whole key (the template has no holes).
        pub fn sk() -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            ::ddb_entity::__private::SortKeyBuilder::<
                ::ddb_entity::Primary<__Table>,
            >::new("Ticket")
                .literal("TICKET")
                .whole()
        }
        ///The partition `DAY#{day}` of index `Gsi1`: where a Query for `Ticket` items on that index starts.
        pub fn gsi1_partition(
            day: impl ::ddb_entity::KeyArg<NaiveDate>,
        ) -> ::ddb_entity::Result<::ddb_entity::Partition<__Index_gsi1>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Ticket");
            __pk.literal("DAY");
            __pk.part(
                "day",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_day, _>(&day),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Ticket` in index `Gsi1` (`{id}`): fill the holes from the left with `.id(…)`, and stop anywhere for a prefix. `.id_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> TicketGsi1Sk<0usize> {
            TicketGsi1Sk(
                ::ddb_entity::__private::SortKeyBuilder::<__Index_gsi1>::new("Ticket"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `OPEN` of index `Gsi2`: where a Query for `Ticket` items on that index starts.
        pub fn gsi2_partition() -> ::ddb_entity::Result<
            ::ddb_entity::Partition<__Index_gsi2>,
        > {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Ticket");
            __pk.literal("OPEN");
            ::ddb_entity::Partition::new(__pk.finish_index_partition::<__Index_gsi2>()?)
        }
        ///Starts the sort key of `Ticket` in index `Gsi2` (`{priority}`): fill the holes from the left with `.priority(…)`, and stop anywhere for a prefix. `.priority_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi2_sk() -> TicketGsi2Sk<0usize> {
            TicketGsi2Sk(
                ::ddb_entity::__private::SortKeyBuilder::<__Index_gsi2>::new("Ticket"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Ticket`, to name in an update.
        pub const fn fields() -> TicketFields {
            TicketFields {
                id: ::ddb_entity::Field::new("id", "id"),
                status: ::ddb_entity::Field::new("status", "status"),
                priority: ::ddb_entity::Field::new("priority", "priority"),
                opened: ::ddb_entity::Field::new("opened", "opened"),
            }
        }
    }
    #[automatically_derived]
    impl Ticket {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &::core::primitive::str,
            __sort: &::core::primitive::str,
        ) -> ::core::result::Result<(__Key_id,), ::ddb_entity::key::KeyError> {
            let mut reader = ::ddb_entity::key::KeyReader::new(__partition);
            reader.literal("TICKET")?;
            let __decoded_id: __Key_id = reader
                .part::<::ddb_entity::__private::PartitionPart<__Key_id>>()?
                .0;
            reader.finish()?;
            let mut reader = ::ddb_entity::key::KeyReader::new(__sort);
            reader.literal("TICKET")?;
            reader.finish()?;
            ::core::result::Result::Ok((__decoded_id,))
        }
    }
    ///The stored fields of `Ticket`, for typed updates: `Ticket::fields()`.
    #[derive(Debug, Clone, Copy)]
    pub struct TicketFields {
        ///`Ticket::id`, stored in the key only (read back from it).
        pub id: ::ddb_entity::Field<Ticket, u64, ::ddb_entity::field::KeyOnly>,
        ///`Ticket::status`, stored as `status`.
        pub status: ::ddb_entity::Field<
            Ticket,
            Status,
            ::ddb_entity::field::IndexKeyPart,
        >,
        ///`Ticket::priority`, stored as `priority`.
        pub priority: ::ddb_entity::Field<Ticket, u8, ::ddb_entity::field::IndexKeyPart>,
        ///`Ticket::opened`, stored as `opened`.
        pub opened: ::ddb_entity::Field<
            Ticket,
            Option<DateTime<Utc>>,
            ::ddb_entity::field::IndexKeyPart,
        >,
    }
    ///Sort-key builder of `Ticket` in index `Gsi1` (`{id}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct TicketGsi1Sk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Ticket>,
    );
    #[automatically_derived]
    impl<
        const FILLED: ::core::primitive::usize,
    > ::core::convert::From<TicketGsi1Sk<FILLED>>
    for ::ddb_entity::SortKey<__Index_gsi1> {
        fn from(stage: TicketGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl TicketGsi1Sk<0usize> {
        ///Fills `{id}`.
        pub fn id(
            self,
            id: impl ::ddb_entity::KeyArg<u64>,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0
                .part("id", &::ddb_entity::__private::key_arg::<__Key_id, _>(&id))
                .whole()
        }
        ///Cuts inside `{id}`: every key whose `id` starts with `cut` (e.g. a year or a month of a date).
        pub fn id_prefix<C: ::ddb_entity::key::PrefixOf<__Key_id>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_id, C>("id", &cut)
        }
    }
    ///Sort-key builder of `Ticket` in index `Gsi2` (`{priority}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct TicketGsi2Sk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<__Index_gsi2>,
        ::core::marker::PhantomData<fn() -> Ticket>,
    );
    #[automatically_derived]
    impl<
        const FILLED: ::core::primitive::usize,
    > ::core::convert::From<TicketGsi2Sk<FILLED>>
    for ::ddb_entity::SortKey<__Index_gsi2> {
        fn from(stage: TicketGsi2Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl TicketGsi2Sk<0usize> {
        ///Fills `{priority}`.
        pub fn priority(
            self,
            priority: impl ::ddb_entity::KeyArg<u8>,
        ) -> ::ddb_entity::SortKey<__Index_gsi2> {
            self.0
                .part(
                    "priority",
                    &::ddb_entity::__private::key_arg::<__Key_priority, _>(&priority),
                )
                .whole()
        }
        ///Cuts inside `{priority}`: every key whose `priority` starts with `cut` (e.g. a year or a month of a date).
        pub fn priority_prefix<C: ::ddb_entity::key::PrefixOf<__Key_priority>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<__Index_gsi2> {
            self.0.cut::<__Key_priority, C>("priority", &cut)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::Entity for Ticket {
        type Table = __Table;
        const RUST_NAME: &'static ::core::primitive::str = "Ticket";
        const TYPE_TAG: &'static ::core::primitive::str = "ticket";
        const INDEXES: &'static [::ddb_entity::IndexSchema] = &[
            <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
            <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA,
        ];
        const LAYOUT: &'static ::ddb_entity::layout::EntityLayout = &::ddb_entity::layout::EntityLayout::new(
            "Ticket",
            "ticket",
            &[
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::None,
                    ::ddb_entity::layout::TemplateLayout::new(
                        "TICKET#{id}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("TICKET")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "id",
                                        "u64",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_id,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_id,
                                        > as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                        false,
                                        false,
                                    ),
                                ),
                            ],
                        ],
                    ),
                    ::core::option::Option::Some(
                        ::ddb_entity::layout::TemplateLayout::new(
                            "TICKET",
                            false,
                            &[&[::ddb_entity::layout::Piece::Literal("TICKET")]],
                        ),
                    ),
                    false,
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                ),
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::Some(
                        <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                    ),
                    ::ddb_entity::layout::TemplateLayout::new(
                        "DAY#{day}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("DAY")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "day",
                                        "NaiveDate",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_day,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_day,
                                        > as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                        true,
                                        true,
                                    ),
                                ),
                            ],
                        ],
                    ),
                    ::core::option::Option::Some(
                        ::ddb_entity::layout::TemplateLayout::new(
                            "{id}",
                            false,
                            &[
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "id",
                                            "u64",
                                            ::core::option::Option::None,
                                            <__Key_id as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_id as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                ],
                            ],
                        ),
                    ),
                    true,
                    ::core::option::Option::None,
                    ::core::option::Option::None,
                ),
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::Some(
                        <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA,
                    ),
                    ::ddb_entity::layout::TemplateLayout::new(
                        "OPEN",
                        false,
                        &[&[::ddb_entity::layout::Piece::Literal("OPEN")]],
                    ),
                    ::core::option::Option::Some(
                        ::ddb_entity::layout::TemplateLayout::new(
                            "{priority}",
                            false,
                            &[
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "priority",
                                            "u8",
                                            ::core::option::Option::None,
                                            <__Key_priority as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_priority as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                ],
                            ],
                        ),
                    ),
                    true,
                    ::core::option::Option::Some("Self::is_open(status)"),
                    ::core::option::Option::None,
                ),
            ],
            &[
                ::ddb_entity::layout::FieldLayout::new("id", "id", "u64", false),
                ::ddb_entity::layout::FieldLayout::new(
                    "status",
                    "status",
                    "Status",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "priority",
                    "priority",
                    "u8",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "opened",
                    "opened",
                    "Option<DateTime<Utc>>",
                    true,
                ),
            ],
            false,
        );
        fn primary_key(&self) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            Self::key(__checked::<__Key_id>(&self.id))
        }
        fn index_entries(
            &self,
        ) -> ::ddb_entity::Result<::std::vec::Vec<::ddb_entity::IndexEntry>> {
            #[allow(unused_mut)]
            let mut entries = ::std::vec::Vec::with_capacity(2usize);
            entries
                .push(::ddb_entity::IndexEntry {
                    index: <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                    key: match (&ddb_entity::key::date_of(&self.opened),) {
                        (::core::option::Option::Some(day),) => {
                            ::core::option::Option::Some(::ddb_entity::IndexKey {
                                partition: Self::gsi1_partition(
                                        __checked::<__Key_day>(day),
                                    )?
                                    .into_string(),
                                sort: ::core::option::Option::Some(
                                    (Self::gsi1_sk().id(__checked::<__Key_id>(&self.id)))
                                        .into_value()?,
                                ),
                            })
                        }
                        _ => ::core::option::Option::None,
                    },
                });
            entries
                .push(::ddb_entity::IndexEntry {
                    index: <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA,
                    key: if Self::is_open(&self.status) {
                        ::core::option::Option::Some(::ddb_entity::IndexKey {
                            partition: Self::gsi2_partition()?.into_string(),
                            sort: ::core::option::Option::Some(
                                (Self::gsi2_sk()
                                    .priority(__checked::<__Key_priority>(&self.priority)))
                                    .into_value()?,
                            ),
                        })
                    } else {
                        ::core::option::Option::None
                    },
                });
            ::core::result::Result::Ok(entries)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::__private::EntityHooks for Ticket {
        const KEY_FIELD_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &["id"];
        const KEY_ONLY_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &["id"];
        fn key_matches(
            __partition: &::core::primitive::str,
            __sort: ::core::option::Option<&::core::primitive::str>,
        ) -> ::core::primitive::bool {
            let ::core::option::Option::Some(__sort) = __sort else {
                return false;
            };
            Self::__read_key(__partition, __sort).is_ok()
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &::ddb_entity::Key<Self>,
            changes: &::ddb_entity::__private::Changes,
        ) -> ::ddb_entity::Result<
            ::std::vec::Vec<::ddb_entity::__private::IndexChange>,
        > {
            let (__decoded_id,) = Self::__read_key(key.partition(), key.sort())?;
            let id = &__decoded_id;
            #[allow(unused_mut)]
            let mut out = ::std::vec::Vec::new();
            if changes.touches(&["opened"]) {
                let __none_opened: Option<DateTime<Utc>> = ::core::option::Option::None;
                let __field_opened: &Option<DateTime<Utc>> = match changes
                    .lookup::<Option<DateTime<Utc>>>("opened")
                {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    ::ddb_entity::__private::Lookup::Removed => &__none_opened,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Ticket",
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA.name,
                                "opened",
                            ),
                        );
                    }
                };
                let __computed_day = ddb_entity::key::date_of(__field_opened);
                let day: ::core::option::Option<&__Key_day> = __computed_day.as_ref();
                out.push(
                    match (day,) {
                        (::core::option::Option::Some(day),) => {
                            ::ddb_entity::__private::IndexChange::Set(
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                                ::ddb_entity::IndexKey {
                                    partition: Self::gsi1_partition(day)?.into_string(),
                                    sort: ::core::option::Option::Some(
                                        (Self::gsi1_sk().id(id)).into_value()?,
                                    ),
                                },
                            )
                        }
                        _ => {
                            ::ddb_entity::__private::IndexChange::Remove(
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                            )
                        }
                    },
                );
            }
            if changes.touches(&["priority", "status"]) {
                let __field_status: &Status = match changes.lookup::<Status>("status") {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Ticket",
                                <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA.name,
                                "status",
                            ),
                        );
                    }
                };
                if Self::is_open(__field_status) {
                    let __field_priority: &u8 = match changes.lookup::<u8>("priority") {
                        ::ddb_entity::__private::Lookup::Set(value) => value,
                        _ => {
                            return ::core::result::Result::Err(
                                ::ddb_entity::__private::missing_key_field(
                                    "Ticket",
                                    <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA.name,
                                    "priority",
                                ),
                            );
                        }
                    };
                    let priority: &__Key_priority = __field_priority;
                    out.push(
                        ::ddb_entity::__private::IndexChange::Set(
                            <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA,
                            ::ddb_entity::IndexKey {
                                partition: Self::gsi2_partition()?.into_string(),
                                sort: ::core::option::Option::Some(
                                    (Self::gsi2_sk().priority(priority)).into_value()?,
                                ),
                            },
                        ),
                    );
                } else {
                    out.push(
                        ::ddb_entity::__private::IndexChange::Remove(
                            <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA,
                        ),
                    );
                }
            } else if changes.creates() {
                return ::core::result::Result::Err(
                    ::ddb_entity::__private::missing_key_field(
                        "Ticket",
                        <__Index_gsi2 as ::ddb_entity::Index>::SCHEMA.name,
                        "priority",
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
            let (__decoded_id,) = Self::__read_key(key.partition(), key.sort())?;
            let id = &__decoded_id;
            #[allow(unused_mut)]
            let mut fields = ::std::vec::Vec::with_capacity(1usize);
            fields.push(("id", ::ddb_entity::__private::key_field_value("Ticket", id)?));
            ::core::result::Result::Ok(fields)
        }
    }
    const _: () = ::ddb_entity::__private::assert_global_index::<__Index_gsi1>();
    const _: () = ::ddb_entity::__private::assert_global_index::<__Index_gsi2>();
};
