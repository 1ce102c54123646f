import { describe, expect, it } from 'vitest';
import { type Decision, type DecisionKind, decisionMail } from './decision-mails';
import { isStale } from './policy';
import { naira } from './layout';

const hostile = `<script>alert("x")</script> & 'Ade'`;
const escaped = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Ade&#39;';
const bank = { bankName: hostile, accountNumber: '0123456789', accountName: 'Ada Obi' };
const to = { email: 'ada@example.test', firstName: hostile };
const URL = 'https://portal.example.test/';

/** One decision of every kind, each carrying hostile text where a person typed it, and the page it must link to. */
const samples: Record<DecisionKind, { decision: Decision; page: string; amount?: string }> = {
  activated: { decision: { kind: 'activated', packageName: hostile, amountKobo: 2_500_000, method: 'pop' }, page: '/user/dashboard', amount: '₦25,000.00' },
  'upgrade-approved': { decision: { kind: 'upgrade-approved', fromPackage: 'Bronze', toPackage: hostile, amountKobo: 1_000_050, method: 'wallet' }, page: '/user/dashboard', amount: '₦10,000.50' },
  'order-payment-approved': { decision: { kind: 'order-payment-approved', amountKobo: 750_000, orderCode: hostile }, page: '/user/repurchase', amount: '₦7,500.00' },
  'payment-declined': { decision: { kind: 'payment-declined', purpose: 'registration', description: 'Registration: Gold', amountKobo: 2_500_000, reason: hostile }, page: '/welcome', amount: '₦25,000.00' },
  'payout-made': { decision: { kind: 'payout-made', amountKobo: 12_345_600, bank, reason: hostile }, page: '/user/wallet', amount: '₦123,456.00' },
  'withdrawal-sent': { decision: { kind: 'withdrawal-sent', amountKobo: 500_000, feeKobo: 10_000, netKobo: 490_000, bank }, page: '/user/wallet', amount: '₦4,900.00' },
  'withdrawal-paid': { decision: { kind: 'withdrawal-paid', withdrawalKind: 'withdrawal', netKobo: 490_000, bank }, page: '/user/wallet', amount: '₦4,900.00' },
  'withdrawal-failed': { decision: { kind: 'withdrawal-failed', withdrawalKind: 'payout', amountKobo: 500_000, returnedKobo: 500_000, reason: hostile }, page: '/user/wallet', amount: '₦5,000.00' },
  'incentive-approved': { decision: { kind: 'incentive-approved', incentive: hostile, rankName: 'Emerald', worthKobo: 100_000_000 }, page: '/user/dashboard', amount: '₦1,000,000.00' },
  'incentive-declined': { decision: { kind: 'incentive-declined', incentive: 'Car', reason: hostile }, page: '/user/dashboard' },
  'held-bonuses-released': { decision: { kind: 'held-bonuses-released', totalKobo: 350_000, count: 3 }, page: '/user/wallet', amount: '₦3,500.00' },
  'stockist-approved': { decision: { kind: 'stockist-approved', storeName: hostile, packageName: 'Mega' }, page: '/user/stockist-profile' },
  'stockist-disapproved': { decision: { kind: 'stockist-disapproved', storeName: 'Ada Stores', reason: hostile }, page: '/user/stockist-registration' },
  'stockist-upgrade-approved': { decision: { kind: 'stockist-upgrade-approved', storeName: hostile, toPackage: 'Mega', amountKobo: 5_000_000 }, page: '/user/stockist-profile', amount: '₦50,000.00' },
  'stockist-upgrade-disapproved': { decision: { kind: 'stockist-upgrade-disapproved', storeName: 'Ada Stores', reason: hostile }, page: '/user/stockist-profile' },
  'stock-purchase-approved': { decision: { kind: 'stock-purchase-approved', totalKobo: 4_000_000, quantity: 12 }, page: '/user/stock-purchase', amount: '₦40,000.00' },
  'stock-purchase-declined': { decision: { kind: 'stock-purchase-declined', totalKobo: 4_000_000, reason: hostile }, page: '/user/stock-purchase', amount: '₦40,000.00' },
  'order-collected': { decision: { kind: 'order-collected', orderCode: 'AB12CD34', totalKobo: 750_000, place: `at ${hostile}` }, page: '/user/repurchase', amount: '₦7,500.00' },
};

describe.each(Object.entries(samples))('the %s mail', (_kind, { decision, page, amount }) => {
  const mail = decisionMail(decision, to, URL);

  it('escapes everything a person typed in its HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(escaped);
  });

  it('has a plain-text part with the same words, unescaped and without markup', () => {
    expect(mail.text).toContain(`Hello ${hostile},`);
    expect(mail.text).not.toMatch(/<(p|a|table|td|h1)\b/);
    expect(mail.text).not.toContain('&amp;');
    if (amount) expect(mail.text).toContain(amount);
  });

  it('links to the member page where it is acted on, in both parts', () => {
    const link = `https://portal.example.test${page}`;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('names the amount in naira the member app way, in the HTML too', () => {
    if (amount) expect(mail.html).toContain(amount);
    expect(mail.subject.length).toBeGreaterThan(0);
  });
});

describe('amount wording', () => {
  it('formats kobo as naira with grouping and two decimals, as the member app shows money', () => {
    expect(naira(0)).toBe('₦0.00');
    expect(naira(1)).toBe('₦0.01');
    expect(naira(3_500_000)).toBe('₦35,000.00');
    expect(naira(123_456_789)).toBe('₦1,234,567.89');
  });

  it('a withdrawal sent names what left the wallet, the charge and what the bank receives, and hides the account number', () => {
    const mail = decisionMail(samples['withdrawal-sent'].decision, to, URL);
    expect(mail.text).toContain('Withdrawn from your wallet: ₦5,000.00');
    expect(mail.text).toContain('Charge: ₦100.00');
    expect(mail.text).toContain('Sent to your bank: ₦4,900.00');
    expect(mail.text).toContain('account ending 6789');
    expect(mail.text).not.toContain('0123456789');
  });

  it('a declined payment gives the reason, and each purpose its own way back', () => {
    const reason = 'The receipt is for another amount';
    const base = { kind: 'payment-declined', description: 'Upgrade', amountKobo: 100, reason } as const;
    expect(decisionMail({ ...base, purpose: 'registration' }, to, URL).text).toContain(`Reason: ${reason}`);
    expect(decisionMail({ ...base, purpose: 'upgrade' }, to, URL).subject).toBe('Your package upgrade payment was declined');
    expect(decisionMail({ ...base, purpose: 'product_purchase' }, to, URL).text).toContain('https://portal.example.test/user/repurchase');
  });

  it('held bonuses are counted in words: one bonus, or several', () => {
    expect(decisionMail({ kind: 'held-bonuses-released', totalKobo: 100, count: 1 }, to, URL).text).toContain('A bonus earned while your registration payment awaited approval was credited');
    expect(decisionMail({ kind: 'held-bonuses-released', totalKobo: 100, count: 2 }, to, URL).text).toContain('2 bonuses earned while your registration payment awaited approval were credited');
  });

  it('a declined incentive without a reason says so instead of leaving the line empty', () => {
    expect(decisionMail({ kind: 'incentive-declined', incentive: 'Car', reason: null }, to, URL).text).toContain('Reason: No reason was given.');
  });
});

describe('staleness', () => {
  it('a decision older than three days when read is not news; a fresh one is', () => {
    const now = new Date('2026-11-26T12:00:00Z');
    expect(isStale('2026-11-23T11:59:00Z', now)).toBe(true);
    expect(isStale('2026-11-23T12:01:00Z', now)).toBe(false);
    expect(isStale('2026-11-26T12:00:00Z', now)).toBe(false);
  });
});
