/**
 * The back office's dashboard strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 * The figures are those of seed 001 §2.7 / §3.8; the message forms those of §3.9, saved with the
 * seed's own success messages (002 §8), which come from the server.
 */
export const dashboardMessages = {
  resources: {},
  pos: {
    dashboard: {
      title: 'Dashboard',
      welcome: 'Welcome, %{name}',
      signed_in_as: 'Signed in as %{email}',
      role: 'Role',
      two_factor: 'Two-factor authentication',
      on: 'On',
      off: 'Off',
      manage_security: 'Manage security',
      unavailable: 'Not available',
      all_time: 'All time',
      period: {
        label: 'Period',
        all: 'All time',
        today: 'Today',
        month: 'This month',
        year: 'This year',
      },
      registrations: {
        title: 'Total registrations',
        active: '%{count} active members',
        pv_title: 'Registration PV',
        pv: '%{pv} PV',
      },
      wallet: {
        title: 'Company wallet',
        withdrawals: 'Withdrawals paid',
        balance: 'Balance',
      },
      bonus_total: {
        title: 'Bonuses paid',
      },
      pickups: {
        title: 'Pick-ups',
        type: 'Type',
        count: 'Count',
        amount: 'Amount',
        registration: 'Registration',
        upgrade: 'Upgrade',
        repurchase: 'Repurchase',
        total: 'Total',
        note: 'Until stockists record pick-ups, these are the approved registration and upgrade payments and the paid repurchases.',
      },
      bonuses: {
        title: 'Bonus totals',
        matching: 'Matching bonus',
        repurchase: 'Repurchase bonus',
        unilevel: 'Unilevel bonus',
        global_sharing: 'Global sharing',
        eligible: '%{count} eligible',
        upgrade: 'Upgrade bonus',
        referral: 'Referral bonus',
      },
      chart: {
        title: 'Payments per month',
        subtitle: 'The last twelve months, in naira',
        empty: 'There are no payments in the last twelve months',
      },
      messages: {
        front_page: {
          title: 'Front page message',
          subject: 'Subject',
          message: 'Message',
          show: 'Show the message on the front page',
        },
        general: {
          title: 'General message to members',
          subject: 'Subject',
          message: 'Message',
        },
        save: 'Update Data',
      },
    },
  },
};
