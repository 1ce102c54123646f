/**
 * The back office's periodic bonus strings (matching cycles, global profit, profit pool): resource
 * labels under `resources.<name>`, the rest under `pos.cycles` and `pos.runs`. Merged into en.ts.
 */
export const cyclesMessages = {
  resources: {
    'matching-cycles': {
      name: 'Matching Cycle |||| Matching Cycles',
      fields: {
        cycle_end: 'Cycle End',
        closed_at: 'Closed At',
        closed_by: 'Closed By',
        paid_at: 'Paid At',
        members_paid: 'Paid',
        members_capped: 'Capped',
        members_not_qualified: 'Not Qualified (Carried)',
        pairs: 'Pairs',
        credited: 'Credited',
        withheld: 'Withheld',
        total_pv: 'PV per Pair',
        percent: 'Percent',
        unit_point_value: 'Value of 1 PV',
        frequency_days: 'Cycle Length (Days)',
      },
    },
    'matching-results': {
      name: 'Matching Result |||| Matching Results',
      fields: {
        username: 'Username',
        outcome: 'Outcome',
        reason: 'Reason',
        legs: 'Legs L / R (PV)',
        pairs: 'Pairs',
        credited: 'Paid',
        withheld: 'Withheld',
        carried: 'Carried L / R (PV)',
      },
    },
    'global-profit-runs': {
      name: 'Global Profit Share |||| Global Profit Shares',
      fields: {
        share_date: 'Share Date',
        run_at: 'Run At',
        run_by: 'Run By',
        pool: 'Pool',
        first_percentage: 'Equal / CPV Split',
        members_paid: 'Members Paid',
        credited: 'Credited',
        kept: 'Kept by Company',
      },
    },
    'profit-pool-runs': {
      name: 'Profit Pool |||| Profit Pools',
      fields: {
        month: 'Month',
        run_at: 'Run At',
        run_by: 'Run By',
        basis: 'Payments of the Month',
        percentage: 'Percentage',
        pool: 'Pool',
        members_paid: 'Members Paid',
        credited: 'Credited',
        kept: 'Kept by Company',
      },
    },
  },
  pos: {
    cycles: {
      title: 'Matching Cycles',
      empty: 'No matching cycle has been closed yet.',
      schedule: 'Schedule',
      phone_line: 'Closed by %{by} · paid %{paid} · pairs %{pairs}',
      not_paid_yet: 'Being paid…',
      close_due: 'Close due cycle',
      close_due_title: 'Close the due matching cycle?',
      close_due_content:
        'This closes every matching cycle that has ended and is not closed yet, as the hourly schedule would, recorded in your name. Each cycle closes once; its bonuses are then paid.',
      show_title: 'Matching cycle ending %{date}',
      results: "Members' results",
      results_empty: 'No member had a pair’s worth of volume at this cycle, or the results are still being written.',
      outcome: {
        paid: 'Paid',
        capped: 'Capped',
        not_qualified: 'Not qualified',
      },
    },
    runs: {
      global: {
        title: 'Global Profit Shares',
        empty: 'No global profit has been shared yet.',
        run_due: 'Share due global profit',
        run_due_title: 'Share the due global profit?',
        run_due_content: 'This shares the global profit if its share date has come, as the hourly schedule would, recorded in your name. Each date is shared once.',
      },
      pool: {
        title: 'Profit Pools',
        empty: 'No profit pool has been shared yet.',
        run_due: "Share last month's pool",
        run_due_title: "Share last month's profit pool?",
        run_due_content: "This shares last month's profit pool if it has not been shared, as the hourly schedule would, recorded in your name. Each month is shared once.",
      },
    },
  },
};
