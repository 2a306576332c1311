#[allow(non_camel_case_types)]
const _: () = {
    use ::ddb_entity as __ddb;
    use ::ddb_entity::__private as __p;
    type __Key_repo = __p::Checked<String, { __p::assert_key_part::<String>() }>;
    type __Key_number = __p::Checked<u32, { __p::assert_key_part::<u32>() }>;
    type __Key_comment = __p::Checked<String, { __p::assert_key_part::<String>() }>;
    type __Key_author = __p::Checked<String, { __p::assert_key_part::<String>() }>;
    type __Key_kind = __p::Checked<Kind, { __p::assert_key_part::<Kind>() }>;
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
    >("App", "REPO#{repo}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "#ISSUE#{number}-{comment}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "AUTHOR#{author}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::delimiter_mismatch::<
        __Table,
    >("App", "{kind}REACT#{number}") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::followed_hole::<
        __Table,
    >(<u32 as __p::KeyPart>::FIXED_LEN.is_some(), true, "App", "number", "u32") {
        ::core::panic!("{}", m.text())
    };
    const _: () = if let __p::Some(m) = __p::followed_hole::<
        __Table,
    >(<Kind as __p::KeyPart>::PREFIX_FREE, false, "App", "kind", "Kind") {
        ::core::panic!("{}", m.text())
    };
    const _: () = __p::assert_sorts::<
        __Key_number,
    >("number", "#ISSUE#{number}-{comment}");
    const _: () = __p::assert_sorts::<
        __Key_comment,
    >("comment", "#ISSUE#{number}-{comment}");
    const _: () = __p::assert_sorts::<__Key_kind>("kind", "{kind}REACT#{number}");
    const _: () = __p::assert_sorts::<__Key_number>("number", "{kind}REACT#{number}");
    impl Comment {
        ///The primary key of the `Comment` with these key fields: `REPO#{repo}` / `#ISSUE#{number}-{comment}`.
        pub fn key(
            repo: impl __ddb::KeyArg<String>,
            number: impl __ddb::KeyArg<u32>,
            comment: impl __ddb::KeyArg<String>,
        ) -> __ddb::Result<__ddb::Key<Self>> {
            let mut __pk = __p::KeyWriter::new("Comment");
            __pk.literal("REPO");
            __pk.partition_arg::<__Key_repo, _>("repo", &repo)?;
            __ddb::Key::new(
                __pk.finish_partition()?,
                {
                    let mut __sk = __p::KeyWriter::new("Comment");
                    __sk.literal("");
                    __sk.literal("ISSUE");
                    __sk.arg::<__Key_number, _>("number", &number)?;
                    __sk.join_literal("-");
                    __sk.join_part(
                        "comment",
                        &__p::key_arg::<__Key_comment, _>(&comment),
                    )?;
                    __sk.finish_sort()?
                },
            )
        }
        ///The partition `REPO#{repo}`: where a Query for `Comment` items (and every other entity type sharing this partition template) starts.
        pub fn partition(
            repo: impl __ddb::KeyArg<String>,
        ) -> __ddb::Result<__ddb::Partition<__ddb::Primary<__Table>>> {
            let mut __pk = __p::KeyWriter::new("Comment");
            __pk.literal("REPO");
            __pk.partition_arg::<__Key_repo, _>("repo", &repo)?;
            __ddb::Partition::new(__pk.finish_partition()?)
        }
        ///Starts the sort key of `Comment` in the table (`#ISSUE#{number}-{comment}`): fill the holes from the left with `.number(…)`, then `.comment(…)`, and stop anywhere for a prefix. `.number_prefix(…)`, `.comment_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn sk() -> CommentSk<0usize> {
            CommentSk(
                __p::SortKeyBuilder::<__ddb::Primary<__Table>>::new("Comment")
                    .literal("")
                    .literal("ISSUE"),
                ::core::marker::PhantomData,
            )
        }
        ///The partition `AUTHOR#{author}` of index `Gsi1`: where a Query for `Comment` items on that index starts.
        pub fn gsi1_partition(
            author: impl __ddb::KeyArg<String>,
        ) -> __ddb::Result<__ddb::Partition<__Index_gsi1>> {
            let mut __pk = __p::KeyWriter::new("Comment");
            __pk.literal("AUTHOR");
            __pk.partition_arg::<__Key_author, _>("author", &author)?;
            __ddb::Partition::new(__pk.finish_index_partition::<__Index_gsi1>()?)
        }
        ///Starts the sort key of `Comment` in index `Gsi1` (`{kind}REACT#{number}`): fill the holes from the left with `.kind(…)`, then `.number(…)`, and stop anywhere for a prefix. `.kind_prefix(…)`, `.number_prefix(…)` cut inside a hole (a year of a date, the first letters of a name). Every stage converts into a [`SortKey`](::ddb_entity::SortKey).
        pub fn gsi1_sk() -> CommentGsi1Sk<0usize> {
            CommentGsi1Sk(
                __p::SortKeyBuilder::<__Index_gsi1>::new("Comment"),
                ::core::marker::PhantomData,
            )
        }
        ///The stored fields of `Comment`, to name in an update.
        pub const fn fields() -> CommentFields {
            CommentFields {
                repo: __ddb::Field::new("repo", "repo"),
                number: __ddb::Field::new("number", "number"),
                comment: __ddb::Field::new("comment", "comment"),
                author: __ddb::Field::new("author", "author"),
                kind: __ddb::Field::new("kind", "kind"),
            }
        }
    }
    impl Comment {
        #[allow(unused_variables, clippy::type_complexity)]
        fn __read_key(
            __partition: &__p::str,
            __sort: &__p::str,
        ) -> ::core::result::Result<
            (__Key_repo, __Key_number, __Key_comment),
            __ddb::key::KeyError,
        > {
            let mut reader = __ddb::key::KeyReader::new(__partition);
            reader.literal("REPO")?;
            let __decoded_repo: __Key_repo = reader
                .part::<__p::PartitionPart<__Key_repo>>()?
                .0;
            reader.finish()?;
            let mut reader = __ddb::key::KeyReader::new(__sort);
            reader.literal("")?;
            reader.literal("ISSUE")?;
            #[allow(unused_mut)]
            let mut segment = reader.segment()?;
            let __decoded_number: __Key_number = segment.fixed::<__Key_number>()?;
            segment.literal("-")?;
            let __decoded_comment: __Key_comment = segment.last::<__Key_comment>("")?;
            reader.finish()?;
            __p::Ok((__decoded_repo, __decoded_number, __decoded_comment))
        }
    }
    ///The stored fields of `Comment`, for typed updates: `Comment::fields()`.
    pub struct CommentFields {
        ///`Comment::repo`, stored in the key only (read back from it).
        pub repo: __ddb::Field<Comment, String, __ddb::field::KeyOnly>,
        ///`Comment::number`, stored in the key only (read back from it).
        pub number: __ddb::Field<Comment, u32, __ddb::field::KeyOnly>,
        ///`Comment::comment`, stored in the key only (read back from it).
        pub comment: __ddb::Field<Comment, String, __ddb::field::KeyOnly>,
        ///`Comment::author`, stored as `author`.
        pub author: __ddb::Field<Comment, String, __ddb::field::IndexKeyPart>,
        ///`Comment::kind`, stored as `kind`.
        pub kind: __ddb::Field<Comment, Kind, __ddb::field::IndexKeyPart>,
    }
    #[automatically_derived]
    impl ::core::fmt::Debug for CommentFields {
        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
            __p::debug_fields(f, "CommentFields", <Comment as __ddb::Entity>::LAYOUT)
        }
    }
    #[automatically_derived]
    impl ::core::clone::Clone for CommentFields {
        fn clone(&self) -> Self {
            *self
        }
    }
    #[automatically_derived]
    impl ::core::marker::Copy for CommentFields {}
    ///Sort-key builder of `Comment` in the table (`#ISSUE#{number}-{comment}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct CommentSk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__ddb::Primary<__Table>>,
        ::core::marker::PhantomData<fn() -> Comment>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<CommentSk<FILLED>>
    for __ddb::SortKey<__ddb::Primary<__Table>> {
        fn from(stage: CommentSk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl CommentSk<0usize> {
        ///Fills `{number}`.
        pub fn number(self, number: impl __ddb::KeyArg<u32>) -> CommentSk<1usize> {
            CommentSk(
                self
                    .0
                    .part("number", &__p::key_arg::<__Key_number, _>(&number))
                    .join_literal("-")
                    .continues(),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{number}`: every key whose `number` starts with `cut` (e.g. a year or a month of a date).
        pub fn number_prefix<C: __ddb::key::PrefixOf<__Key_number>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0.cut::<__Key_number, C>("number", &cut)
        }
    }
    impl CommentSk<1usize> {
        ///Fills `{comment}`.
        pub fn comment(
            self,
            comment: impl __ddb::KeyArg<String>,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0
                .join_part("comment", &__p::key_arg::<__Key_comment, _>(&comment))
                .whole()
        }
        ///Cuts inside `{comment}`: every key whose `comment` starts with `cut` (e.g. a year or a month of a date).
        pub fn comment_prefix<C: __ddb::key::PrefixOf<__Key_comment>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__ddb::Primary<__Table>> {
            self.0.join_cut::<__Key_comment, C>("comment", &cut)
        }
    }
    ///Sort-key builder of `Comment` in index `Gsi1` (`{kind}REACT#{number}`): fill the holes from the left and stop anywhere; the result converts into a [`SortKey`](::ddb_entity::SortKey) prefix.
    #[must_use = "a sort-key builder does nothing until it is used as a sort-key condition"]
    pub struct CommentGsi1Sk<const FILLED: __p::usize>(
        __p::SortKeyBuilder<__Index_gsi1>,
        ::core::marker::PhantomData<fn() -> Comment>,
    );
    #[automatically_derived]
    impl<const FILLED: __p::usize> ::core::convert::From<CommentGsi1Sk<FILLED>>
    for __ddb::SortKey<__Index_gsi1> {
        fn from(stage: CommentGsi1Sk<FILLED>) -> Self {
            stage.0.prefix()
        }
    }
    impl CommentGsi1Sk<0usize> {
        ///Fills `{kind}`.
        pub fn kind(self, kind: impl __ddb::KeyArg<Kind>) -> CommentGsi1Sk<1usize> {
            CommentGsi1Sk(
                self
                    .0
                    .part("kind", &__p::key_arg::<__Key_kind, _>(&kind))
                    .join_literal("REACT"),
                ::core::marker::PhantomData,
            )
        }
        ///Cuts inside `{kind}`: every key whose `kind` starts with `cut` (e.g. a year or a month of a date).
        pub fn kind_prefix<C: __ddb::key::PrefixOf<__Key_kind>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_kind, C>("kind", &cut)
        }
    }
    impl CommentGsi1Sk<1usize> {
        ///Fills `{number}`.
        pub fn number(
            self,
            number: impl __ddb::KeyArg<u32>,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.part("number", &__p::key_arg::<__Key_number, _>(&number)).whole()
        }
        ///Cuts inside `{number}`: every key whose `number` starts with `cut` (e.g. a year or a month of a date).
        pub fn number_prefix<C: __ddb::key::PrefixOf<__Key_number>>(
            self,
            cut: C,
        ) -> __ddb::SortKey<__Index_gsi1> {
            self.0.cut::<__Key_number, C>("number", &cut)
        }
    }
    #[automatically_derived]
    impl __ddb::Entity for Comment {
        type Table = __Table;
        const RUST_NAME: &'static __p::str = "Comment";
        const TYPE_TAG: &'static __p::str = "comment";
        const INDEXES: &'static [__ddb::IndexSchema] = &[
            <__Index_gsi1 as __ddb::Index>::SCHEMA,
        ];
        const LAYOUT: &'static __ddb::layout::EntityLayout = &__ddb::layout::EntityLayout::new(
            "Comment",
            "comment",
            &[
                __p::layout::primary(
                    __p::layout::template(
                        "REPO#{repo}",
                        false,
                        &[
                            &[__p::layout::lit("REPO")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_repo>,
                                >("repo", "String", __p::None, false, false),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "#ISSUE#{number}-{comment}",
                            false,
                            &[
                                &[],
                                &[__p::layout::lit("ISSUE")],
                                &[
                                    __p::layout::hole::<
                                        __Key_number,
                                    >("number", "u32", __p::None, false, false),
                                    __p::layout::lit("-"),
                                    __p::layout::hole::<
                                        __Key_comment,
                                    >("comment", "String", __p::None, false, false),
                                ],
                            ],
                        ),
                    ),
                    __p::None,
                ),
                __p::layout::index(
                    <__Index_gsi1 as __ddb::Index>::SCHEMA,
                    __p::layout::template(
                        "AUTHOR#{author}",
                        false,
                        &[
                            &[__p::layout::lit("AUTHOR")],
                            &[
                                __p::layout::hole::<
                                    __p::PartitionPart<__Key_author>,
                                >("author", "String", __p::None, false, false),
                            ],
                        ],
                    ),
                    __p::Some(
                        __p::layout::template(
                            "{kind}REACT#{number}",
                            false,
                            &[
                                &[
                                    __p::layout::hole::<
                                        __Key_kind,
                                    >("kind", "Kind", __p::None, false, false),
                                    __p::layout::lit("REACT"),
                                ],
                                &[
                                    __p::layout::hole::<
                                        __Key_number,
                                    >("number", "u32", __p::None, false, false),
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
                __p::layout::key_only("repo", "repo", "String", false),
                __p::layout::key_only("number", "number", "u32", false),
                __p::layout::key_only("comment", "comment", "String", false),
                __p::layout::field("author", "author", "String", false),
                __p::layout::field("kind", "kind", "Kind", false),
            ],
            false,
        );
        fn primary_key(&self) -> __ddb::Result<__ddb::Key<Self>> {
            Self::key(
                __p::checked::<__Key_repo>(&self.repo),
                __p::checked::<__Key_number>(&self.number),
                __p::checked::<__Key_comment>(&self.comment),
            )
        }
        fn index_entries(&self) -> __ddb::Result<__p::Vec<__ddb::IndexEntry>> {
            __p::Ok(
                __p::Vec::from([
                    __ddb::IndexEntry {
                        index: <__Index_gsi1 as __ddb::Index>::SCHEMA,
                        key: __p::Some(__ddb::IndexKey {
                            partition: Self::gsi1_partition(
                                    __p::checked::<__Key_author>(&self.author),
                                )?
                                .into_string(),
                            sort: __p::Some(
                                (Self::gsi1_sk()
                                    .kind(__p::checked::<__Key_kind>(&self.kind))
                                    .number(__p::checked::<__Key_number>(&self.number)))
                                    .into_value()?,
                            ),
                        }),
                    },
                ]),
            )
        }
    }
    #[automatically_derived]
    impl __p::EntityHooks for Comment {
        fn key_matches(p: &__p::str, s: __p::Option<&__p::str>) -> __p::bool {
            __p::key_matches(p, s, Self::__read_key)
        }
        #[allow(unused_variables)]
        fn index_changes(
            key: &__ddb::Key<Self>,
            changes: &__p::Changes,
        ) -> __ddb::Result<__p::Vec<__p::IndexChange>> {
            let (repo, number, comment) = &Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let __index_gsi1 = <__Index_gsi1 as __ddb::Index>::SCHEMA;
            let mut out = __p::Vec::new();
            if changes.touches(&["author", "kind"]) {
                let __field_author: &String = changes
                    .value_of("Comment", __index_gsi1.name, "author")?;
                let __field_kind: &Kind = changes
                    .value_of("Comment", __index_gsi1.name, "kind")?;
                let author: &__Key_author = __field_author;
                let kind: &__Key_kind = __field_kind;
                out.push(
                    __p::IndexChange::Set(
                        __index_gsi1,
                        __ddb::IndexKey {
                            partition: Self::gsi1_partition(author)?.into_string(),
                            sort: __p::Some(
                                (Self::gsi1_sk().kind(kind).number(number)).into_value()?,
                            ),
                        },
                    ),
                );
            } else if changes.creates() {
                return __p::Err(
                    __p::missing_key_field("Comment", __index_gsi1.name, "author"),
                );
            }
            __p::Ok(out)
        }
        #[allow(unused_variables)]
        fn key_fields(
            key: &__ddb::Key<Self>,
        ) -> __ddb::Result<__p::Vec<(&'static __p::str, __p::KeyFieldValue)>> {
            let (repo, number, comment) = &Self::__read_key(
                key.partition(),
                key.sort(),
            )?;
            let mut fields = __p::key_fields_buffer(3usize);
            fields.push(("repo", __p::key_field_value("Comment", repo)?));
            fields.push(("number", __p::key_field_value("Comment", number)?));
            fields.push(("comment", __p::key_field_value("Comment", comment)?));
            __p::Ok(fields)
        }
    }
    const _: () = __p::assert_global_index::<__Index_gsi1>();
};
