import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import { MAX_LINE_QUANTITY, lineQuantityProblem, quantityMessages } from '../contracts/purchases';
import { formatNaira } from '../core/money';
import type { PickupType, ProductPurchaseCollected, ProductPurchaseEvent, ProductPurchaseInitiated, PurchaseLine, PurchasePaymentMethod } from './events';

/**
 * A product purchase (BUSINESS-RULES.md §5): priced by the server from the catalogue, then paid
 * once. Paying it is the payment's business (payments/); this stream only records that the money
 * for it was accepted (or refused), so a purchase is paid at most once whoever settles it.
 */
export const purchaseMessages = {
  noProducts: 'There are no selected products',
  quantityBelowOne: quantityMessages.belowOne,
  quantityNotWhole: quantityMessages.notWhole,
  quantityAboveMax: quantityMessages.aboveMax,
  orderTypeMissing: 'Order type not selected',
  unknownProduct: 'One of the selected products does not exist.',
  inactiveProduct: (name: string) => `${name} is not available at the moment; remove it from your cart.`,
  /** A product left at ₦0 from before prices had a floor: never handed out for nothing. */
  unpricedProduct: (name: string) => `${name} has no price yet, so it cannot be ordered; remove it from your cart.`,
  priceDiffers: (kobo: number) => `The total price does not match the prices of the selected products (${formatNaira(kobo)}). Reload the products and try again.`,
  pointsDiffer: (points: number) => `The total points do not match the selected products (${points} PV). Reload the products and try again.`,
  quantityDiffers: (quantity: number) => `The total quantity does not match the selected products (${quantity}).`,
  notActive: 'Only an active member can buy products; your registration must be paid first.',
  /** Registration and upgrade pick-ups were paid with the package: they are never paid for again. */
  notPayable: 'Only a repurchase pick-up is paid for: registration and upgrade pick-ups come out of your package\'s pick-up allowance.',
  nothingToPay: 'The selected products have no price: there is nothing to pay.',
  unknown: 'Purchase not found.',
  alreadyPlaced: 'This purchase has already been placed.',
  declinedCannotPay: 'This purchase\'s payment was declined; it cannot be paid any more.',
  paidCannotDecline: 'This purchase has already been paid.',
  alreadyCollected: 'This order has already been collected.',
  notPaidYet: 'This order has not been paid yet.',
  declined: 'This order was declined.',
  paidOrderCannotBeDeclined: 'A paid repurchase cannot be declined here; it waits to be collected at a stockist.',
  pickupAboveAllowance: 'Total selected product price is higher than pickup amount',
  registrationPickupFirst: 'Your first order must be your registration pick-up.',
  registrationPickupUsed: 'You have already made your registration pick-up.',
  noUpgradePickup: 'You have no upgrade pick-up to make: upgrade your package first.',
  upgradePickupUsed: 'You have already made the pick-up of your latest upgrade.',
  repurchaseIsPaid: 'A repurchase pick-up is paid for: pay by card, from your wallet or with a payment receipt.',
  orderCodeUnknown: 'Please enter a valid order code to fetch order details',
  passwordWrong: 'The password is incorrect.',
} as const;

export type RequestedLine = { productId: number; qty: number };
export type CatalogueProduct = { id: number; name: string; worth: number; points: number; is_active: boolean };
export type PricedOrder = { lines: PurchaseLine[]; totalPriceKobo: number; totalPoints: number; totalQuantity: number };

/**
 * Prices a cart from the catalogue as it is now (the client's prices are never trusted): every
 * product must exist, be active and have a price, every quantity a whole number from 1 to
 * MAX_LINE_QUANTITY; the same product twice is one line with the quantities added (the sum within
 * the maximum too).
 */
export function priceOrder(requested: readonly RequestedLine[], catalogue: readonly CatalogueProduct[]): PricedOrder {
  if (requested.length === 0) throw new RuleViolation(purchaseMessages.noProducts, 'products');
  for (const line of requested) {
    const problem = lineQuantityProblem(line.qty);
    if (problem) throw new RuleViolation(problem, 'products');
  }
  const byId = new Map(catalogue.map((product) => [product.id, product]));
  const quantities = new Map<number, number>();
  for (const line of requested) quantities.set(line.productId, (quantities.get(line.productId) ?? 0) + line.qty);
  const lines = [...quantities.entries()].map(([productId, qty]): PurchaseLine => {
    const product = byId.get(productId);
    if (!product) throw new RuleViolation(purchaseMessages.unknownProduct, 'products');
    if (!product.is_active) throw new RuleViolation(purchaseMessages.inactiveProduct(product.name), 'products');
    if (product.worth <= 0) throw new RuleViolation(purchaseMessages.unpricedProduct(product.name), 'products');
    // The same product on several lines is one line: the maximum holds for their sum.
    if (qty > MAX_LINE_QUANTITY) throw new RuleViolation(purchaseMessages.quantityAboveMax, 'products');
    return { product_id: product.id, name: product.name, qty, price_kobo: product.worth, points: product.points };
  });
  return {
    lines,
    totalPriceKobo: lines.reduce((sum, line) => sum + line.price_kobo * line.qty, 0),
    totalPoints: lines.reduce((sum, line) => sum + line.points * line.qty, 0),
    totalQuantity: lines.reduce((sum, line) => sum + line.qty, 0),
  };
}

/** The totals the client showed the member must be the server's, so a stale cart is never charged another sum. */
export function checkClientTotals(order: PricedOrder, client: { totalPriceKobo: number | null; totalPoints: number | null; totalQuantity: number | null }): void {
  if (client.totalPriceKobo !== null && client.totalPriceKobo !== order.totalPriceKobo) throw new RuleViolation(purchaseMessages.priceDiffers(order.totalPriceKobo), 'total_price');
  if (client.totalPoints !== null && client.totalPoints !== order.totalPoints) throw new RuleViolation(purchaseMessages.pointsDiffer(order.totalPoints), 'total_points');
  if (client.totalQuantity !== null && client.totalQuantity !== order.totalQuantity) throw new RuleViolation(purchaseMessages.quantityDiffers(order.totalQuantity), 'total_quantity');
}

export type PurchaseStatus = 'awaiting_payment' | 'paid' | 'declined' | 'collected';

export type PurchaseState =
  | { status: 'none' }
  | { status: PurchaseStatus; purchase: ProductPurchaseInitiated['data'] };

export type PurchaseCommand =
  | { type: 'PlacePurchase'; data: ProductPurchaseInitiated['data'] }
  | { type: 'RecordPayment'; data: { purchase_id: string; payment_method: PurchasePaymentMethod } }
  | { type: 'RecordPaymentDeclined'; data: { purchase_id: string; payment_id: string; reason: string } }
  /** An allowance pick-up (registration or upgrade): placed and covered by the allowance at once. */
  | { type: 'PlaceAllowancePurchase'; data: ProductPurchaseInitiated['data'] }
  | { type: 'Collect'; data: Omit<ProductPurchaseCollected['data'], 'purchase_id' | 'member_id' | 'pickup_type' | 'total_price_kobo' | 'lines'> }
  | { type: 'DeclineClaim'; data: { reason: string } };

export function evolvePurchase(state: PurchaseState, event: ProductPurchaseEvent): PurchaseState {
  if (event.type === 'ProductPurchaseInitiated') return { status: 'awaiting_payment', purchase: event.data };
  if (state.status === 'none') return state;
  switch (event.type) {
    case 'ProductPurchasePaid':
      return { ...state, status: 'paid' };
    case 'ProductPurchasePaymentDeclined':
    case 'ProductPurchaseClaimDeclined':
      return { ...state, status: 'declined' };
    case 'ProductPurchaseCollected':
      return { ...state, status: 'collected' };
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decidePurchase(command: PurchaseCommand, state: PurchaseState): ProductPurchaseEvent[] {
  if (command.type === 'PlacePurchase') {
    if (state.status !== 'none') throw new RuleViolation(purchaseMessages.alreadyPlaced);
    return [{ type: 'ProductPurchaseInitiated', data: command.data }];
  }
  if (command.type === 'PlaceAllowancePurchase') {
    if (state.status !== 'none') throw new RuleViolation(purchaseMessages.alreadyPlaced);
    const d = command.data;
    return [
      { type: 'ProductPurchaseInitiated', data: d },
      { type: 'ProductPurchasePaid', data: { purchase_id: d.purchase_id, member_id: d.member_id, pickup_type: d.pickup_type, total_price_kobo: d.total_price_kobo, total_points: d.total_points, lines: d.lines, payment_method: 'allowance' } },
    ];
  }
  if (state.status === 'none') throw new RuleViolation(purchaseMessages.unknown);
  const p = state.purchase;
  switch (command.type) {
    case 'RecordPayment':
      // Paid already (the other of verify and webhook, an admin's second click): nothing more happens.
      if (state.status === 'paid' || state.status === 'collected') return [];
      if (state.status === 'declined') throw new RuleViolation(purchaseMessages.declinedCannotPay);
      return [{
        type: 'ProductPurchasePaid',
        data: {
          purchase_id: p.purchase_id,
          member_id: p.member_id,
          pickup_type: p.pickup_type,
          total_price_kobo: p.total_price_kobo,
          total_points: p.total_points,
          lines: p.lines,
          payment_method: command.data.payment_method,
        },
      }];
    case 'RecordPaymentDeclined':
      if (state.status === 'declined') return [];
      if (state.status === 'paid' || state.status === 'collected') throw new RuleViolation(purchaseMessages.paidCannotDecline);
      return [{ type: 'ProductPurchasePaymentDeclined', data: { purchase_id: p.purchase_id, payment_id: command.data.payment_id, reason: command.data.reason } }];
    case 'Collect':
      if (state.status === 'collected') throw new RuleViolation(purchaseMessages.alreadyCollected);
      if (state.status === 'declined') throw new RuleViolation(purchaseMessages.declined);
      if (state.status !== 'paid') throw new RuleViolation(purchaseMessages.notPaidYet);
      return [{ type: 'ProductPurchaseCollected', data: { purchase_id: p.purchase_id, member_id: p.member_id, pickup_type: p.pickup_type, total_price_kobo: p.total_price_kobo, lines: p.lines, ...command.data } }];
    case 'DeclineClaim':
      if (state.status === 'collected') throw new RuleViolation(purchaseMessages.alreadyCollected);
      if (state.status === 'declined') throw new RuleViolation(purchaseMessages.declined);
      if (p.payment_method !== 'allowance') throw new RuleViolation(purchaseMessages.paidOrderCannotBeDeclined);
      return [{ type: 'ProductPurchaseClaimDeclined', data: { purchase_id: p.purchase_id, member_id: p.member_id, pickup_type: p.pickup_type, reason: command.data.reason } }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const purchaseDecider: Decider<PurchaseState, PurchaseCommand, ProductPurchaseEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolvePurchase,
  decide: decidePurchase,
};

/** Which pick-ups are paid for with money (BUSINESS-RULES.md §5): only the repurchase. */
export const isPaidPickup = (pickupType: PickupType) => pickupType === 'repurchase_pickup';
