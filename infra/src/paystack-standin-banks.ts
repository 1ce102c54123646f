/**
 * The stand-in's banks and account names. Banks: the Nigerian deposit money banks with the codes
 * Paystack uses (design/reference/paystack-and-mail.md §3.1) plus Paystack's "Test Bank" 001.
 * Account names are made up but stable, so a test or a demo sees the same name every time.
 */
import { createHash } from 'node:crypto';

const STAMP = '2020-02-18T20:24:17.000Z';

export const BANKS = [
  ['Access Bank', '044', '044150149'], ['Citibank Nigeria', '023', ''], ['Ecobank Nigeria', '050', ''],
  ['Fidelity Bank', '070', ''], ['First Bank of Nigeria', '011', '011150007'], ['First City Monument Bank', '214', ''],
  ['Guaranty Trust Bank', '058', '058152036'], ['Keystone Bank', '082', ''], ['Polaris Bank', '076', ''],
  ['Stanbic IBTC Bank', '221', ''], ['Standard Chartered Bank', '068', ''], ['Sterling Bank', '232', ''],
  ['Test Bank', '001', ''], ['Union Bank of Nigeria', '032', ''], ['United Bank For Africa', '033', '033153513'],
  ['Unity Bank', '215', ''], ['Wema Bank', '035', '035150103'], ['Zenith Bank', '057', '057150013'],
].map(([name = '', code = '', longcode = ''], index) => ({
  name, slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), code, longcode, gateway: null, pay_with_bank: false,
  supports_transfer: true, available_for_direct_debit: false, active: true, is_deleted: false, country: 'Nigeria',
  currency: 'NGN', type: 'nuban', id: index + 1, createdAt: STAMP, updatedAt: STAMP,
}));

export const bankByCode = (code: string) => BANKS.find((bank) => bank.code === code);

const KNOWN_ACCOUNTS: Record<string, string> = { '058:0123456789': 'OLUWASEUN ADEBAYO', '033:2000000001': 'CHIOMA NWANKWO' };
const FIRST_NAMES = ['ADAEZE', 'BABATUNDE', 'CHINEDU', 'DAMILOLA', 'EMEKA', 'FUNMILAYO', 'GBENGA', 'HALIMA', 'IFEOMA', 'KELECHI', 'MUSA', 'NGOZI', 'OLUMIDE', 'TEMITOPE', 'UCHE', 'YETUNDE'];
const SURNAMES = ['ABUBAKAR', 'ADEYEMI', 'BELLO', 'EZE', 'IBRAHIM', 'NWACHUKWU', 'OKAFOR', 'OKONKWO', 'OLADIPO', 'ONYEKACHI', 'SANI', 'UDOH', 'UMEH', 'USMAN', 'YUSUF', 'OGUNLEYE'];

/** "TEST ACCOUNT 1234" at the test bank; a known name; else a name derived from the account number. */
export function accountName(accountNumber: string, bankCode: string): string {
  if (bankCode === '001') return `TEST ACCOUNT ${accountNumber.slice(-4)}`;
  const known = KNOWN_ACCOUNTS[`${bankCode}:${accountNumber}`];
  if (known) return known;
  const hash = createHash('sha256').update(accountNumber).digest();
  return `${FIRST_NAMES[hash[0]! % FIRST_NAMES.length]} ${SURNAMES[hash[1]! % SURNAMES.length]}`;
}
