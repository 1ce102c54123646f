import { type RenderedMail, memberPage, naira, renderMail } from './layout';

/**
 * The mails of decisions about a member's money (docs/notifications.md), one small pure function
 * each: the facts in (amounts in kobo, names as recorded), subject + HTML + text out. The
 * notifications policy (policy.ts) gathers the facts from the event and the read tables.
 */
export type Recipient = { email: string; firstName: string };

type PaymentMethod = 'payment_gateway' | 'pop' | 'wallet';

const paidHow: Record<PaymentMethod, string> = {
  payment_gateway: 'Your card payment',
  pop: 'Your bank transfer receipt',
  wallet: 'Your wallet payment',
};

export type Decision =
  | { kind: 'activated'; packageName: string; amountKobo: number; method: PaymentMethod }
  | { kind: 'upgrade-approved'; fromPackage: string; toPackage: string; amountKobo: number; method: PaymentMethod }
  | { kind: 'order-payment-approved'; amountKobo: number; orderCode: string | null }
  | { kind: 'payment-declined'; purpose: 'registration' | 'upgrade' | 'product_purchase'; description: string; amountKobo: number; reason: string }
  | { kind: 'payout-made'; amountKobo: number; bank: BankLine; reason: string }
  | { kind: 'withdrawal-sent'; amountKobo: number; feeKobo: number; netKobo: number; bank: BankLine }
  | { kind: 'withdrawal-paid'; withdrawalKind: 'withdrawal' | 'payout'; netKobo: number; bank: BankLine }
  | { kind: 'withdrawal-failed'; withdrawalKind: 'withdrawal' | 'payout'; amountKobo: number; returnedKobo: number; reason: string }
  | { kind: 'incentive-approved'; incentive: string; rankName: string; worthKobo: number }
  | { kind: 'incentive-declined'; incentive: string; reason: string | null }
  | { kind: 'held-bonuses-released'; totalKobo: number; count: number }
  | { kind: 'stockist-approved'; storeName: string; packageName: string }
  | { kind: 'stockist-disapproved'; storeName: string; reason: string }
  | { kind: 'stockist-upgrade-approved'; storeName: string; toPackage: string; amountKobo: number }
  | { kind: 'stockist-upgrade-disapproved'; storeName: string; reason: string }
  | { kind: 'stock-purchase-approved'; totalKobo: number; quantity: number }
  | { kind: 'stock-purchase-declined'; totalKobo: number; reason: string }
  | { kind: 'order-collected'; orderCode: string | null; totalKobo: number; place: string };

export type DecisionKind = Decision['kind'];

/** The bank account the money goes to, named without its full number. */
export type BankLine = { bankName: string; accountNumber: string; accountName: string };

export function bankLine(bank: BankLine): string {
  const lastDigits = bank.accountNumber.slice(-4);
  return `${bank.bankName}, account ending ${lastDigits} (${bank.accountName})`;
}

const purposeWords = { registration: 'registration', upgrade: 'package upgrade', product_purchase: 'order' } as const;

export function decisionMail(decision: Decision, to: Recipient, publicUrl: string): RenderedMail {
  const page = (path: `/${string}`) => memberPage(publicUrl, path);
  const name = to.firstName;
  switch (decision.kind) {
    case 'activated':
      return renderMail({
        subject: 'Your account is active',
        name,
        heading: 'Welcome: your account is active',
        paragraphs: [
          `${paidHow[decision.method]} of ${naira(decision.amountKobo)} for the ${decision.packageName} package was ${decision.method === 'pop' ? 'approved' : 'received'}, and your account is now active.`,
          'You can now share your referral link, build your team and earn bonuses.',
        ],
        facts: [['Package', decision.packageName], ['Amount paid', naira(decision.amountKobo)]],
        action: { label: 'Open your dashboard', url: page('/user/dashboard') },
      });
    case 'upgrade-approved':
      return renderMail({
        subject: `Your upgrade to ${decision.toPackage} is approved`,
        name,
        heading: `You are now on the ${decision.toPackage} package`,
        paragraphs: [`${paidHow[decision.method]} of ${naira(decision.amountKobo)} for the upgrade was ${decision.method === 'pop' ? 'approved' : 'received'}, and your package changed from ${decision.fromPackage} to ${decision.toPackage}.`],
        facts: [['From', decision.fromPackage], ['To', decision.toPackage], ['Amount paid', naira(decision.amountKobo)]],
        action: { label: 'Open your dashboard', url: page('/user/dashboard') },
      });
    case 'order-payment-approved':
      return renderMail({
        subject: 'Your order payment is approved',
        name,
        heading: 'Your order is paid',
        paragraphs: [
          `Your bank transfer receipt of ${naira(decision.amountKobo)} for your order was approved.`,
          decision.orderCode ? `Collect your order at a stockist with the order code ${decision.orderCode}.` : 'You can now collect your order.',
        ],
        facts: [['Amount', naira(decision.amountKobo)], ...(decision.orderCode ? ([['Order code', decision.orderCode]] as const) : [])],
        action: { label: 'See your orders', url: page('/user/repurchase') },
      });
    case 'payment-declined': {
      const what = purposeWords[decision.purpose];
      const retry =
        decision.purpose === 'registration'
          ? { words: 'Pay again to activate your account.', action: { label: 'Pay for your registration', url: page('/welcome') } }
          : decision.purpose === 'upgrade'
            ? { words: 'You can pay for the upgrade again from your dashboard.', action: { label: 'Open your dashboard', url: page('/user/dashboard') } }
            : { words: 'Your order will not be processed; you can place it again.', action: { label: 'See your orders', url: page('/user/repurchase') } };
      return renderMail({
        subject: `Your ${what} payment was declined`,
        name,
        heading: `Your ${what} payment was declined`,
        paragraphs: [`Your payment of ${naira(decision.amountKobo)} (${decision.description}) was declined.`, retry.words],
        facts: [['Amount', naira(decision.amountKobo)], ['Reason', decision.reason]],
        action: retry.action,
      });
    }
    case 'payout-made':
      return renderMail({
        subject: `A payout of ${naira(decision.amountKobo)} is on its way`,
        name,
        heading: 'The company made you a payout',
        paragraphs: [`${naira(decision.amountKobo)} was paid out of your wallet and is being sent to your bank account, free of charge. We will write again when it arrives.`],
        facts: [['Amount', naira(decision.amountKobo)], ['To', bankLine(decision.bank)], ['Reason', decision.reason]],
        action: { label: 'Open your wallet', url: page('/user/wallet') },
      });
    case 'withdrawal-sent':
      return renderMail({
        subject: `Your withdrawal of ${naira(decision.amountKobo)} is on its way`,
        name,
        heading: 'Your withdrawal is on its way',
        paragraphs: [`We sent ${naira(decision.netKobo)} to your bank account. Banks usually credit it within minutes; we will write again when it arrives.`],
        facts: [['Withdrawn from your wallet', naira(decision.amountKobo)], ['Charge', naira(decision.feeKobo)], ['Sent to your bank', naira(decision.netKobo)], ['To', bankLine(decision.bank)]],
        action: { label: 'Open your wallet', url: page('/user/wallet') },
      });
    case 'withdrawal-paid': {
      const what = decision.withdrawalKind === 'payout' ? 'payout' : 'withdrawal';
      return renderMail({
        subject: `Your ${what} of ${naira(decision.netKobo)} was paid`,
        name,
        heading: `Your ${what} was paid`,
        paragraphs: [`${naira(decision.netKobo)} reached your bank account.`],
        facts: [['Paid', naira(decision.netKobo)], ['To', bankLine(decision.bank)]],
        action: { label: 'Open your wallet', url: page('/user/wallet') },
      });
    }
    case 'withdrawal-failed': {
      const what = decision.withdrawalKind === 'payout' ? 'payout' : 'withdrawal';
      return renderMail({
        subject: `Your ${what} did not go through: ${naira(decision.returnedKobo)} is back in your wallet`,
        name,
        heading: `Your ${what} did not reach your bank`,
        paragraphs: [
          `The transfer of your ${what} of ${naira(decision.amountKobo)} did not go through, so ${naira(decision.returnedKobo)} was returned to your wallet.`,
          'Check your bank details on your profile, then withdraw again.',
        ],
        facts: [['Returned to your wallet', naira(decision.returnedKobo)], ['Reason', decision.reason]],
        action: { label: 'Open your wallet', url: page('/user/wallet') },
      });
    }
    case 'incentive-approved':
      return renderMail({
        subject: `Your ${decision.incentive} incentive is approved`,
        name,
        heading: 'Your incentive is approved',
        paragraphs: [`Congratulations: your claim of the ${decision.incentive} incentive (${decision.rankName}) was approved.`],
        facts: [['Incentive', decision.incentive], ['Rank', decision.rankName], ['Worth', naira(decision.worthKobo)]],
        action: { label: 'See your incentives', url: page('/user/dashboard') },
      });
    case 'incentive-declined':
      return renderMail({
        subject: `Your ${decision.incentive} incentive claim was declined`,
        name,
        heading: 'Your incentive claim was declined',
        paragraphs: [`Your claim of the ${decision.incentive} incentive was declined. You may claim it again.`],
        facts: [['Incentive', decision.incentive], ['Reason', decision.reason ?? 'No reason was given.']],
        action: { label: 'See your incentives', url: page('/user/dashboard') },
      });
    case 'held-bonuses-released':
      return renderMail({
        subject: `${naira(decision.totalKobo)} of held bonuses is now in your wallet`,
        name,
        heading: 'Your held bonuses are released',
        paragraphs: [
          `${decision.count === 1 ? 'A bonus' : `${decision.count} bonuses`} earned while your registration payment awaited approval ${decision.count === 1 ? 'was' : 'were'} credited to your wallet now that it is approved.`,
        ],
        facts: [['Credited', naira(decision.totalKobo)]],
        action: { label: 'Open your wallet', url: page('/user/wallet') },
      });
    case 'stockist-approved':
      return renderMail({
        subject: `${decision.storeName} is approved as a stockist`,
        name,
        heading: 'Your stockist application is approved',
        paragraphs: [`${decision.storeName} is now a ${decision.packageName} stockist. You can buy stock and hand over members' orders.`],
        facts: [['Store', decision.storeName], ['Stockist package', decision.packageName]],
        action: { label: 'Open your stockist profile', url: page('/user/stockist-profile') },
      });
    case 'stockist-disapproved':
      return renderMail({
        subject: 'Your stockist application was not approved',
        name,
        heading: 'Your stockist application was not approved',
        paragraphs: [`The application for ${decision.storeName} was not approved. You may apply again.`],
        facts: [['Store', decision.storeName], ['Reason', decision.reason]],
        action: { label: 'Apply again', url: page('/user/stockist-registration') },
      });
    case 'stockist-upgrade-approved':
      return renderMail({
        subject: `${decision.storeName} is upgraded to ${decision.toPackage}`,
        name,
        heading: 'Your stockist upgrade is approved',
        paragraphs: [`${decision.storeName} is now a ${decision.toPackage} stockist.`],
        facts: [['Store', decision.storeName], ['New package', decision.toPackage], ['Amount paid', naira(decision.amountKobo)]],
        action: { label: 'Open your stockist profile', url: page('/user/stockist-profile') },
      });
    case 'stockist-upgrade-disapproved':
      return renderMail({
        subject: 'Your stockist upgrade was not approved',
        name,
        heading: 'Your stockist upgrade was not approved',
        paragraphs: [`The package upgrade of ${decision.storeName} was not approved.`],
        facts: [['Store', decision.storeName], ['Reason', decision.reason]],
        action: { label: 'Open your stockist profile', url: page('/user/stockist-profile') },
      });
    case 'stock-purchase-approved':
      return renderMail({
        subject: 'Your stock purchase is approved',
        name,
        heading: 'Your stock purchase is approved',
        paragraphs: [`Your stock purchase of ${naira(decision.totalKobo)} was approved and ${decision.quantity === 1 ? '1 unit was' : `${decision.quantity} units were`} added to your stock.`],
        facts: [['Value', naira(decision.totalKobo)], ['Units', String(decision.quantity)]],
        action: { label: 'See your stock purchases', url: page('/user/stock-purchase') },
      });
    case 'stock-purchase-declined':
      return renderMail({
        subject: 'Your stock purchase was declined',
        name,
        heading: 'Your stock purchase was declined',
        paragraphs: [`Your stock purchase of ${naira(decision.totalKobo)} was declined.`],
        facts: [['Value', naira(decision.totalKobo)], ['Reason', decision.reason]],
        action: { label: 'See your stock purchases', url: page('/user/stock-purchase') },
      });
    case 'order-collected':
      return renderMail({
        subject: 'Your order was collected',
        name,
        heading: 'Your order was collected',
        paragraphs: [`Your order${decision.orderCode ? ` ${decision.orderCode}` : ''} of ${naira(decision.totalKobo)} was handed over ${decision.place}. If you did not collect it yourself, contact the company at once.`],
        facts: [...(decision.orderCode ? ([['Order code', decision.orderCode]] as const) : []), ['Value', naira(decision.totalKobo)], ['Collected', decision.place]],
        action: { label: 'See your orders', url: page('/user/repurchase') },
      });
  }
}
