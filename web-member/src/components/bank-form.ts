import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ACCOUNT_NUMBER_PATTERN } from '@portal/services/contracts/profile';

/** BankDetailsForm's validation, loaded apart from the pages that show it (lib/lazy-resolver.ts). */
export const bankForm = z.object({
  bank_code: z.string().min(1, 'The bank name field is required.'),
  account_number: z
    .string()
    .trim()
    .min(1, 'The account number field is required.')
    .regex(ACCOUNT_NUMBER_PATTERN, 'The account number must be 10 digits.'),
});
export type BankFormInput = z.input<typeof bankForm>;

export const bankResolver = zodResolver(bankForm);
