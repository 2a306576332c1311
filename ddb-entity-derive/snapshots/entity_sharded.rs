#[allow(non_camel_case_types)]
const _: () = {
    use ::ddb_entity as __ddb;
    use ::ddb_entity::__private as __p;
    type __Key_day = __p::Checked<u32, { __p::assert_key_part::<u32>() }>;
    type __Key_event_id = __p::Checked<u64, { __p::assert_key_part::<u64>() }>;
    type __Key_status = __p::Checked<Status, { __p::assert_key_part::<Status>() }>;
    type __Key_region = __p::Checked<String, { __p::assert_key_part::<String>() }>;
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
    const _: () = ::core::assert!(
        __p::table_has_sort_key:: < __Table > (),
        "table `App` has no sort key in its `table!` declaration (one item per partition key): remove this `sk`, or declare a sort_key in `table!`"
    );
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "DAY#{day}#{shard(event_id) % 8}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "EVENT#{event_id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "STATUS#{status}#{shard(event_id, region) % 16}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = __p::assert_sorts::<__Key_event_id>("event_id", "EVENT#{event_id}");
    const _: () = __p::assert_sorts::<__Key_day>("day", "{day}");
    impl Event {
        ///The primary key of the `Event` with these key fields: `DAY#{day}#{shard(event_id) % 8}` / `EVENT#{event_id}`.
        pub fn key(
            day: impl __ddb::KeyArg<u32>,
            event_id: impl __ddb::KeyArg<u64>,
        ) -> __ddb::Result<__ddb::Key<Self>> {
            let mut __pk = __p::KeyWriter::new("Event");
            __pk.literal("DAY");
            __pk.partition_arg::<__Key_day, _>("day", &day)?;
            let mut __shard = __p::ShardInputs::new("Event");
            __shard.input("event_id", &__p::key_arg::<__Key_event_id, _>(&event_id))?;
            __pk.shard(
                __shard.component(__ddb::shard::ShardSpec::new(8u16, &["event_id"])),
            );
            __ddb::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = __p::KeyWriter::new("Event");
                    __sk.literal("EVENT");
                    __sk.arg::<__Key_event_id, _>("event_id", &event_id)?;
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `DAY#{day}#{shard(event_id) % 8}`, spread over 8 shards: a Query of it reads every shard and merges them in sort-key order, for `Event` items (and every other entity type sharing this partition template).
        pub fn partition(
            day: impl __ddb::KeyArg<u32>,
        ) -> __ddb::Result<__ddb::Partition<__ddb::Primary<__Table>>> {
            let mut __pk = __p::KeyWriter::new("Event");
            __pk.literal("DAY");
            __pk.partition_arg::<__Key_day, _>("day", &day)?;
            __pk.sharded_partition::<
                    __ddb::Primary<__Table>,
                >(__ddb::shard::ShardSpec::new(8u16, &["event_id"]))
        }
        ///Starts the sort key of `Event` in the table (`EVENT#{event_id}`): fill the holes from the left with `.event_id(…)`, and stop anywhere for a prefix. `.event_id_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn sk() -> EventSk<0usize> {
            EventSk(
                __p::SortKeyBuilder::<__ddb::Primary<__Table>>::new("Event")
                    .literal("EVENT"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `STATUS#{status}#{shard(event_id, region) % 16}` of index `Gsi1`, spread over 16 shards: a Query of it reads every shard and merges them in sort-key order.
        pub fn gsi1_partition(
            status: impl __ddb::KeyArg<Status>,
        ) -> __ddb::Result<__ddb::Partition<__Index_gsi1>> {
            let mut __pk = __p::KeyWriter::new("Event");
            __pk.literal("STATUS");
            __pk.partition_arg::<__Key_status, _>("status", &status)?;
            __pk.sharded_partition::<
                    __Index_gsi1,
                >(__ddb::shard::ShardSpec::new(16u16, &["event_id", "region"]))
        }
        ///Starts the sort key of `Event` in index `Gsi1` (`{day}`): fill the holes from the left with `.day(…)`, and stop anywhere for a prefix. `.day_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> EventGsi1Sk<0usize> {
            EventGsi1Sk(
                __p::SortKeyBuilder::<__Index_gsi1>::new("Event"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Event`, to name in an update.
        pub const fn fields() -> EventFields {
            EventFields {
                day: __ddb::Field::new("day", "day"),
                event_id: __ddb::Field::new("event_id", "event_id"),
                status: __ddb::Field::new("status", "status"),
                region: __ddb::Field::new("region", "region"),
            }
        }
    }
    impl Event {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<(__Key_day, __Key_event_id), __ddb::key::KeyError> {
            let mut reader = __ddb::key::KeyReader::new(__partition);
            reader.literal("DAY")?;
            let __decoded_day: __Key_day = reader
                .part::<__p::PartitionPart<__Key_day>>()?
                .0;
            let _: __ddb::shard::ShardComponent = reader.part()?;
            reader.finish()?;
            let mut reader = __ddb::key::KeyReader::new(__sort);
            reader.literal("EVENT")?;
            let __decoded_event_id: __Key_event_id = reader.part::<__Key_event_id>()?;
            reader.finish()?;
            __p::Ok((__decoded_day, __decoded_event_id))
        }
    }
    ///The stored fields of `Event`, for typed updates: `Event::fields()`.
    pub struct EventFields {
        ///`Event::day`, stored in the key only (read back from it).
        pub day: __ddb::Field<Event, u32, __ddb::field::KeyOnly>,
        ///`Event::event_id`, stored in the key only (read back from it).
        pub event_id: __ddb::Field<Event, u64, __ddb::field::KeyOnly>,
        ///`Event::status`, stored as `status`.
        pub status: __ddb::Field<Event, Status, __ddb::field::IndexKeyPart>,
        ///`Event::region`, stored as `region`.
        pub region: __ddb::Field<Event, String, __ddb::field::IndexKeyPart>,
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for EventFields {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __p::debug_fields(f, "EventFields", <Event as __ddb::Entity>::LAYOUT)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for EventFields {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for EventFields {}
    ///Sort-key builder of `Event` in the table (`EVENT#{event_id}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct EventSk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__ddb::Primary<__Table>>,
        ::core::marker::PhantomData<fn() -> Event>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<EventSk<FILLED>>
    for __ddb::SortKey<__ddb::Primary<__Table>> {
        fn from(stage: EventSk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl EventSk<0usize> {
        ///Fills `{event_id}`.
        pub fn event_id(
            self,
            event_id: impl __ddb::KeyArg<u64>,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0
                .part("event_id", &__p::key_arg::<__Key_event_id, _>(&event_id))
                .whole()
        }
        ///Cuts inside `{event_id}`: every key whose `event_id` starts with `cut` (e.g. a year or a month of a date).
        pub fn event_id_prefix<C: __ddb::key::PrefixOf<__Key_event_id>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0.cut::<__Key_event_id, C>("event_id", &cut)
        }
    }
    ///Sort-key builder of `Event` in index `Gsi1` (`{day}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct EventGsi1Sk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Event>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<EventGsi1Sk<FILLED>>
    for __ddb::SortKey<__Index_gsi1> {
        fn from(stage: EventGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl EventGsi1Sk<0usize> {
        ///Fills `{day}`.
        pub fn day(self, day: impl __ddb::KeyArg<u32>) -> __ddb::SortKey<__Index_gsi1> {
            self.0.part("day", &__p::key_arg::<__Key_day, _>(&day)).whole()
        }
        ///Cuts inside `{day}`: every key whose `day` starts with `cut` (e.g. a year or a month of a date).
        pub fn day_prefix<C: __ddb::key::PrefixOf<__Key_day>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_day, C>("day", &cut)
        }
    }
    #[automatically_derived]
    impl __ddb::Entity for Event {
        type Table = __Table;
        const RUST_NAME: &'static __p::str = "Event";
        const TYPE_TAG: &'static __p::str = "event";
        const INDEXES: &'static [__ddb::IndexSchema] = &[
            <__Index_gsi1 as __ddb::Index>::SCHEMA,
        ];
        const LAYOUT: &'static __ddb::layout::EntityLayout = &__ddb::layout::EntityLayout::new(
            "Event",
            "event",
            &[
                __p::layout::primary(
                    __p::layout::template(
                        "DAY#{day}#{shard(event_id) % 8}",
                        false,
                        &[
                            &[__p::layout::lit("DAY")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_day>,
                                >("day", "u32", __p::None, false, false),
                            ],
                            &[
                                __p::layout::shard(
                                    __ddb::shard::ShardSpec::new(8u16, &["event_id"]),
                                ),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "EVENT#{event_id}",
                            false,
                            &[
                                &[__p::layout::lit("EVENT")],
                                &[
                                    __p::layout::hole::<
                                        __Key_event_id,
                                    >("event_id", "u64", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_gsi1 as __ddb::Index>::SCHEMA,
                    __p::layout::template(
                        "STATUS#{status}#{shard(event_id, region) % 16}",
                        false,
                        &[
                            &[__p::layout::lit("STATUS")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_status>,
                                >("status", "Status", __p::None, false, false),
                            ],
                            &[
                                __p::layout::shard(
                                    __ddb::shard::ShardSpec::new(16u16, &["event_id", "region"]),
                                ),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "{day}",
                            false,
                            &[
                                &[
                                    __p::layout::hole::<
                                        __Key_day,
                                    >("day", "u32", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    false,
                    __p::None,
                    __p::None,
                ),
            ],
            &[
                __p::layout::key_only("day", "day", "u32", false),
                __p::layout::key_only("event_id", "event_id", "u64", false),
                __p::layout::field("status", "status", "Status", false),
                __p::layout::field("region", "region", "String", false),
            ],
            false,
        );
        fn primary_key(&self) -> __ddb::Result<__ddb::Key<Self>> {
            Self::key(
                __p::checked::<__Key_day>(&self.day),
                __p::checked::<__Key_event_id>(&self.event_id),
            )
        }
        fn index_entries(&self) -> __ddb::Result<__p::Vec<__ddb::IndexEntry>> {
            __p::Ok(
                __p::Vec::from([
                    __ddb::IndexEntry {
                        index: <__Index_gsi1 as __ddb::Index>::SCHEMA,
                        key: __p::Some(__ddb::IndexKey {
                            partition: {
                                let mut __pk = __p::KeyWriter::new("Event");
                                __pk.literal("STATUS");
                                __pk.part(
                                    "status",
                                    &__p::PartitionPart(
                                        __p::key_arg::<
                                            __Key_status,
                                            _,
                                        >(&__p::checked::<__Key_status>(&self.status)),
                                    ),
                                )?;
                                let mut __shard = __p::ShardInputs::new("Event");
                                __shard
                                    .input(
                                        "event_id",
                                        __p::checked::<__Key_event_id>(&self.event_id),
                                    )?;
                                __shard
                                    .input(
                                        "region",
                                        __p::checked::<__Key_region>(&self.region),
                                    )?;
                                __pk.shard(
                                    __shard
                                        .component(
                                            __ddb::shard::ShardSpec::new(16u16, &["event_id", "region"]),
                                        ),
                                );
                                __pk.finish_index_partition::<__Index_gsi1>()?
                            },
                            sort: __p::Some(
                                (Self::gsi1_sk().day(__p::checked::<__Key_day>(&self.day)))
                                    .into_value()?,
                            ),
                        }),
                    },
                ]),
            )
        }
    }
    #[automatically_derived]
    impl __p::EntityHooks for Event {
        fn key_matches(p: &__p::str, s: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, s, Self::__read_key)
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &__ddb::Key<Self>,
            changes: &__p::Changes,
        ) -> __ddb::Result<__p::Vec<__p::IndexChange>> {
            let (day, event_id) = &Self::__read_key(key.partition(), key.sort())?;
            let __index_gsi1 = <__Index_gsi1 as __ddb::Index>::SCHEMA;
            let mut out = __p::Vec::new();
            if changes.touches(&["status", "region"]) {
                let __field_status: &Status = changes
                    .value_of("Event", __index_gsi1.name, "status")?;
                let __field_region: &String = changes
                    .value_of("Event", __index_gsi1.name, "region")?;
                let status: &__Key_status = __field_status;
                out.push(
                    __p::IndexChange::Set(
                        __index_gsi1,
                        __ddb::IndexKey {
                            partition: {
                                let mut __pk = __p::KeyWriter::new("Event");
                                __pk.literal("STATUS");
                                __pk.part(
                                    "status",
                                    &__p::PartitionPart(
                                        __p::key_arg::<__Key_status, _>(&status),
                                    ),
                                )?;
                                let mut __shard = __p::ShardInputs::new("Event");
                                __shard
                                    .input(
                                        "event_id",
                                        __p::checked::<__Key_event_id>(event_id),
                                    )?;
                                __shard
                                    .input(
                                        "region",
                                        __p::checked::<__Key_region>(__field_region),
                                    )?;
                                __pk.shard(
                                    __shard
                                        .component(
                                            __ddb::shard::ShardSpec::new(16u16, &["event_id", "region"]),
                                        ),
                                );
                                __pk.finish_index_partition::<__Index_gsi1>()?
                            },
                            sort: __p::Some((Self::gsi1_sk().day(day)).into_value()?),
                        },
                    ),
                );
            } else if changes.creates() {
                return __p::Err(
                    __p::missing_key_field("Event", __index_gsi1.name, "status"),
                );
            }
            __p::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &__ddb::Key<Self>,
        ) -> __ddb::Result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
            let (day, event_id) = &Self::__read_key(key.partition(), key.sort())?;
            let mut fields = __p::key_fields_buffer(2usize);
            fields.push(("day", __p::key_field_value("Event", day)?));
            fields.push(("event_id", __p::key_field_value("Event", event_id)?));
            __p::Ok(fields)
        }
    }
    const _: () = __p::assert_global_index::<__Index_gsi1>();
};
