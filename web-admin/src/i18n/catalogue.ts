/**
 * The back office's catalogue strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 * Wording from seed 002 "Packages screen", "Products screen", "Company details", "Stockist
 * packages" and the success messages of §8.
 */
export const catalogueMessages = {
  resources: {
    packages: {
      name: 'Package |||| Packages',
      fields: {
        sn: 'S/N',
        name: 'Registration Package',
        point_value: 'Point Value',
        registration_value: 'Registration Amount',
        pickup_amount: 'Product Pickup Amount',
        matching_bonus_cap: 'Matching Bonus Cap',
        edit: 'Edit',
        q: 'Search',
      },
      notifications: {
        created: 'Package created successfully',
        updated: 'Package updated successfully',
      },
    },
    products: {
      name: 'Product |||| Products',
      fields: {
        sn: 'S/N',
        name: 'Products',
        description: 'Description',
        image: 'Image',
        worth: 'Worth',
        price: 'Price',
        is_active: 'Status',
        points: 'Points',
        edit: 'Edit',
        toggle: 'Enable/Disable',
        q: 'Search',
      },
      notifications: {
        created: 'Product created successfully',
        updated: 'Product updated successfully',
      },
    },
    'company-banks': {
      name: 'Company Bank |||| Company Banks',
      fields: {
        sn: 'S/N',
        bank_name: 'Bank',
        bank_account_name: 'Account Name',
        bank_account_number: 'Account Number',
        actions: 'Actions',
        q: 'Search',
      },
      notifications: {
        created: 'Bank created successfully',
        updated: 'Bank updated successfully',
        deleted: 'Bank deleted successfully',
      },
    },
    'stockist-packages': {
      name: 'Stockist Package |||| Stockist Packages',
      fields: {
        sn: 'S/N',
        name: 'Package',
        registration_value: 'Registration Amount',
        sales_bonus_percentage: 'Rebate',
        pickup_amount: 'Product Pickup Amount',
        point_value: 'Point Value',
        value: 'Level',
        edit: 'Edit',
        q: 'Search',
      },
      notifications: {
        created: 'Stockist package created successfully',
        updated: 'Stockist package updated successfully',
      },
    },
  },
  pos: {
    catalogue: {
      pv: '%{value} PV',
      percent: '%{value}%',
      packages: {
        title: 'Official Registration Package Rates',
        edit: 'Edit Package',
        create: 'Add Package',
        empty: 'There are no packages',
      },
      products: {
        title: 'Company Products',
        count: 'Registration products',
        add: 'Add Product',
        edit: 'Edit Product',
        empty: 'There are no products',
        enabled: 'Enabled',
        disabled: 'Disabled',
        enable: 'Enable',
        disable: 'Disable',
        enable_title: 'Enable product',
        disable_title: 'Disable product',
        enable_content: 'Enable %{name}? Members will be able to pick it up again.',
        disable_content: 'Disable %{name}? Members will no longer see it in pick-up orders.',
        image_hint: 'JPEG, PNG or WebP, not more than 500kB',
        image_drop: 'Drop an image here, or click to choose one',
        image_too_large: 'Image size should not exceed 500kB',
        no_image: 'No image',
        all: 'All',
      },
      banks: {
        title: 'Official Company Bank Accounts',
        add: 'Add Bank',
        edit: 'Edit bank',
        delete: 'Delete bank',
        delete_content: 'Delete the %{bank} account %{number}? Members will no longer see it for transfers.',
        empty: 'There no banks',
        choose_bank: 'Choose the bank from the payment provider list',
        account_number_invalid: 'The account number must be 10 digits.',
      },
      stockist_packages: {
        title: 'Stockist Packages',
        edit: 'Edit Package',
        create: 'Add Stockist Package',
        empty: 'There are no stockist packages',
        referral_bonus: 'Stockist referral bonus',
        referral_bonus_help: 'Paid to the sponsor of a member who becomes a stockist, on the stockist package amount.',
      },
    },
  },
};
