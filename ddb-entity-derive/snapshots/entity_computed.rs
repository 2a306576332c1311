#[allow(non_camel_case_types)]
const _: () = {
    use ::ddb_entity as __ddb;
    use ::ddb_entity::__private as __p;
    type __Key_id = __p::Checked<u64, { __p::assert_key_part::<u64>() }>;
    type __Key_day = __p::Checked<NaiveDate, { __p::assert_key_part::<NaiveDate>() }>;
    type __Key_priority = __p::Checked<u8, { __p::assert_key_part::<u8>() }>;
    #[cfg(not(doc))]
    type __TableNamed = App;
    #[cfg(not(doc))]
    type __Table = __p::Checked<__TableNamed, { __p::assert_table::<__TableNamed>() }>;
    #[cfg(doc)]
    type __Table = App;
    #[cfg(not(doc))]
    type __IndexNamed_gsi1 = Gsi1;
    #[cfg(not(doc))]
    type __Index_gsi1 = __p::Checked<
        __IndexNamed_gsi1,
        { __p::index_of_table::<__IndexNamed_gsi1, __Table>() },
    >;
    #[cfg(doc)]
    type __Index_gsi1 = Gsi1;
    const _: () = ::core::assert!(
        __p::index_has_sort_key:: < __Index_gsi1 > (),
        "index `Gsi1` has no sort key in its `table!` declaration: remove this `sk`, or declare a sort_key for `Gsi1` in `table!`"
    );
    #[cfg(not(doc))]
    type __IndexNamed_gsi2 = Gsi2;
    #[cfg(not(doc))]
    type __Index_gsi2 = __p::Checked<
        __IndexNamed_gsi2,
        { __p::index_of_table::<__IndexNamed_gsi2, __Table>() },
    >;
    #[cfg(doc)]
    type __Index_gsi2 = Gsi2;
    const _: () = ::core::assert!(
        __p::index_has_sort_key:: < __Index_gsi2 > (),
        "index `Gsi2` has no sort key in its `table!` declaration: remove this `sk`, or declare a sort_key for `Gsi2` in `table!`"
    );
    const _: () = ::core::assert!(
        __p::table_has_sort_key:: < __Table > (),
        "table `App` has no sort key in its `table!` declaration (one item per partition key): remove this `sk`, or declare a sort_key in `table!`"
    );
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "TICKET#{id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "DAY#{day}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = __p::assert_sorts::<__Key_id>("id", "{id}");
    const _: () = __p::assert_sorts::<__Key_priority>("priority", "{priority}");
    impl Ticket {
        ///The primary key of the `Ticket` with these key fields: `TICKET#{id}` / `TICKET`.
        pub fn key(id: impl __ddb::KeyArg<u64>) -> __ddb::Result<__ddb::Key<Self>> {
            let mut __pk = __p::KeyWriter::new("Ticket");
            __pk.literal("TICKET");
            __pk.partition_arg::<__Key_id, _>("id", &id)?;
            __ddb::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = __p::KeyWriter::new("Ticket");
                    __sk.literal("TICKET");
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `TICKET#{id}`: where a Query for `Ticket` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            id: impl __ddb::KeyArg<u64>,
        ) -> __ddb::Result<__ddb::Partition<__ddb::Primary<__Table>>> {
            let mut __pk = __p::KeyWriter::new("Ticket");
            __pk.literal("TICKET");
            __pk.partition_arg::<__Key_id, _>("id", &id)?;
            __ddb::Partition::new(__pk.finish_partition()?)
        }
        ///The sort key of every `Ticket` in the table: `TICKET`, a whole key (the template has no holes).
        pub fn sk() -> __ddb::SortKey<__ddb::Primary<__Table>> {
            __p::SortKeyBuilder::<__ddb::Primary<__Table>>::new("Ticket")
                .literal("TICKET")
                .whole()
        }
        ///The partition `DAY#{day}` of index `Gsi1`: where a Query for `Ticket` items on that index starts.
        pub fn gsi1_partition(
            day: impl __ddb::KeyArg<NaiveDate>,
        ) -> __ddb::Result<__ddb::Partition<__Index_gsi1>> {
            let mut __pk = __p::KeyWriter::new("Ticket");
            __pk.literal("DAY");
            __pk.partition_arg::<__Key_day, _>("day", &day)?;
            __ddb::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Ticket` in index `Gsi1` (`{id}`): fill the holes from the left with `.id(…)`, and stop anywhere for a prefix. `.id_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> TicketGsi1Sk<0usize> {
            TicketGsi1Sk(
                __p::SortKeyBuilder::<__Index_gsi1>::new("Ticket"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `OPEN` of index `Gsi2`: where a Query for `Ticket` items on that index starts.
        pub fn gsi2_partition() -> __ddb::Result<__ddb::Partition<__Index_gsi2>> {
            let mut __pk = __p::KeyWriter::new("Ticket");
            __pk.literal("OPEN");
            __ddb::Partition::new(__pk.finish_index_partition::<__Index_gsi2>()?)
        }
        ///Starts the sort key of `Ticket` in index `Gsi2` (`{priority}`): fill the holes from the left with `.priority(…)`, and stop anywhere for a prefix. `.priority_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi2_sk() -> TicketGsi2Sk<0usize> {
            TicketGsi2Sk(
                __p::SortKeyBuilder::<__Index_gsi2>::new("Ticket"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Ticket`, to name in an update.
        pub const fn fields() -> TicketFields {
            TicketFields {
                id: __ddb::Field::new("id", "id"),
                status: __ddb::Field::new("status", "status"),
                priority: __ddb::Field::new("priority", "priority"),
                opened: __ddb::Field::new("opened", "opened"),
            }
        }
    }
    impl Ticket {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<(__Key_id,), __ddb::key::KeyError> {
            let mut reader = __ddb::key::KeyReader::new(__partition);
            reader.literal("TICKET")?;
            let __decoded_id: __Key_id = reader
                .part::<__p::PartitionPart<__Key_id>>()?
                .0;
            reader.finish()?;
            let mut reader = __ddb::key::KeyReader::new(__sort);
            reader.literal("TICKET")?;
            reader.finish()?;
            __p::Ok((__decoded_id,))
        }
    }
    ///The stored fields of `Ticket`, for typed updates: `Ticket::fields()`.
    pub struct TicketFields {
        ///`Ticket::id`, stored in the key only (read back from it).
        pub id: __ddb::Field<Ticket, u64, __ddb::field::KeyOnly>,
        ///`Ticket::status`, stored as `status`.
        pub status: __ddb::Field<Ticket, Status, __ddb::field::IndexKeyPart>,
        ///`Ticket::priority`, stored as `priority`.
        pub priority: __ddb::Field<Ticket, u8, __ddb::field::IndexKeyPart>,
        ///`Ticket::opened`, stored as `opened`.
        pub opened: __ddb::Field<
            Ticket,
            Option<DateTime<Utc>>,
            __ddb::field::IndexKeyPart,
        >,
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for TicketFields {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __p::debug_fields(f, "TicketFields", <Ticket as __ddb::Entity>::LAYOUT)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for TicketFields {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for TicketFields {}
    ///Sort-key builder of `Ticket` in index `Gsi1` (`{id}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct TicketGsi1Sk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Ticket>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<TicketGsi1Sk<FILLED>>
    for __ddb::SortKey<__Index_gsi1> {
        fn from(stage: TicketGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl TicketGsi1Sk<0usize> {
        ///Fills `{id}`.
        pub fn id(self, id: impl __ddb::KeyArg<u64>) -> __ddb::SortKey<__Index_gsi1> {
            self.0.part("id", &__p::key_arg::<__Key_id, _>(&id)).whole()
        }
        ///Cuts inside `{id}`: every key whose `id` starts with `cut` (e.g. a year or a month of a date).
        pub fn id_prefix<C: __ddb::key::PrefixOf<__Key_id>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_id, C>("id", &cut)
        }
    }
    ///Sort-key builder of `Ticket` in index `Gsi2` (`{priority}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct TicketGsi2Sk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__Index_gsi2>,
        ::core::marker::PhantomData<fn() -> Ticket>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<TicketGsi2Sk<FILLED>>
    for __ddb::SortKey<__Index_gsi2> {
        fn from(stage: TicketGsi2Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl TicketGsi2Sk<0usize> {
        ///Fills `{priority}`.
        pub fn priority(
            self,
            priority: impl __ddb::KeyArg<u8>,
        ) -> __ddb::SortKey<__Index_gsi2> {
            self.0
                .part("priority", &__p::key_arg::<__Key_priority, _>(&priority))
                .whole()
        }
        ///Cuts inside `{priority}`: every key whose `priority` starts with `cut` (e.g. a year or a month of a date).
        pub fn priority_prefix<C: __ddb::key::PrefixOf<__Key_priority>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi2> {
            self.0.cut::<__Key_priority, C>("priority", &cut)
        }
    }
    #[automatically_derived]
    impl __ddb::Entity for Ticket {
        type Table = __Table;
        const RUST_NAME: &'static __p::str = "Ticket";
        const TYPE_TAG: &'static __p::str = "ticket";
        const INDEXES: &'static [__ddb::IndexSchema] = &[
            <__Index_gsi1 as __ddb::Index>::SCHEMA,
            <__Index_gsi2 as __ddb::Index>::SCHEMA,
        ];
        const LAYOUT: &'static __ddb::layout::EntityLayout = &__ddb::layout::EntityLayout::new(
            "Ticket",
            "ticket",
            &[
                __p::layout::primary(
                    __p::layout::template(
                        "TICKET#{id}",
                        false,
                        &[
                            &[__p::layout::lit("TICKET")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_id>,
                                >("id", "u64", __p::None, false, false),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "TICKET",
                            false,
                            &[&[__p::layout::lit("TICKET")]],
                        ),
                    ),
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_gsi1 as __ddb::Index>::SCHEMA,
                    __p::layout::template(
                        "DAY#{day}",
                        false,
                        &[
                            &[__p::layout::lit("DAY")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_day>,
                                >("day", "NaiveDate", __p::None, true, true),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "{id}",
                            false,
                            &[
                                &[
                                    __p::layout::hole::<
                                        __Key_id,
                                    >("id", "u64", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    true,
                    __p::None,
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_gsi2 as __ddb::Index>::SCHEMA,
                    __p::layout::template("OPEN", false, &[&[__p::layout::lit("OPEN")]]),
                    __p::Some(
                        __p::layout::template(
                            "{priority}",
                            false,
                            &[
                                &[
                                    __p::layout::hole::<
                                        __Key_priority,
                                    >("priority", "u8", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    true,
                    __p::Some("Self::is_open(status)"),
                    __p::None,
                ),
            ],
            &[
                __p::layout::key_only("id", "id", "u64", false),
                __p::layout::field("status", "status", "Status", false),
                __p::layout::field("priority", "priority", "u8", false),
                __p::layout::field("opened", "opened", "Option<DateTime<Utc>>", true),
            ],
            false,
        );
        fn primary_key(&self) -> __ddb::Result<__ddb::Key<Self>> {
            Self::key(__p::checked::<__Key_id>(&self.id))
        }
        fn index_entries(&self) -> __ddb::Result<__p::Vec<__ddb::IndexEntry>> {
            __p::Ok(
                __p::Vec::from([
                    __ddb::IndexEntry {
                        index: <__Index_gsi1 as __ddb::Index>::SCHEMA,
                        key: match (&ddb_entity::key::date_of(&self.opened),) {
                            (__p::Some(day),) => {
                                __p::Some(__ddb::IndexKey {
                                    partition: Self::gsi1_partition(
                                            __p::checked::<__Key_day>(day),
                                        )?
                                        .into_string(),
                                    sort: __p::Some(
                                        (Self::gsi1_sk().id(__p::checked::<__Key_id>(&self.id)))
                                            .into_value()?,
                                    ),
                                })
                            }
                            _ => __p::None,
                        },
                    },
                    __ddb::IndexEntry {
                        index: <__Index_gsi2 as __ddb::Index>::SCHEMA,
                        key: if Self::is_open(&self.status) {
                            __p::Some(__ddb::IndexKey {
                                partition: Self::gsi2_partition()?.into_string(),
                                sort: __p::Some(
                                    (Self::gsi2_sk()
                                        .priority(__p::checked::<__Key_priority>(&self.priority)))
                                        .into_value()?,
                                ),
                            })
                        } else {
                            __p::None
                        },
                    },
                ]),
            )
        }
    }
    #[automatically_derived]
    impl __p::EntityHooks for Ticket {
        fn key_matches(p: &__p::str, s: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, s, Self::__read_key)
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &__ddb::Key<Self>,
            changes: &__p::Changes,
        ) -> __ddb::Result<__p::Vec<__p::IndexChange>> {
            let (id,) = &Self::__read_key(key.partition(), key.sort())?;
            let __index_gsi1 = <__Index_gsi1 as __ddb::Index>::SCHEMA;
            let __index_gsi2 = <__Index_gsi2 as __ddb::Index>::SCHEMA;
            let mut out = __p::Vec::new();
            if changes.touches(&["opened"]) {
                let __field_opened: &Option<DateTime<Utc>> = changes
                    .value_or_removed("Ticket", __index_gsi1.name, "opened")?
                    .unwrap_or(&__p::None);
                let __computed_day = ddb_entity::key::date_of(__field_opened);
                let day: __p::Option<&__Key_day> = __computed_day.as_ref();
                out.push(
                    match (day,) {
                        (__p::Some(day),) => {
                            __p::IndexChange::Set(
                                __index_gsi1,
                                __ddb::IndexKey {
                                    partition: Self::gsi1_partition(day)?.into_string(),
                                    sort: __p::Some((Self::gsi1_sk().id(id)).into_value()?),
                                },
                            )
                        }
                        _ => __p::IndexChange::Remove(__index_gsi1),
                    },
                );
            }
            if changes.touches(&["priority", "status"]) {
                let __field_status: &Status = changes
                    .value_of("Ticket", __index_gsi2.name, "status")?;
                if Self::is_open(__field_status) {
                    let __field_priority: &u8 = changes
                        .value_of("Ticket", __index_gsi2.name, "priority")?;
                    let priority: &__Key_priority = __field_priority;
                    out.push(
                        __p::IndexChange::Set(
                            __index_gsi2,
                            __ddb::IndexKey {
                                partition: Self::gsi2_partition()?.into_string(),
                                sort: __p::Some(
                                    (Self::gsi2_sk().priority(priority)).into_value()?,
                                ),
                            },
                        ),
                    );
                } else {
                    out.push(__p::IndexChange::Remove(__index_gsi2));
                }
            } else if changes.creates() {
                return __p::Err(
                    __p::missing_key_field("Ticket", __index_gsi2.name, "priority"),
                );
            }
            __p::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &__ddb::Key<Self>,
        ) -> __ddb::Result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
            let (id,) = &Self::__read_key(key.partition(), key.sort())?;
            let mut fields = __p::key_fields_buffer(1usize);
            fields.push(("id", __p::key_field_value("Ticket", id)?));
            __p::Ok(fields)
        }
        fn key_field_is(&self, i: __p::usize, v: &__p::KeyFieldValue) -> __p::bool {
            __p::key_field_is(&[&self.id], i, v)
        }
    }
    const _: () = __p::assert_global_index::<__Index_gsi1>();
    const _: () = __p::assert_global_index::<__Index_gsi2>();
};
