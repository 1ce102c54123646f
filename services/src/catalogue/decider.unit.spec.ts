import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../core/event-store';
import { NotFound, RuleViolation } from '../core/errors';
import { type EntryCommand, entryDecider } from './decider';
import type { CompanyBankFields, ProductFields } from './events';
import { catalogueKinds } from './kinds';

const bankDecider = entryDecider(catalogueKinds.companyBank);
const productDecider = entryDecider(catalogueKinds.product);

/** Given past events, when a command, then these new events (or this refusal). */
function given<Fields extends Record<string, string | number | boolean | null>>(decider: ReturnType<typeof entryDecider<Fields>>, past: DomainEvent[]) {
  return {
    when: (command: EntryCommand<Fields>) => {
      const state = past.reduce((s, e) => decider.evolve(s, e as DomainEvent<string, Record<string, unknown>>), decider.initialState());
      const decide = () => decider.decide(command, state);
      return {
        then: (expected: DomainEvent[]) => expect(decide()).toEqual(expected),
        thenNothingHappened: () => expect(decide()).toEqual([]),
        thenThrows: (kind: typeof NotFound | typeof RuleViolation, message: RegExp) => {
          expect(decide).toThrow(kind);
          expect(decide).toThrow(message);
        },
      };
    },
  };
}

const bank: CompanyBankFields = { bank_name: 'Zenith Bank', bank_account_name: 'Herbal Life Network Ltd', bank_account_number: '1012345678' };
const bankDefined = { type: 'CompanyBankDefined', data: { bank_id: 3, ...bank } };
const bankRemoved = { type: 'CompanyBankRemoved', data: { bank_id: 3 } };
const product: ProductFields = { name: 'Moringa', description: '', image: null, worth_kobo: 850_000, points: 2, is_active: true };
const productDefined = { type: 'ProductDefined', data: { product_id: 7, ...product } };

describe('catalogue entry decider', () => {
  it('defines a new entry with all its fields under its id', () => {
    given(bankDecider, []).when({ type: 'Define', id: 3, fields: bank }).then([bankDefined]);
  });

  it('refuses to define the same entry twice', () => {
    given(bankDecider, [bankDefined]).when({ type: 'Define', id: 3, fields: bank }).thenThrows(RuleViolation, /already exists/);
  });

  it('records only the fields an edit changes, with their previous values', () => {
    given(bankDecider, [bankDefined])
      .when({ type: 'Update', id: 3, changes: { bank_name: 'Zenith Bank', bank_account_number: '2012345678' } })
      .then([{ type: 'CompanyBankUpdated', data: { bank_id: 3, changes: { bank_account_number: '2012345678' }, previous: { bank_account_number: '1012345678' } } }]);
  });

  it('records nothing for an edit that changes nothing (a resend is harmless)', () => {
    given(bankDecider, [bankDefined]).when({ type: 'Update', id: 3, changes: { ...bank } }).thenNothingHappened();
  });

  it('edits from the latest values, not the first ones', () => {
    const toggledOff = { type: 'ProductUpdated', data: { product_id: 7, changes: { is_active: false }, previous: { is_active: true } } };
    given(productDecider, [productDefined, toggledOff])
      .when({ type: 'Update', id: 7, changes: { is_active: true } })
      .then([{ type: 'ProductUpdated', data: { product_id: 7, changes: { is_active: true }, previous: { is_active: false } } }]);
    given(productDecider, [productDefined, toggledOff]).when({ type: 'Update', id: 7, changes: { is_active: false } }).thenNothingHappened();
  });

  it('answers not found for an unknown entry', () => {
    given(bankDecider, []).when({ type: 'Update', id: 9, changes: { bank_name: 'Access Bank' } }).thenThrows(NotFound, /Bank account not found/);
    given(bankDecider, []).when({ type: 'Remove', id: 9 }).thenThrows(NotFound, /Bank account not found/);
  });

  it('removes a company bank once; removing again records nothing', () => {
    given(bankDecider, [bankDefined]).when({ type: 'Remove', id: 3 }).then([bankRemoved]);
    given(bankDecider, [bankDefined, bankRemoved]).when({ type: 'Remove', id: 3 }).thenNothingHappened();
  });

  it('refuses to edit a removed bank', () => {
    given(bankDecider, [bankDefined, bankRemoved]).when({ type: 'Update', id: 3, changes: { bank_name: 'Access Bank' } }).thenThrows(RuleViolation, /deleted and cannot be changed/);
  });

  it('refuses to remove kinds that cannot be removed (products are disabled instead)', () => {
    given(productDecider, [productDefined]).when({ type: 'Remove', id: 7 }).thenThrows(RuleViolation, /cannot be deleted/);
  });
});
