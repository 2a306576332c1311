const _: () = ::ddb_entity::__private::same_table::<
    <Order as ::ddb_entity::Entity>::Table,
    <Customer as ::ddb_entity::Entity>::Table,
>();
const _: () = ::core::assert!(
    ! ::ddb_entity::__private::has_duplicate_type(& [< Customer as ::ddb_entity::Entity >
    ::TYPE_TAG, < Order as ::ddb_entity::Entity > ::TYPE_TAG]),
    "`Customer` and `Order` have the same entity type, so their items could not be told apart: give one of them an explicit `type = \"…\"` in its #[entity(…)]"
);
#[automatically_derived]
impl ::ddb_entity::Collection for CustomerView {
    type Table = <Customer as ::ddb_entity::Entity>::Table;
    const NAME: &'static ::core::primitive::str = "CustomerView";
    const TYPES: &'static [&'static ::core::primitive::str] = &[
        <Customer as ::ddb_entity::Entity>::TYPE_TAG,
        <Order as ::ddb_entity::Entity>::TYPE_TAG,
    ];
    fn push_item(
        &mut self,
        __entity_type: &::core::primitive::str,
        __item: ::ddb_entity::Item,
    ) -> ::ddb_entity::Result<::core::primitive::bool> {
        if __entity_type == <Customer as ::ddb_entity::Entity>::TYPE_TAG {
            if ::core::option::Option::is_some(&self.customer) {
                return ::core::result::Result::Err(
                    ::ddb_entity::__private::more_than_one(
                        <Self as ::ddb_entity::Collection>::NAME,
                        <Customer as ::ddb_entity::Entity>::RUST_NAME,
                    ),
                );
            }
            self.customer = ::core::option::Option::Some(
                <Customer as ::ddb_entity::Entity>::from_item(__item)?,
            );
            return ::core::result::Result::Ok(true);
        }
        if __entity_type == <Order as ::ddb_entity::Entity>::TYPE_TAG {
            ::std::vec::Vec::push(
                &mut self.orders,
                <Order as ::ddb_entity::Entity>::from_item(__item)?,
            );
            return ::core::result::Result::Ok(true);
        }
        ::core::result::Result::Ok(false)
    }
}
/// Empty: no item pushed yet.
impl ::core::default::Default for CustomerView {
    fn default() -> Self {
        Self {
            customer: ::core::option::Option::None,
            orders: ::std::vec::Vec::new(),
        }
    }
}
