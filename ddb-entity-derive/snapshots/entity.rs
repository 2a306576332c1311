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
    type __Key_customer_id = <[(); {
        ::ddb_entity::__private::assert_key_part::<u64>();
        0
    }] as __KeyType<u64>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_placed = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_order_id_6 = <[(); {
        if 6usize > <u32 as ::ddb_entity::__private::PaddedInt>::MAX_DIGITS {
            ::core::panic!(
                "`{{order_id:6}}` pads to 6 digits, but a `u32` has fewer even at its largest: write a smaller width, or `{{order_id}}` for the type's full width"
            );
        }
        0
    }] as __KeyType<u32>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_open_since = <[(); {
        ::ddb_entity::__private::assert_key_part::<u32>();
        0
    }] as __KeyType<u32>>::Checked;
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
    const _: () = ::core::assert!(
        ::ddb_entity::__private::table_has_sort_key:: < __Table > (),
        "table `App` has no sort key in its `table!` declaration (one item per partition key): remove this `sk`, or declare a sort_key in `table!`"
    );
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "CUST#{customer_id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "ORDER#{placed}#{order_id:6}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "OPEN#{open_since}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "CUST#{customer_id}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = ::core::assert!(
        < __Key_placed as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{placed}}` in the sort key \"ORDER#{{placed}}#{{order_id:6}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_order_id_6 as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{order_id}}` in the sort key \"ORDER#{{placed}}#{{order_id:6}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_customer_id as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{customer_id}}` in the sort key \"CUST#{{customer_id}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    #[automatically_derived]
    impl Order {
        ///The primary key of the `Order` with these key fields: `CUST#{customer_id}` / `ORDER#{placed}#{order_id:6}`.
        pub fn key(
            customer_id: impl ::ddb_entity::KeyArg<u64>,
            placed: impl ::ddb_entity::KeyArg<String>,
            order_id: u32,
        ) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Order");
            __pk.literal("CUST");
            __pk.part(
                "customer_id",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<
                        __Key_customer_id,
                        _,
                    >(&customer_id),
                ),
            )?;
            ::ddb_entity::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = ::ddb_entity::__private::KeyWriter::new("Order");
                    __sk.literal("ORDER");
                    __sk.part(
                        "placed",
                        &::ddb_entity::__private::key_arg::<__Key_placed, _>(&placed),
                    )?;
                    __sk.part(
                        "order_id",
                        &::ddb_entity::__private::Padded::<
                            6usize,
                            __Key_order_id_6,
                        >(order_id),
                    )?;
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `CUST#{customer_id}`: where a Query for `Order` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            customer_id: impl ::ddb_entity::KeyArg<u64>,
        ) -> ::ddb_entity::Result<
            ::ddb_entity::Partition<::ddb_entity::Primary<__Table>>,
        > {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Order");
            __pk.literal("CUST");
            __pk.part(
                "customer_id",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<
                        __Key_customer_id,
                        _,
                    >(&customer_id),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_partition()?)
        }
        ///Starts the sort key of `Order` in the table (`ORDER#{placed}#{order_id:6}`): fill the holes from the left with `.placed(…)`, then `.order_id(…)`, and stop anywhere for a prefix. `.placed_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn sk() -> OrderSk<0usize> {
            OrderSk(
                ::ddb_entity::__private::SortKeyBuilder::<
                    ::ddb_entity::Primary<__Table>,
                >::new("Order")
                    .literal("ORDER"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `OPEN#{open_since}` of index `Gsi1`: where a Query for `Order` items on that index starts.
        pub fn gsi1_partition(
            open_since: impl ::ddb_entity::KeyArg<u32>,
        ) -> ::ddb_entity::Result<::ddb_entity::Partition<__Index_gsi1>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Order");
            __pk.literal("OPEN");
            __pk.part(
                "open_since",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_open_since, _>(&open_since),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Order` in index `Gsi1` (`CUST#{customer_id}`): fill the holes from the left with `.customer_id(…)`, and stop anywhere for a prefix. `.customer_id_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> OrderGsi1Sk<0usize> {
            OrderGsi1Sk(
                ::ddb_entity::__private::SortKeyBuilder::<__Index_gsi1>::new("Order")
                    .literal("CUST"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Order`, to name in an update.
        pub const fn fields() -> OrderFields {
            OrderFields {
                customer_id: ::ddb_entity::Field::new("customer_id", "customer_id"),
                order_id: ::ddb_entity::Field::new("order_id", "order_id"),
                placed: ::ddb_entity::Field::new("placed", "placed"),
                open_since: ::ddb_entity::Field::new("open_since", "open_since"),
                version: ::ddb_entity::Field::new("version", "version"),
                updated: ::ddb_entity::Field::new("updated", "updated"),
            }
        }
    }
    #[automatically_derived]
    impl Order {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &::core::primitive::str,
            __sort: &::core::primitive::str,
        ) -> ::core::result::Result<
            (__Key_customer_id, __Key_placed, __Key_order_id_6),
            ::ddb_entity::key::KeyError,
        > {
            let mut reader = ::ddb_entity::key::KeyReader::new(__partition);
            reader.literal("CUST")?;
            let __decoded_customer_id: __Key_customer_id = reader
                .part::<::ddb_entity::__private::PartitionPart<__Key_customer_id>>()?
                .0;
            reader.finish()?;
            let mut reader = ::ddb_entity::key::KeyReader::new(__sort);
            reader.literal("ORDER")?;
            let __decoded_placed: __Key_placed = reader.part::<__Key_placed>()?;
            let __decoded_order_id: __Key_order_id_6 = reader
                .part::<::ddb_entity::__private::Padded<6usize, __Key_order_id_6>>()?
                .0;
            reader.finish()?;
            ::core::result::Result::Ok((
                __decoded_customer_id,
                __decoded_placed,
                __decoded_order_id,
            ))
        }
    }
    ///The stored fields of `Order`, for typed updates: `Order::fields()`.
    #[derive(Debug, Clone, Copy)]
    pub struct OrderFields {
        ///`Order::customer_id`, stored in the key only (read back from it).
        pub customer_id: ::ddb_entity::Field<Order, u64, ::ddb_entity::field::KeyOnly>,
        ///`Order::order_id`, stored in the key only (read back from it).
        pub order_id: ::ddb_entity::Field<Order, u32, ::ddb_entity::field::KeyOnly>,
        ///`Order::placed`, stored in the key only (read back from it).
        pub placed: ::ddb_entity::Field<Order, String, ::ddb_entity::field::KeyOnly>,
        ///`Order::open_since`, stored as `open_since`.
        pub open_since: ::ddb_entity::Field<
            Order,
            Option<u32>,
            ::ddb_entity::field::IndexKeyPart,
        >,
        ///`Order::version`, stored as `version`.
        pub version: ::ddb_entity::Field<Order, u64, ::ddb_entity::field::Stored>,
        ///`Order::updated`, stored as `updated`.
        pub updated: ::ddb_entity::Field<Order, u64, ::ddb_entity::field::Stored>,
    }
    ///Sort-key builder of `Order` in the table (`ORDER#{placed}#{order_id:6}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct OrderSk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<::ddb_entity::Primary<__Table>>,
        ::core::marker::PhantomData<fn() -> Order>,
    );
    #[automatically_derived]
    impl<const FILLED: ::core::primitive::usize> ::core::convert::From<OrderSk<FILLED>>
    for ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
        fn from(stage: OrderSk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl OrderSk<0usize> {
        ///Fills `{placed}`.
        pub fn placed(
            self,
            placed: impl ::ddb_entity::KeyArg<String>,
        ) -> OrderSk<1usize> {
            OrderSk(
                self
                    .0
                    .part(
                        "placed",
                        &::ddb_entity::__private::key_arg::<__Key_placed, _>(&placed),
                    ),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{placed}`: every key whose `placed` starts with `cut` (e.g. a year or a month of a date).
        pub fn placed_prefix<C: ::ddb_entity::key::PrefixOf<__Key_placed>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            self.0.cut::<__Key_placed, C>("placed", &cut)
        }
    }
    #[automatically_derived]
    impl OrderSk<1usize> {
        ///Fills `{order_id}`.
        pub fn order_id(
            self,
            order_id: u32,
        ) -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            self.0
                .part(
                    "order_id",
                    &::ddb_entity::__private::Padded::<
                        6usize,
                        __Key_order_id_6,
                    >(order_id),
                )
                .whole()
        }
    }
    ///Sort-key builder of `Order` in index `Gsi1` (`CUST#{customer_id}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct OrderGsi1Sk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Order>,
    );
    #[automatically_derived]
    impl<
        const FILLED: ::core::primitive::usize,
    > ::core::convert::From<OrderGsi1Sk<FILLED>>
    for ::ddb_entity::SortKey<__Index_gsi1> {
        fn from(stage: OrderGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl OrderGsi1Sk<0usize> {
        ///Fills `{customer_id}`.
        pub fn customer_id(
            self,
            customer_id: impl ::ddb_entity::KeyArg<u64>,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0
                .part(
                    "customer_id",
                    &::ddb_entity::__private::key_arg::<
                        __Key_customer_id,
                        _,
                    >(&customer_id),
                )
                .whole()
        }
        ///Cuts inside `{customer_id}`: every key whose `customer_id` starts with `cut` (e.g. a year or a month of a date).
        pub fn customer_id_prefix<C: ::ddb_entity::key::PrefixOf<__Key_customer_id>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_customer_id, C>("customer_id", &cut)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::Entity for Order {
        type Table = __Table;
        const RUST_NAME: &'static ::core::primitive::str = "Order";
        const TYPE_TAG: &'static ::core::primitive::str = "order";
        const INDEXES: &'static [::ddb_entity::IndexSchema] = &[
            <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
        ];
        const LAYOUT: &'static ::ddb_entity::layout::EntityLayout = &::ddb_entity::layout::EntityLayout::new(
            "Order",
            "order",
            &[
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::None,
                    ::ddb_entity::layout::TemplateLayout::new(
                        "CUST#{customer_id}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("CUST")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "customer_id",
                                        "u64",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_customer_id,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_customer_id,
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
                            "ORDER#{placed}#{order_id:6}",
                            false,
                            &[
                                &[::ddb_entity::layout::Piece::Literal("ORDER")],
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "placed",
                                            "String",
                                            ::core::option::Option::None,
                                            <__Key_placed as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_placed as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                ],
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "order_id",
                                            "u32",
                                            ::core::option::Option::Some(6u8),
                                            <::ddb_entity::__private::Padded<
                                                6usize,
                                                __Key_order_id_6,
                                            > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <::ddb_entity::__private::Padded<
                                                6usize,
                                                __Key_order_id_6,
                                            > as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                ],
                            ],
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
                        "OPEN#{open_since}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("OPEN")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "open_since",
                                        "u32",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_open_since,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_open_since,
                                        > as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                        true,
                                        false,
                                    ),
                                ),
                            ],
                        ],
                    ),
                    ::core::option::Option::Some(
                        ::ddb_entity::layout::TemplateLayout::new(
                            "CUST#{customer_id}",
                            false,
                            &[
                                &[::ddb_entity::layout::Piece::Literal("CUST")],
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "customer_id",
                                            "u64",
                                            ::core::option::Option::None,
                                            <__Key_customer_id as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_customer_id as ::ddb_entity::__private::KeyPart>::CARDINALITY,
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
            ],
            &[
                ::ddb_entity::layout::FieldLayout::new(
                    "customer_id",
                    "customer_id",
                    "u64",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "order_id",
                    "order_id",
                    "u32",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "placed",
                    "placed",
                    "String",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "open_since",
                    "open_since",
                    "Option<u32>",
                    true,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "version",
                    "version",
                    "u64",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "updated",
                    "updated",
                    "u64",
                    false,
                ),
            ],
            false,
        );
        fn primary_key(&self) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            Self::key(
                __checked::<__Key_customer_id>(&self.customer_id),
                __checked::<__Key_placed>(&self.placed),
                *__checked::<__Key_order_id_6>(&self.order_id),
            )
        }
        fn index_entries(
            &self,
        ) -> ::ddb_entity::Result<::std::vec::Vec<::ddb_entity::IndexEntry>> {
            #[allow(unused_mut)]
            let mut entries = ::std::vec::Vec::with_capacity(1usize);
            entries
                .push(::ddb_entity::IndexEntry {
                    index: <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                    key: match (&self.open_since,) {
                        (::core::option::Option::Some(open_since),) => {
                            ::core::option::Option::Some(::ddb_entity::IndexKey {
                                partition: Self::gsi1_partition(
                                        __checked::<__Key_open_since>(open_since),
                                    )?
                                    .into_string(),
                                sort: ::core::option::Option::Some(
                                    (Self::gsi1_sk()
                                        .customer_id(
                                            __checked::<__Key_customer_id>(&self.customer_id),
                                        ))
                                        .into_value()?,
                                ),
                            })
                        }
                        _ => ::core::option::Option::None,
                    },
                });
            ::core::result::Result::Ok(entries)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::__private::EntityHooks for Order {
        const KEY_FIELD_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[
            "customer_id",
            "placed",
            "order_id",
        ];
        const KEY_ONLY_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[
            "customer_id",
            "order_id",
            "placed",
        ];
        fn key_matches(
            __partition: &::core::primitive::str,
            __sort: ::core::option::Option<&::core::primitive::str>,
        ) -> ::core::primitive::bool {
            let ::core::option::Option::Some(__sort) = __sort else {
                return false;
            };
            Self::__read_key(__partition, __sort).is_ok()
        }
        const VERSION_ATTRIBUTE: ::core::option::Option<
            &'static ::core::primitive::str,
        > = ::core::option::Option::Some("version");
        fn version(&self) -> ::core::primitive::u64 {
            <u64 as ::ddb_entity::__private::VersionNumber>::to_u64(self.version)
        }
        fn stamp(
            &self,
            item: &mut ::ddb_entity::Item,
            now: ::std::time::SystemTime,
        ) -> ::ddb_entity::Result<()> {
            item.insert(
                ::std::string::String::from("updated"),
                ::ddb_entity::__private::timestamp::<u64>("Order", now)?,
            );
            ::core::result::Result::Ok(())
        }
        #[allow(unused_variables)]
        fn updated_at(
            now: ::std::time::SystemTime,
        ) -> ::ddb_entity::Result<
            ::core::option::Option<
                (
                    &'static ::core::primitive::str,
                    ::ddb_entity::sdk::types::AttributeValue,
                ),
            >,
        > {
            ::core::result::Result::Ok(
                ::core::option::Option::Some((
                    "updated",
                    ::ddb_entity::__private::timestamp::<u64>("Order", now)?,
                )),
            )
        }
        #[allow(unused_variables)]
        fn created_at(
            now: ::std::time::SystemTime,
        ) -> ::ddb_entity::Result<
            ::core::option::Option<
                (
                    &'static ::core::primitive::str,
                    ::ddb_entity::sdk::types::AttributeValue,
                ),
            >,
        > {
            ::core::result::Result::Ok(::core::option::Option::None)
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &::ddb_entity::Key<Self>,
            changes: &::ddb_entity::__private::Changes,
        ) -> ::ddb_entity::Result<
            ::std::vec::Vec<::ddb_entity::__private::IndexChange>,
        > {
            let (__decoded_customer_id, __decoded_placed, __decoded_order_id) = Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let customer_id = &__decoded_customer_id;
            let placed = &__decoded_placed;
            let order_id = &__decoded_order_id;
            #[allow(unused_mut)]
            let mut out = ::std::vec::Vec::new();
            if changes.touches(&["open_since"]) {
                let __none_open_since: Option<u32> = ::core::option::Option::None;
                let __field_open_since: &Option<u32> = match changes
                    .lookup::<Option<u32>>("open_since")
                {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    ::ddb_entity::__private::Lookup::Removed => &__none_open_since,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Order",
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA.name,
                                "open_since",
                            ),
                        );
                    }
                };
                let open_since: ::core::option::Option<&__Key_open_since> = __field_open_since
                    .as_ref();
                out.push(
                    match (open_since,) {
                        (::core::option::Option::Some(open_since),) => {
                            ::ddb_entity::__private::IndexChange::Set(
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                                ::ddb_entity::IndexKey {
                                    partition: Self::gsi1_partition(open_since)?.into_string(),
                                    sort: ::core::option::Option::Some(
                                        (Self::gsi1_sk().customer_id(customer_id)).into_value()?,
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
            let (__decoded_customer_id, __decoded_placed, __decoded_order_id) = Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let customer_id = &__decoded_customer_id;
            let placed = &__decoded_placed;
            let order_id = &__decoded_order_id;
            #[allow(unused_mut)]
            let mut fields = ::std::vec::Vec::with_capacity(3usize);
            fields
                .push((
                    "customer_id",
                    ::ddb_entity::__private::key_field_value("Order", customer_id)?,
                ));
            fields
                .push((
                    "placed",
                    ::ddb_entity::__private::key_field_value("Order", placed)?,
                ));
            fields
                .push((
                    "order_id",
                    ::ddb_entity::__private::key_field_value("Order", order_id)?,
                ));
            ::core::result::Result::Ok(fields)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::Versioned for Order {}
    const _: () = ::ddb_entity::__private::assert_global_index::<__Index_gsi1>();
};
