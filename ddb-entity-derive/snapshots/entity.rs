#[allow(non_camel_case_types)]
const _: () = {
    use ::ddb_entity as __ddb;
    use ::ddb_entity::__private as __p;
    type __Key_customer_id = __p::Checked<u64, { __p::assert_key_part::<u64>() }>;
    type __Key_placed = __p::Checked<String, { __p::assert_key_part::<String>() }>;
    type __Key_order_id_6 = __p::Checked<
        u32,
        {
            if 6usize > <u32 as __p::PaddedInt>::MAX_DIGITS {
                ::core::panic!(
                    "`{{order_id:6}}` pads to 6 digits, but a `u32` has fewer even at its largest: write a smaller width, or `{{order_id}}` for the type's full width"
                );
            }
            0
        },
    >;
    type __Key_open_since = __p::Checked<u32, { __p::assert_key_part::<u32>() }>;
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
    >("App", "CUST#{customer_id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "ORDER#{placed}#{order_id:6}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "OPEN#{open_since}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = __p::assert_sorts::<
        __Key_placed,
    >("placed", "ORDER#{placed}#{order_id:6}");
    const _: () = __p::assert_sorts::<
        __Key_order_id_6,
    >("order_id", "ORDER#{placed}#{order_id:6}");
    const _: () = __p::assert_sorts::<
        __Key_customer_id,
    >("customer_id", "CUST#{customer_id}");
    impl Order {
        ///The primary key of the `Order` with these key fields: `CUST#{customer_id}` / `ORDER#{placed}#{order_id:6}`.
        pub fn key(
            customer_id: impl __ddb::KeyArg<u64>,
            placed: impl __ddb::KeyArg<String>,
            order_id: u32,
        ) -> __ddb::Result<__ddb::Key<Self>> {
            let mut __pk = __p::KeyWriter::new("Order");
            __pk.literal("CUST");
            __pk.partition_arg::<__Key_customer_id, _>("customer_id", &customer_id)?;
            __ddb::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = __p::KeyWriter::new("Order");
                    __sk.literal("ORDER");
                    __sk.arg::<__Key_placed, _>("placed", &placed)?;
                    __sk.part(
                        "order_id",
                        &__p::Padded::<6usize, __Key_order_id_6>(order_id),
                    )?;
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `CUST#{customer_id}`: where a Query for `Order` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            customer_id: impl __ddb::KeyArg<u64>,
        ) -> __ddb::Result<__ddb::Partition<__ddb::Primary<__Table>>> {
            let mut __pk = __p::KeyWriter::new("Order");
            __pk.literal("CUST");
            __pk.partition_arg::<__Key_customer_id, _>("customer_id", &customer_id)?;
            __ddb::Partition::new(__pk.finish_partition()?)
        }
        ///Starts the sort key of `Order` in the table (`ORDER#{placed}#{order_id:6}`): fill the holes from the left with `.placed(…)`, then `.order_id(…)`, and stop anywhere for a prefix. `.placed_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn sk() -> OrderSk<0usize> {
            OrderSk(
                __p::SortKeyBuilder::<__ddb::Primary<__Table>>::new("Order")
                    .literal("ORDER"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `OPEN#{open_since}` of index `Gsi1`: where a Query for `Order` items on that index starts.
        pub fn gsi1_partition(
            open_since: impl __ddb::KeyArg<u32>,
        ) -> __ddb::Result<__ddb::Partition<__Index_gsi1>> {
            let mut __pk = __p::KeyWriter::new("Order");
            __pk.literal("OPEN");
            __pk.partition_arg::<__Key_open_since, _>("open_since", &open_since)?;
            __ddb::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Order` in index `Gsi1` (`CUST#{customer_id}`): fill the holes from the left with `.customer_id(…)`, and stop anywhere for a prefix. `.customer_id_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> OrderGsi1Sk<0usize> {
            OrderGsi1Sk(
                __p::SortKeyBuilder::<__Index_gsi1>::new("Order").literal("CUST"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Order`, to name in an update.
        pub const fn fields() -> OrderFields {
            OrderFields {
                customer_id: __ddb::Field::new("customer_id", "customer_id"),
                order_id: __ddb::Field::new("order_id", "order_id"),
                placed: __ddb::Field::new("placed", "placed"),
                open_since: __ddb::Field::new("open_since", "open_since"),
                version: __ddb::Field::new("version", "version"),
                updated: __ddb::Field::new("updated", "updated"),
            }
        }
    }
    impl Order {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<
            (__Key_customer_id, __Key_placed, __Key_order_id_6),
            __ddb::key::KeyError,
        > {
            let mut reader = __ddb::key::KeyReader::new(__partition);
            reader.literal("CUST")?;
            let __decoded_customer_id: __Key_customer_id = reader
                .part::<__p::PartitionPart<__Key_customer_id>>()?
                .0;
            reader.finish()?;
            let mut reader = __ddb::key::KeyReader::new(__sort);
            reader.literal("ORDER")?;
            let __decoded_placed: __Key_placed = reader.part::<__Key_placed>()?;
            let __decoded_order_id: __Key_order_id_6 = reader
                .part::<__p::Padded<6usize, __Key_order_id_6>>()?
                .0;
            reader.finish()?;
            __p::Ok((__decoded_customer_id, __decoded_placed, __decoded_order_id))
        }
    }
    ///The stored fields of `Order`, for typed updates: `Order::fields()`.
    pub struct OrderFields {
        ///`Order::customer_id`, stored in the key only (read back from it).
        pub customer_id: __ddb::Field<Order, u64, __ddb::field::KeyOnly>,
        ///`Order::order_id`, stored in the key only (read back from it).
        pub order_id: __ddb::Field<Order, u32, __ddb::field::KeyOnly>,
        ///`Order::placed`, stored in the key only (read back from it).
        pub placed: __ddb::Field<Order, String, __ddb::field::KeyOnly>,
        ///`Order::open_since`, stored as `open_since`.
        pub open_since: __ddb::Field<Order, Option<u32>, __ddb::field::IndexKeyPart>,
        ///`Order::version`, stored as `version`.
        pub version: __ddb::Field<Order, u64, __ddb::field::Stored>,
        ///`Order::updated`, stored as `updated`.
        pub updated: __ddb::Field<Order, u64, __ddb::field::Stored>,
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for OrderFields {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __p::debug_fields(f, "OrderFields", <Order as __ddb::Entity>::LAYOUT)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for OrderFields {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for OrderFields {}
    ///Sort-key builder of `Order` in the table (`ORDER#{placed}#{order_id:6}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct OrderSk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__ddb::Primary<__Table>>,
        ::core::marker::PhantomData<fn() -> Order>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<OrderSk<FILLED>>
    for __ddb::SortKey<__ddb::Primary<__Table>> {
        fn from(stage: OrderSk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl OrderSk<0usize> {
        ///Fills `{placed}`.
        pub fn placed(self, placed: impl __ddb::KeyArg<String>) -> OrderSk<1usize> {
            OrderSk(
                self.0.part("placed", &__p::key_arg::<__Key_placed, _>(&placed)),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{placed}`: every key whose `placed` starts with `cut` (e.g. a year or a month of a date).
        pub fn placed_prefix<C: __ddb::key::PrefixOf<__Key_placed>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0.cut::<__Key_placed, C>("placed", &cut)
        }
    }
    impl OrderSk<1usize> {
        ///Fills `{order_id}`.
        pub fn order_id(self, order_id: u32) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0
                .part("order_id", &__p::Padded::<6usize, __Key_order_id_6>(order_id))
                .whole()
        }
    }
    ///Sort-key builder of `Order` in index `Gsi1` (`CUST#{customer_id}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct OrderGsi1Sk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Order>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<OrderGsi1Sk<FILLED>>
    for __ddb::SortKey<__Index_gsi1> {
        fn from(stage: OrderGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl OrderGsi1Sk<0usize> {
        ///Fills `{customer_id}`.
        pub fn customer_id(
            self,
            customer_id: impl __ddb::KeyArg<u64>,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0
                .part("customer_id", &__p::key_arg::<__Key_customer_id, _>(&customer_id))
                .whole()
        }
        ///Cuts inside `{customer_id}`: every key whose `customer_id` starts with `cut` (e.g. a year or a month of a date).
        pub fn customer_id_prefix<C: __ddb::key::PrefixOf<__Key_customer_id>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_customer_id, C>("customer_id", &cut)
        }
    }
    #[automatically_derived]
    impl __ddb::Entity for Order {
        type Table = __Table;
        const RUST_NAME: &'static __p::str = "Order";
        const TYPE_TAG: &'static __p::str = "order";
        const INDEXES: &'static [__ddb::IndexSchema] = &[
            <__Index_gsi1 as __ddb::Index>::SCHEMA,
        ];
        const LAYOUT: &'static __ddb::layout::EntityLayout = &__ddb::layout::EntityLayout::new(
            "Order",
            "order",
            &[
                __p::layout::primary(
                    __p::layout::template(
                        "CUST#{customer_id}",
                        false,
                        &[
                            &[__p::layout::lit("CUST")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_customer_id>,
                                >("customer_id", "u64", __p::None, false, false),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "ORDER#{placed}#{order_id:6}",
                            false,
                            &[
                                &[__p::layout::lit("ORDER")],
                                &[
                                    __p::layout::hole::<
                                        __Key_placed,
                                    >("placed", "String", __p::None, false, false),
                                ],
                                &[
                                    __p::layout::hole::<
                                        __p::Padded<6usize, __Key_order_id_6>,
                                    >("order_id", "u32", __p::Some(6u8), false, false),
                                ],
                            ],
                        ),
                    ),
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_gsi1 as __ddb::Index>::SCHEMA,
                    __p::layout::template(
                        "OPEN#{open_since}",
                        false,
                        &[
                            &[__p::layout::lit("OPEN")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_open_since>,
                                >("open_since", "u32", __p::None, true, false),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "CUST#{customer_id}",
                            false,
                            &[
                                &[__p::layout::lit("CUST")],
                                &[
                                    __p::layout::hole::<
                                        __Key_customer_id,
                                    >("customer_id", "u64", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    true,
                    __p::None,
                    __p::None,
                ),
            ],
            &[
                __p::layout::key_only("customer_id", "customer_id", "u64", false),
                __p::layout::key_only("order_id", "order_id", "u32", false),
                __p::layout::key_only("placed", "placed", "String", false),
                __p::layout::field("open_since", "open_since", "Option<u32>", true),
                __p::layout::version("version", "version", "u64", false),
                __p::layout::field("updated", "updated", "u64", false),
            ],
            false,
        );
        fn primary_key(&self) -> __ddb::Result<__ddb::Key<Self>> {
            Self::key(
                __p::checked::<__Key_customer_id>(&self.customer_id),
                __p::checked::<__Key_placed>(&self.placed),
                *__p::checked::<__Key_order_id_6>(&self.order_id),
            )
        }
        fn index_entries(&self) -> __ddb::Result<__p::Vec<__ddb::IndexEntry>> {
            __p::Ok(
                __p::Vec::from([
                    __ddb::IndexEntry {
                        index: <__Index_gsi1 as __ddb::Index>::SCHEMA,
                        key: match (&self.open_since,) {
                            (__p::Some(open_since),) => {
                                __p::Some(__ddb::IndexKey {
                                    partition: Self::gsi1_partition(
                                            __p::checked::<__Key_open_since>(open_since),
                                        )?
                                        .into_string(),
                                    sort: __p::Some(
                                        (Self::gsi1_sk()
                                            .customer_id(
                                                __p::checked::<__Key_customer_id>(&self.customer_id),
                                            ))
                                            .into_value()?,
                                    ),
                                })
                            }
                            _ => __p::None,
                        },
                    },
                ]),
            )
        }
    }
    #[automatically_derived]
    impl __p::EntityHooks for Order {
        fn key_matches(p: &__p::str, s: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, s, Self::__read_key)
        }
        fn version(&self) -> __p::u64 {
            <u64 as __p::VersionNumber>::to_u64(self.version)
        }
        const UPDATED_AT: __p::Option<__p::Stamp> = __p::Some(
            __p::Stamp::of::<u64>("Order", "updated"),
        );
        #[allow(unused_variables)]
        fn index_changes(
            key: &__ddb::Key<Self>,
            changes: &__p::Changes,
        ) -> __ddb::Result<__p::Vec<__p::IndexChange>> {
            let (customer_id, placed, order_id) = &Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let __index_gsi1 = <__Index_gsi1 as __ddb::Index>::SCHEMA;
            let mut out = __p::Vec::new();
            if changes.touches(&["open_since"]) {
                let __field_open_since: &Option<u32> = changes
                    .value_or_removed("Order", __index_gsi1.name, "open_since")?
                    .unwrap_or(&__p::None);
                let open_since: __p::Option<&__Key_open_since> = __field_open_since
                    .as_ref();
                out.push(
                    match (open_since,) {
                        (__p::Some(open_since),) => {
                            __p::IndexChange::Set(
                                __index_gsi1,
                                __ddb::IndexKey {
                                    partition: Self::gsi1_partition(open_since)?.into_string(),
                                    sort: __p::Some(
                                        (Self::gsi1_sk().customer_id(customer_id)).into_value()?,
                                    ),
                                },
                            )
                        }
                        _ => __p::IndexChange::Remove(__index_gsi1),
                    },
                );
            }
            __p::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &__ddb::Key<Self>,
        ) -> __ddb::Result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
            let (customer_id, placed, order_id) = &Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let mut fields = __p::key_fields_buffer(3usize);
            fields.push(("customer_id", __p::key_field_value("Order", customer_id)?));
            fields.push(("placed", __p::key_field_value("Order", placed)?));
            fields.push(("order_id", __p::key_field_value("Order", order_id)?));
            __p::Ok(fields)
        }
    }
    #[automatically_derived]
    impl __ddb::Versioned for Order {}
    const _: () = __p::assert_global_index::<__Index_gsi1>();
};
