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
    type __Key_repo = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_number = <[(); {
        ::ddb_entity::__private::assert_key_part::<u32>();
        0
    }] as __KeyType<u32>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_comment = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_author = <[(); {
        ::ddb_entity::__private::assert_key_part::<String>();
        0
    }] as __KeyType<String>>::Checked;
    #[allow(non_camel_case_types)]
    type __Key_kind = <[(); {
        ::ddb_entity::__private::assert_key_part::<Kind>();
        0
    }] as __KeyType<Kind>>::Checked;
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
    >("App", "REPO#{repo}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "#ISSUE#{number}-{comment}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "AUTHOR#{author}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::delimiter_mismatch::<
        __Table,
    >("App", "{kind}REACT#{number}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::followed_hole::<
        __Table,
    >(
        <u32 as ::ddb_entity::__private::KeyPart>::FIXED_LEN.is_some(),
        true,
        "App",
        "number",
        "u32",
    ) {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let ::core::option::Option::Some(m) = ::ddb_entity::__private::followed_hole::<
        __Table,
    >(
        <Kind as ::ddb_entity::__private::KeyPart>::PREFIX_FREE,
        false,
        "App",
        "kind",
        "Kind",
    ) {
        ::core::panic!("{}", m.text())
    };
    const _: () = ::core::assert!(
        < __Key_number as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{number}}` in the sort key \"#ISSUE#{{number}}-{{comment}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_comment as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{comment}}` in the sort key \"#ISSUE#{{number}}-{{comment}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_kind as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{kind}}` in the sort key \"{{kind}}REACT#{{number}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    const _: () = ::core::assert!(
        < __Key_number as ::ddb_entity::key::KeyPart > ::ORDERED,
        "`{{number}}` in the sort key \"{{kind}}REACT#{{number}}\" has a key part that does not sort (`KeyPart::ORDERED` is false), so a range over it would return nonsense: for a #[derive(KeyPart)] enum, rename its variants so their stored names sort as declared (#[key(rename = \"1-low\")]) or declare #[key(format = \"position\")]; for numbers written unpadded, write the type as `Unordered<…>` so the derive keeps ranges off it; or move the field into the partition key"
    );
    #[automatically_derived]
    impl Comment {
        ///The primary key of the `Comment` with these key fields: `REPO#{repo}` / `#ISSUE#{number}-{comment}`.
        pub fn key(
            repo: impl ::ddb_entity::KeyArg<String>,
            number: impl ::ddb_entity::KeyArg<u32>,
            comment: impl ::ddb_entity::KeyArg<String>,
        ) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Comment");
            __pk.literal("REPO");
            __pk.part(
                "repo",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_repo, _>(&repo),
                ),
            )?;
            ::ddb_entity::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = ::ddb_entity::__private::KeyWriter::new("Comment");
                    __sk.literal("");
                    __sk.literal("ISSUE");
                    __sk.part(
                        "number",
                        &::ddb_entity::__private::key_arg::<__Key_number, _>(&number),
                    )?;
                    __sk.join_literal("-");
                    __sk.join_part(
                        "comment",
                        &::ddb_entity::__private::key_arg::<__Key_comment, _>(&comment),
                    )?;
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `REPO#{repo}`: where a Query for `Comment` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            repo: impl ::ddb_entity::KeyArg<String>,
        ) -> ::ddb_entity::Result<
            ::ddb_entity::Partition<::ddb_entity::Primary<__Table>>,
        > {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Comment");
            __pk.literal("REPO");
            __pk.part(
                "repo",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_repo, _>(&repo),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_partition()?)
        }
        ///Starts the sort key of `Comment` in the table (`#ISSUE#{number}-{comment}`): fill the holes from the left with `.number(…)`, then `.comment(…)`, and stop anywhere for a prefix. `.number_prefix(…)`, `.comment_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn sk() -> CommentSk<0usize> {
            CommentSk(
                ::ddb_entity::__private::SortKeyBuilder::<
                    ::ddb_entity::Primary<__Table>,
                >::new("Comment")
                    .literal("")
                    .literal("ISSUE"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `AUTHOR#{author}` of index `Gsi1`: where a Query for `Comment` items on that index starts.
        pub fn gsi1_partition(
            author: impl ::ddb_entity::KeyArg<String>,
        ) -> ::ddb_entity::Result<::ddb_entity::Partition<__Index_gsi1>> {
            let mut __pk = ::ddb_entity::__private::KeyWriter::new("Comment");
            __pk.literal("AUTHOR");
            __pk.part(
                "author",
                &::ddb_entity::__private::PartitionPart(
                    ::ddb_entity::__private::key_arg::<__Key_author, _>(&author),
                ),
            )?;
            ::ddb_entity::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Comment` in index `Gsi1` (`{kind}REACT#{number}`): fill the holes from the left with `.kind(…)`, then `.number(…)`, and stop anywhere for a prefix. `.kind_prefix(…)`, `.number_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> CommentGsi1Sk<0usize> {
            CommentGsi1Sk(
                ::ddb_entity::__private::SortKeyBuilder::<__Index_gsi1>::new("Comment"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Comment`, to name in an update.
        pub const fn fields() -> CommentFields {
            CommentFields {
                repo: ::ddb_entity::Field::new("repo", "repo"),
                number: ::ddb_entity::Field::new("number", "number"),
                comment: ::ddb_entity::Field::new("comment", "comment"),
                author: ::ddb_entity::Field::new("author", "author"),
                kind: ::ddb_entity::Field::new("kind", "kind"),
            }
        }
    }
    #[automatically_derived]
    impl Comment {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &::core::primitive::str,
            __sort: &::core::primitive::str,
        ) -> ::core::result::Result<
            (__Key_repo, __Key_number, __Key_comment),
            ::ddb_entity::key::KeyError,
        > {
            let mut reader = ::ddb_entity::key::KeyReader::new(__partition);
            reader.literal("REPO")?;
            let __decoded_repo: __Key_repo = reader
                .part::<::ddb_entity::__private::PartitionPart<__Key_repo>>()?
                .0;
            reader.finish()?;
            let mut reader = ::ddb_entity::key::KeyReader::new(__sort);
            reader.literal("")?;
            reader.literal("ISSUE")?;
            #[allow(unused_mut)]
            let mut segment = reader.segment()?;
            let __decoded_number: __Key_number = segment.fixed::<__Key_number>()?;
            segment.literal("-")?;
            let __decoded_comment: __Key_comment = segment.last::<__Key_comment>("")?;
            reader.finish()?;
            ::core::result::Result::Ok((
                __decoded_repo,
                __decoded_number,
                __decoded_comment,
            ))
        }
    }
    ///The stored fields of `Comment`, for typed updates: `Comment::fields()`.
    #[derive(Debug, Clone, Copy)]
    pub struct CommentFields {
        ///`Comment::repo`, stored in the key only (read back from it).
        pub repo: ::ddb_entity::Field<Comment, String, ::ddb_entity::field::KeyOnly>,
        ///`Comment::number`, stored in the key only (read back from it).
        pub number: ::ddb_entity::Field<Comment, u32, ::ddb_entity::field::KeyOnly>,
        ///`Comment::comment`, stored in the key only (read back from it).
        pub comment: ::ddb_entity::Field<Comment, String, ::ddb_entity::field::KeyOnly>,
        ///`Comment::author`, stored as `author`.
        pub author: ::ddb_entity::Field<
            Comment,
            String,
            ::ddb_entity::field::IndexKeyPart,
        >,
        ///`Comment::kind`, stored as `kind`.
        pub kind: ::ddb_entity::Field<Comment, Kind, ::ddb_entity::field::IndexKeyPart>,
    }
    ///Sort-key builder of `Comment` in the table (`#ISSUE#{number}-{comment}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct CommentSk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<::ddb_entity::Primary<__Table>>,
        ::core::marker::PhantomData<fn() -> Comment>,
    );
    #[automatically_derived]
    impl<const FILLED: ::core::primitive::usize> ::core::convert::From<CommentSk<FILLED>>
    for ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
        fn from(stage: CommentSk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl CommentSk<0usize> {
        ///Fills `{number}`.
        pub fn number(
            self,
            number: impl ::ddb_entity::KeyArg<u32>,
        ) -> CommentSk<1usize> {
            CommentSk(
                self
                    .0
                    .part(
                        "number",
                        &::ddb_entity::__private::key_arg::<__Key_number, _>(&number),
                    )
                    .join_literal("-")
                    .continues(),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{number}`: every key whose `number` starts with `cut` (e.g. a year or a month of a date).
        pub fn number_prefix<C: ::ddb_entity::key::PrefixOf<__Key_number>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            self.0.cut::<__Key_number, C>("number", &cut)
        }
    }
    #[automatically_derived]
    impl CommentSk<1usize> {
        ///Fills `{comment}`.
        pub fn comment(
            self,
            comment: impl ::ddb_entity::KeyArg<String>,
        ) -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            self.0
                .join_part(
                    "comment",
                    &::ddb_entity::__private::key_arg::<__Key_comment, _>(&comment),
                )
                .whole()
        }
        ///Cuts inside `{comment}`: every key whose `comment` starts with `cut` (e.g. a year or a month of a date).
        pub fn comment_prefix<C: ::ddb_entity::key::PrefixOf<__Key_comment>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<::ddb_entity::Primary<__Table>> {
            self.0.join_cut::<__Key_comment, C>("comment", &cut)
        }
    }
    ///Sort-key builder of `Comment` in index `Gsi1` (`{kind}REACT#{number}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct CommentGsi1Sk<const FILLED: ::core::primitive::usize>(
        ::ddb_entity::__private::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Comment>,
    );
    #[automatically_derived]
    impl<
        const FILLED: ::core::primitive::usize,
    > ::core::convert::From<CommentGsi1Sk<FILLED>>
    for ::ddb_entity::SortKey<__Index_gsi1> {
        fn from(stage: CommentGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    #[automatically_derived]
    impl CommentGsi1Sk<0usize> {
        ///Fills `{kind}`.
        pub fn kind(
            self,
            kind: impl ::ddb_entity::KeyArg<Kind>,
        ) -> CommentGsi1Sk<1usize> {
            CommentGsi1Sk(
                self
                    .0
                    .part(
                        "kind",
                        &::ddb_entity::__private::key_arg::<__Key_kind, _>(&kind),
                    )
                    .join_literal("REACT"),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{kind}`: every key whose `kind` starts with `cut` (e.g. a year or a month of a date).
        pub fn kind_prefix<C: ::ddb_entity::key::PrefixOf<__Key_kind>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_kind, C>("kind", &cut)
        }
    }
    #[automatically_derived]
    impl CommentGsi1Sk<1usize> {
        ///Fills `{number}`.
        pub fn number(
            self,
            number: impl ::ddb_entity::KeyArg<u32>,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0
                .part(
                    "number",
                    &::ddb_entity::__private::key_arg::<__Key_number, _>(&number),
                )
                .whole()
        }
        ///Cuts inside `{number}`: every key whose `number` starts with `cut` (e.g. a year or a month of a date).
        pub fn number_prefix<C: ::ddb_entity::key::PrefixOf<__Key_number>>(
            self,
            cut: C,
        ) -> ::ddb_entity::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_number, C>("number", &cut)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::Entity for Comment {
        type Table = __Table;
        const RUST_NAME: &'static ::core::primitive::str = "Comment";
        const TYPE_TAG: &'static ::core::primitive::str = "comment";
        const INDEXES: &'static [::ddb_entity::IndexSchema] = &[
            <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
        ];
        const LAYOUT: &'static ::ddb_entity::layout::EntityLayout = &::ddb_entity::layout::EntityLayout::new(
            "Comment",
            "comment",
            &[
                ::ddb_entity::layout::KeyLayout::new(
                    ::core::option::Option::None,
                    ::ddb_entity::layout::TemplateLayout::new(
                        "REPO#{repo}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("REPO")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "repo",
                                        "String",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_repo,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_repo,
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
                            "#ISSUE#{number}-{comment}",
                            false,
                            &[
                                &[],
                                &[::ddb_entity::layout::Piece::Literal("ISSUE")],
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "number",
                                            "u32",
                                            ::core::option::Option::None,
                                            <__Key_number as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_number as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                    ::ddb_entity::layout::Piece::Literal("-"),
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "comment",
                                            "String",
                                            ::core::option::Option::None,
                                            <__Key_comment as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_comment as ::ddb_entity::__private::KeyPart>::CARDINALITY,
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
                        "AUTHOR#{author}",
                        false,
                        &[
                            &[::ddb_entity::layout::Piece::Literal("AUTHOR")],
                            &[
                                ::ddb_entity::layout::Piece::Hole(
                                    ::ddb_entity::layout::HoleLayout::new(
                                        "author",
                                        "String",
                                        ::core::option::Option::None,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_author,
                                        > as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                        <::ddb_entity::__private::PartitionPart<
                                            __Key_author,
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
                            "{kind}REACT#{number}",
                            false,
                            &[
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "kind",
                                            "Kind",
                                            ::core::option::Option::None,
                                            <__Key_kind as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_kind as ::ddb_entity::__private::KeyPart>::CARDINALITY,
                                            false,
                                            false,
                                        ),
                                    ),
                                    ::ddb_entity::layout::Piece::Literal("REACT"),
                                ],
                                &[
                                    ::ddb_entity::layout::Piece::Hole(
                                        ::ddb_entity::layout::HoleLayout::new(
                                            "number",
                                            "u32",
                                            ::core::option::Option::None,
                                            <__Key_number as ::ddb_entity::__private::KeyPart>::FIXED_LEN,
                                            <__Key_number as ::ddb_entity::__private::KeyPart>::CARDINALITY,
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
            ],
            &[
                ::ddb_entity::layout::FieldLayout::new("repo", "repo", "String", false),
                ::ddb_entity::layout::FieldLayout::new("number", "number", "u32", false),
                ::ddb_entity::layout::FieldLayout::new(
                    "comment",
                    "comment",
                    "String",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new(
                    "author",
                    "author",
                    "String",
                    false,
                ),
                ::ddb_entity::layout::FieldLayout::new("kind", "kind", "Kind", false),
            ],
            false,
        );
        fn primary_key(&self) -> ::ddb_entity::Result<::ddb_entity::Key<Self>> {
            Self::key(
                __checked::<__Key_repo>(&self.repo),
                __checked::<__Key_number>(&self.number),
                __checked::<__Key_comment>(&self.comment),
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
                    key: ::core::option::Option::Some(::ddb_entity::IndexKey {
                        partition: Self::gsi1_partition(
                                __checked::<__Key_author>(&self.author),
                            )?
                            .into_string(),
                        sort: ::core::option::Option::Some(
                            (Self::gsi1_sk()
                                .kind(__checked::<__Key_kind>(&self.kind))
                                .number(__checked::<__Key_number>(&self.number)))
                                .into_value()?,
                        ),
                    }),
                });
            ::core::result::Result::Ok(entries)
        }
    }
    #[automatically_derived]
    impl ::ddb_entity::__private::EntityHooks for Comment {
        const KEY_FIELD_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[
            "repo",
            "number",
            "comment",
        ];
        const KEY_ONLY_ATTRIBUTES: &'static [&'static ::core::primitive::str] = &[
            "repo",
            "number",
            "comment",
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
        #[allow(unused_variables)]
        fn index_changes(
            key: &::ddb_entity::Key<Self>,
            changes: &::ddb_entity::__private::Changes,
        ) -> ::ddb_entity::Result<
            ::std::vec::Vec<::ddb_entity::__private::IndexChange>,
        > {
            let (__decoded_repo, __decoded_number, __decoded_comment) = Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let repo = &__decoded_repo;
            let number = &__decoded_number;
            let comment = &__decoded_comment;
            #[allow(unused_mut)]
            let mut out = ::std::vec::Vec::new();
            if changes.touches(&["author", "kind"]) {
                let __field_author: &String = match changes.lookup::<String>("author") {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Comment",
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA.name,
                                "author",
                            ),
                        );
                    }
                };
                let __field_kind: &Kind = match changes.lookup::<Kind>("kind") {
                    ::ddb_entity::__private::Lookup::Set(value) => value,
                    _ => {
                        return ::core::result::Result::Err(
                            ::ddb_entity::__private::missing_key_field(
                                "Comment",
                                <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA.name,
                                "kind",
                            ),
                        );
                    }
                };
                let author: &__Key_author = __field_author;
                let kind: &__Key_kind = __field_kind;
                out.push(
                    ::ddb_entity::__private::IndexChange::Set(
                        <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA,
                        ::ddb_entity::IndexKey {
                            partition: Self::gsi1_partition(author)?.into_string(),
                            sort: ::core::option::Option::Some(
                                (Self::gsi1_sk().kind(kind).number(number)).into_value()?,
                            ),
                        },
                    ),
                );
            } else if changes.creates() {
                return ::core::result::Result::Err(
                    ::ddb_entity::__private::missing_key_field(
                        "Comment",
                        <__Index_gsi1 as ::ddb_entity::Index>::SCHEMA.name,
                        "author",
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
            let (__decoded_repo, __decoded_number, __decoded_comment) = Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let repo = &__decoded_repo;
            let number = &__decoded_number;
            let comment = &__decoded_comment;
            #[allow(unused_mut)]
            let mut fields = ::std::vec::Vec::with_capacity(3usize);
            fields
                .push((
                    "repo",
                    ::ddb_entity::__private::key_field_value("Comment", repo)?,
                ));
            fields
                .push((
                    "number",
                    ::ddb_entity::__private::key_field_value("Comment", number)?,
                ));
            fields
                .push((
                    "comment",
                    ::ddb_entity::__private::key_field_value("Comment", comment)?,
                ));
            ::core::result::Result::Ok(fields)
        }
    }
    const _: () = ::ddb_entity::__private::assert_global_index::<__Index_gsi1>();
};
