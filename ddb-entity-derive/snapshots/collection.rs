const _: () = {
    const fn __entity<E: ::ddb_entity::Entity>() {}
    pub trait __Checked<T: ?::core::marker::Sized> {
        type Ty: ?::core::marker::Sized;
    }
    impl<T: ?::core::marker::Sized> __Checked<T> for [(); 0] {
        type Ty = T;
    }
    type __Member0 = <[(); {
        __entity::<Customer>();
        0
    }] as __Checked<Customer>>::Ty;
    type __Member1 = <[(); {
        __entity::<Order>();
        0
    }] as __Checked<Order>>::Ty;
    const _: () = ::ddb_entity::__private::same_table::<
        <__Member1 as ::ddb_entity::Entity>::Table,
        <__Member0 as ::ddb_entity::Entity>::Table,
    >();
    const _: () = ::core::assert!(
        ! ::ddb_entity::__private::has_duplicate_type(& [< __Member0 as
        ::ddb_entity::Entity > ::TYPE_TAG, < __Member1 as ::ddb_entity::Entity >
        ::TYPE_TAG]),
        "`Customer` and `Order` have the same entity type (`Entity::TYPE_TAG`, the value of the type attribute), so their items could not be told apart: give one of them another `type = \"…\"` in its #[entity(…)] (without one, an entity's type is its struct name in snake case)"
    );
    const _: () = ::core::assert!(
        ! (::ddb_entity::__private::typed_by_key:: < < __Member0 as ::ddb_entity::Entity
        > ::Table > () && ::ddb_entity::__private::same_key_shape(< __Member0 as
        ::ddb_entity::Entity > ::LAYOUT, < __Member1 as ::ddb_entity::Entity >
        ::LAYOUT)),
        "`Customer` and `Order` have the same key templates but for the names of their holes (a raw key attribute, `pk = field`, is a hole: any string), and their table is typed by key (`typed_by: Key`): no stored key could tell their items apart; make the literal text of one template differ, or declare `typed_by: KeyAndAttribute` in `table!` and store a type attribute"
    );
    #[automatically_derived]
    impl ::ddb_entity::Collection for CustomerView {
        type Table = <__Member0 as ::ddb_entity::Entity>::Table;
        const NAME: &'static ::core::primitive::str = "CustomerView";
        const TYPES: &'static [&'static ::core::primitive::str] = &[
            <__Member0 as ::ddb_entity::Entity>::TYPE_TAG,
            <__Member1 as ::ddb_entity::Entity>::TYPE_TAG,
        ];
        const MEMBERS: &'static [::ddb_entity::Member] = &[
            ::ddb_entity::Member::of::<__Member0>(),
            ::ddb_entity::Member::of::<__Member1>(),
        ];
        fn push_item(
            &mut self,
            __entity_type: &::core::primitive::str,
            __item: ::ddb_entity::Item,
        ) -> ::ddb_entity::Result<::core::primitive::bool> {
            if __entity_type == <__Member0 as ::ddb_entity::Entity>::TYPE_TAG {
                if ::core::option::Option::is_some(&self.customer) {
                    return ::core::result::Result::Err(
                        ::ddb_entity::__private::more_than_one(
                            <Self as ::ddb_entity::Collection>::NAME,
                            <__Member0 as ::ddb_entity::Entity>::RUST_NAME,
                        ),
                    );
                }
                self.customer = ::core::option::Option::Some(
                    <__Member0 as ::ddb_entity::Entity>::from_item(__item)?,
                );
                return ::core::result::Result::Ok(true);
            }
            if __entity_type == <__Member1 as ::ddb_entity::Entity>::TYPE_TAG {
                ::std::vec::Vec::push(
                    &mut self.orders,
                    <__Member1 as ::ddb_entity::Entity>::from_item(__item)?,
                );
                return ::core::result::Result::Ok(true);
            }
            ::core::result::Result::Ok(false)
        }
        const READS_BYTES: ::core::primitive::bool = true;
        fn push_tree(
            &mut self,
            __entity_type: &::core::primitive::str,
            __tree: ::ddb_entity::__private::ItemTree<'_>,
        ) -> ::ddb_entity::Result<::core::primitive::bool> {
            if __entity_type == <__Member0 as ::ddb_entity::Entity>::TYPE_TAG {
                if ::core::option::Option::is_some(&self.customer) {
                    return ::core::result::Result::Err(
                        ::ddb_entity::__private::more_than_one(
                            <Self as ::ddb_entity::Collection>::NAME,
                            <__Member0 as ::ddb_entity::Entity>::RUST_NAME,
                        ),
                    );
                }
                self.customer = ::core::option::Option::Some(
                    ::ddb_entity::__private::from_tree::<__Member0>(__tree)?,
                );
                return ::core::result::Result::Ok(true);
            }
            if __entity_type == <__Member1 as ::ddb_entity::Entity>::TYPE_TAG {
                ::std::vec::Vec::push(
                    &mut self.orders,
                    ::ddb_entity::__private::from_tree::<__Member1>(__tree)?,
                );
                return ::core::result::Result::Ok(true);
            }
            ::core::result::Result::Ok(false)
        }
    }
    /// Empty: no item pushed yet.
    #[automatically_derived]
    impl ::core::default::Default for CustomerView {
        fn default() -> Self {
            Self {
                customer: ::core::option::Option::None,
                orders: ::std::vec::Vec::new(),
            }
        }
    }
};
