/**
 * The back office's incentives strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 * Wording from seed 002 "Incentives screen", "Incentive Requests screen", "Ranks" and §8.
 */
export const incentivesMessages = {
  resources: {
    'incentive-claims': {
      name: 'Incentive Request |||| Incentive Requests',
      fields: {
        sn: 'S/N',
        full_name: 'Full Name',
        username: 'Username',
        package_name: 'Registration Package',
        cpv: 'CPV',
        rank_name: 'Rank',
        incentive: 'Incentive',
        worth: 'Cash Equivalence',
        status: 'Request Status',
        created_at: 'Date',
        decided_at: 'Decided',
        action: 'Action',
        q: 'Search',
      },
    },
    incentives: {
      name: 'Incentive |||| Incentives',
      fields: {
        sn: 'S/N',
        name: 'Ranks/Levels',
        rank_id: 'Rank',
        points: 'Cumulated Point Value (CPV)',
        incentive: 'Incentive',
        worth: 'Cash Equivalent',
        file_path: 'Display',
        image: 'Image',
        q: 'Search',
      },
    },
    ranks: {
      name: 'Rank |||| Ranks',
      fields: {
        sn: 'S/N',
        name: 'Name',
        points: 'Points (PV)',
        is_global_profit_eligible: 'Global Profit',
        description: 'Description',
        package_id: 'Package',
        package_name: 'Package',
        q: 'Search',
      },
    },
  },
  pos: {
    incentives: {
      claims: {
        title: 'Incentive Requests',
        empty: 'There are no requests',
        pending_count: '%{smart_count} pending request |||| %{smart_count} pending requests',
        status: {
          processing: 'Pending Request',
          approved: 'Approved',
          declined: 'Declined',
        },
        approve: 'Approve',
        decline: 'Decline',
        approve_title: 'Approve this request?',
        approve_content:
          'The member receives the incentive and the award bonuses are paid to their sponsor and direct downlines. This cannot be undone.',
        decline_title: 'Decline this request?',
        decline_content: 'The request is declined; the member may claim the incentive again.',
      },
      list: {
        title: 'Official Ranks and Incentives',
        empty: 'There are no incentives',
        no_image: 'No image',
      },
      edit: {
        title: 'Incentive details',
        create_title: 'New incentive',
        current_image: 'Current image',
        image_help: 'JPEG, PNG or WebP, at most 500kB. Leave empty to keep the current image.',
        image_too_large: 'Image size should not exceed 500kB',
        rank_required: 'The rank field is required.',
        created: 'Incentive created successfully',
        updated: 'Incentive updated successfully',
      },
      ranks: {
        title: 'Ranks',
        empty: 'There are no ranks',
        edit_title: 'Edit Rank',
        create_title: 'New rank',
        eligible: 'Eligible',
        not_eligible: 'Not-Eligible',
        package_required: 'Package required',
        created: 'Rank created successfully',
        updated: 'Rank updated successfully',
        award_settings: 'Award bonuses',
        award_sponsor: 'Award winner upline bonus',
        award_sponsor_help: 'Paid to the sponsor of a member whose incentive is approved, as a percentage of the cash equivalent.',
        award_dd: 'Award winner direct downline bonus',
        award_dd_help: 'Paid to each direct downline of a member whose incentive is approved, as a percentage of the cash equivalent.',
        percentage: 'Percentage (%)',
        save: 'Save',
      },
    },
  },
};
