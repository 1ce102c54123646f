import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { stockistApplicationFields } from '@portal/services/contracts/stockists';

/** The Become a Stockist form's validation: the api's own schema and messages, loaded apart from the page (lib/lazy-resolver.ts). */
export interface StockistForm {
  store_name: string;
  store_address: string;
  store_state: string;
  store_phone: string;
  package_id: string;
  referrer: string;
}

// The schema reads the form's text (package_id is coerced); the page sends the form's own values.
export const stockistResolver = zodResolver(stockistApplicationFields) as unknown as Resolver<StockistForm>;
