import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type {
  StockAdded,
  StockEvent,
  StockPurchaseApproved,
  StockPurchaseEvent,
  StockPurchaseRequested,
  StockTaken,
  StockistApplied,
  StockistApproved,
  StockistEvent,
  StockistPackageFacts,
  StockistUpgradeRequested,
} from './events';

/** The messages people see (seeds 000 §5, 001 §5; the rest written for people). */
export const stockistMessages = {
  notActive: 'Only an active member can become a stockist; your registration must be paid first.',
  alreadyStockist: 'You are already a stockist.',
  applicationPending: 'Your stockist application is awaiting approval.',
  unknown: 'Stockist not found.',
  notApproved: 'This stockist has not been approved.',
  notPending: 'This stockist application is no longer pending.',
  signeeUnknown: 'No member has this username or e-mail; check the signee.',
  signeeSelf: 'You cannot name yourself as your signee.',
  packageInvalid: 'The selected stockist package is invalid.',
  upgradeNotHigher: 'You can only upgrade to a stockist package higher than your current one.',
  upgradePending: 'You already have a stockist upgrade awaiting approval.',
  noPendingUpgrade: 'This stockist upgrade is no longer awaiting a decision.',
  notYours: 'You may only act on your own stockist account.',
  notAStockist: 'Only an approved stockist can do this.',
  stateInvalid: 'Choose a state from the list (the 36 states or FCT).',
  // stock purchases
  pickupAboveAllowance: 'Total selected product price is higher than pickup amount',
  itemsAboveAllowance: 'There selected Items total price is greater than the pickup amount',
  registrationPickupUsed: 'You have already made your registration pick-up.',
  noUpgradePickup: 'You have no stockist upgrade pick-up to make.',
  upgradePickupUsed: 'You have already made the pick-up of your latest upgrade.',
  noSalesLastMonth: 'You approved no orders last month: there is nothing to re-stock against.',
  stockPurchaseUnknown: 'Stock purchase not found.',
  stockPurchaseDecided: 'This stock purchase has already been decided.',
  stockPurchaseNotPaid: 'This stock purchase is not paid yet: its card payment has not been confirmed.',
  stockPurchaseNotThisPayment: 'This payment does not pay for this stock purchase.',
  cardForRestockOnly: 'Only a re-stock is paid by card; registration and upgrade pick-ups are paid with the stockist package.',
  restockOverAllowance: 'This re-stock is now above what last month\'s sales allow: it was not applied.',
  notEnoughStock: "You don't have enough stock to process this order",
} as const;

// ---- the stockist stream --------------------------------------------------------------------

export type StockistState =
  | { status: 'none' }
  | {
      status: 'pending' | 'approved' | 'disapproved';
      application: StockistApplied['data'];
      packageId: number;
      pendingUpgrade: StockistUpgradeRequested['data'] | null;
    };

export type StockistCommand =
  | { type: 'Apply'; data: StockistApplied['data'] }
  | { type: 'Approve'; data: Omit<StockistApproved['data'], 'member_id' | 'payment_id' | 'signee_id'> }
  | { type: 'Disapprove'; data: { reason: string } }
  | { type: 'UpdateProfile'; data: { store_name: string; store_address: string; store_state: string; store_phone: string } }
  | { type: 'RequestUpgrade'; data: StockistUpgradeRequested['data'] }
  | { type: 'ApproveUpgrade'; data: { payment_id: string; from_package: StockistPackageFacts; to_package: StockistPackageFacts } }
  | { type: 'DisapproveUpgrade'; data: { payment_id: string; reason: string } };

export function evolveStockist(state: StockistState, event: StockistEvent): StockistState {
  if (event.type === 'StockistApplied') return { status: 'pending', application: event.data, packageId: event.data.package_id, pendingUpgrade: null };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'StockistApproved':
      return { ...state, status: 'approved' };
    case 'StockistDisapproved':
      return { ...state, status: 'disapproved' };
    case 'StockistProfileUpdated':
      return { ...state, application: { ...state.application, ...event.data } };
    case 'StockistUpgradeRequested':
      return { ...state, pendingUpgrade: event.data };
    case 'StockistUpgradeApproved':
      return { ...state, packageId: event.data.to_package.id, pendingUpgrade: null };
    case 'StockistUpgradeDisapproved':
      return { ...state, pendingUpgrade: null };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decideStockist(command: StockistCommand, state: StockistState): StockistEvent[] {
  if (command.type === 'Apply') {
    if (state.status !== 'none') throw new RuleViolation(stockistMessages.applicationPending);
    return [{ type: 'StockistApplied', data: command.data }];
  }
  if (state.status === 'none') throw new RuleViolation(stockistMessages.unknown);
  const a = state.application;
  switch (command.type) {
    case 'Approve':
      if (state.status !== 'pending') throw new RuleViolation(stockistMessages.notPending);
      return [{ type: 'StockistApproved', data: { ...command.data, stockist_id: a.stockist_id, member_id: a.member_id, payment_id: a.payment_id, signee_id: a.signee_id } }];
    case 'Disapprove':
      if (state.status !== 'pending') throw new RuleViolation(stockistMessages.notPending);
      return [{ type: 'StockistDisapproved', data: { stockist_id: a.stockist_id, member_id: a.member_id, payment_id: a.payment_id, reason: command.data.reason } }];
    case 'UpdateProfile':
      if (state.status === 'disapproved') throw new RuleViolation(stockistMessages.notApproved);
      return [{ type: 'StockistProfileUpdated', data: { stockist_id: a.stockist_id, ...command.data } }];
    case 'RequestUpgrade':
      if (state.status !== 'approved') throw new RuleViolation(stockistMessages.notAStockist);
      if (state.pendingUpgrade) throw new RuleViolation(stockistMessages.upgradePending);
      if (command.data.from_package_id !== state.packageId) throw new RuleViolation(stockistMessages.packageInvalid);
      return [{ type: 'StockistUpgradeRequested', data: command.data }];
    case 'ApproveUpgrade': {
      const pending = state.pendingUpgrade;
      if (!pending || pending.payment_id !== command.data.payment_id) throw new RuleViolation(stockistMessages.noPendingUpgrade);
      return [{
        type: 'StockistUpgradeApproved',
        data: {
          stockist_id: a.stockist_id,
          member_id: a.member_id,
          payment_id: pending.payment_id,
          from_package: command.data.from_package,
          to_package: command.data.to_package,
          amount_kobo: pending.amount_kobo,
          pickup_allowance_kobo: Math.max(0, command.data.to_package.pickup_amount_kobo - command.data.from_package.pickup_amount_kobo),
        },
      }];
    }
    case 'DisapproveUpgrade': {
      const pending = state.pendingUpgrade;
      if (!pending || pending.payment_id !== command.data.payment_id) throw new RuleViolation(stockistMessages.noPendingUpgrade);
      return [{ type: 'StockistUpgradeDisapproved', data: { stockist_id: a.stockist_id, member_id: a.member_id, payment_id: pending.payment_id, reason: command.data.reason } }];
    }
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const stockistDecider: Decider<StockistState, StockistCommand, StockistEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveStockist,
  decide: decideStockist,
};

// ---- a stock purchase ------------------------------------------------------------------------

export type StockPurchaseState = { status: 'none' } | { status: 'awaiting_payment' | 'processing' | 'approved' | 'declined'; purchase: StockPurchaseRequested['data'] };

export type StockPurchaseCommand =
  | { type: 'Request'; data: StockPurchaseRequested['data'] }
  | { type: 'RecordPaid'; data: { payment_id: string } }
  | { type: 'Approve'; data: Pick<StockPurchaseApproved['data'], 'sponsor_chain' | 'stockist_upline_tables'> }
  | { type: 'Decline'; data: { reason: string } };

export function evolveStockPurchase(state: StockPurchaseState, event: StockPurchaseEvent): StockPurchaseState {
  if (event.type === 'StockPurchaseRequested') return { status: event.data.payment_id ? 'awaiting_payment' : 'processing', purchase: event.data };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'StockPurchasePaid':
      return { ...state, status: 'processing' };
    case 'StockPurchaseApproved':
      return { ...state, status: 'approved' };
    case 'StockPurchaseDeclined':
      return { ...state, status: 'declined' };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decideStockPurchase(command: StockPurchaseCommand, state: StockPurchaseState): StockPurchaseEvent[] {
  if (command.type === 'Request') {
    if (state.status !== 'none') throw new RuleViolation(stockistMessages.stockPurchaseDecided);
    if (command.data.total_price_kobo > command.data.allowance_kobo) {
      throw new RuleViolation(command.data.pickup_type === 'registration_pickup' ? stockistMessages.pickupAboveAllowance : stockistMessages.itemsAboveAllowance, 'products');
    }
    return [{ type: 'StockPurchaseRequested', data: command.data }];
  }
  if (state.status === 'none') throw new RuleViolation(stockistMessages.stockPurchaseUnknown);
  const p = state.purchase;
  if (command.type === 'RecordPaid') {
    if (!p.payment_id || p.payment_id !== command.data.payment_id) throw new RuleViolation(stockistMessages.stockPurchaseNotThisPayment);
    // Money for a purchase declined meanwhile (an abandoned checkout) is refused, so the payment is flagged to admins.
    if (state.status === 'declined') throw new RuleViolation(stockistMessages.stockPurchaseDecided);
    // The provider's answer arrives by verify and by webhook, more than once: only the first counts.
    if (state.status !== 'awaiting_payment') return [];
    return [{ type: 'StockPurchasePaid', data: { purchase_id: p.purchase_id, stockist_id: p.stockist_id, payment_id: command.data.payment_id } }];
  }
  if (state.status === 'awaiting_payment' && command.type === 'Approve') throw new RuleViolation(stockistMessages.stockPurchaseNotPaid);
  // An unpaid card purchase may be declined (an abandoned checkout); nothing else is decided twice.
  if (state.status !== 'processing' && state.status !== 'awaiting_payment') throw new RuleViolation(stockistMessages.stockPurchaseDecided);
  switch (command.type) {
    case 'Approve':
      return [{
        type: 'StockPurchaseApproved',
        data: { purchase_id: p.purchase_id, stockist_id: p.stockist_id, member_id: p.member_id, pickup_type: p.pickup_type, total_price_kobo: p.total_price_kobo, lines: p.lines, ...command.data },
      }];
    case 'Decline':
      return [{ type: 'StockPurchaseDeclined', data: { purchase_id: p.purchase_id, stockist_id: p.stockist_id, reason: command.data.reason } }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const stockPurchaseDecider: Decider<StockPurchaseState, StockPurchaseCommand, StockPurchaseEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveStockPurchase,
  decide: decideStockPurchase,
};

// ---- a stockist's stock ----------------------------------------------------------------------

/** Units in stock by product id. */
export type StockState = ReadonlyMap<number, number>;
export type StockCommand = { type: 'Add'; data: StockAdded['data'] } | { type: 'Take'; data: StockTaken['data'] };

export function evolveStock(state: StockState, event: StockEvent): StockState {
  const next = new Map(state);
  const sign = event.type === 'StockAdded' ? 1 : -1;
  for (const line of event.data.lines) next.set(line.product_id, (next.get(line.product_id) ?? 0) + sign * line.qty);
  return next;
}

/** Stock never goes below zero: an order is taken only when every line is in stock. */
export function decideStock(command: StockCommand, state: StockState): StockEvent[] {
  switch (command.type) {
    case 'Add':
      return [{ type: 'StockAdded', data: command.data }];
    case 'Take':
      if (command.data.lines.some((line) => (state.get(line.product_id) ?? 0) < line.qty)) throw new RuleViolation(stockistMessages.notEnoughStock);
      return [{ type: 'StockTaken', data: command.data }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const stockDecider: Decider<StockState, StockCommand, StockEvent> = {
  initialState: () => new Map(),
  evolve: evolveStock,
  decide: decideStock,
};

/** The 36 states and the Federal Capital Territory (seed 001 §2.2), stored lower-cased. */
export const nigerianStates = [
  'Abia', 'Adamawa', 'Akwa Ibom', 'Anambra', 'Bauchi', 'Bayelsa', 'Benue', 'Borno', 'Cross River', 'Delta', 'Ebonyi', 'Edo', 'Ekiti', 'Enugu',
  'FCT - Abuja', 'Gombe', 'Imo', 'Jigawa', 'Kaduna', 'Kano', 'Katsina', 'Kebbi', 'Kogi', 'Kwara', 'Lagos', 'Nasarawa', 'Niger', 'Ogun', 'Ondo',
  'Osun', 'Oyo', 'Plateau', 'Rivers', 'Sokoto', 'Taraba', 'Yobe', 'Zamfara',
] as const;

/** A state as stored (lower-cased), or null when it is not one of the 37; "FCT" and "Abuja" are the capital territory. */
export function normaliseState(input: string): string | null {
  const v = input.trim().toLowerCase().replace(/\s+/g, ' ');
  if (v === 'fct' || v === 'abuja' || v === 'fct abuja' || v === 'fct - abuja' || v === 'federal capital territory') return 'fct - abuja';
  return nigerianStates.map((s) => s.toLowerCase()).find((s) => s === v) ?? null;
}
