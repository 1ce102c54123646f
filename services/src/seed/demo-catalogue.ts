import type { Transaction } from 'kysely';
import { createIncentive, createProductService, defineEntry } from '../catalogue/commands';
import { catalogueKinds } from '../catalogue/kinds';
import { type BonusTableKind, GENERATIONS, generationField } from '../contracts/settings';
import type { EventMetadata } from '../core/event-store';
import { nairaToKobo } from '../core/money';
import type { Database } from '../database';
import { setBonusGenerations } from '../settings/commands';

/**
 * The demo company's catalogue beyond packages and ranks (demo-company.ts seeds those first):
 * incentives, stockist packages, products, company bank accounts, the four bonus generation
 * tables and a small bill-payment catalogue. Recorded through the same commands an admin uses.
 */

/** rank id, incentive, cash equivalent ₦ */
const incentives: Array<[number, string, number]> = [
  [1, 'Branded polo shirt and herbal starter kit', 15_000],
  [2, 'Android phone', 120_000],
  [3, 'Laptop', 450_000],
  [4, 'Weekend for two at Obudu Mountain Resort', 1_000_000],
  [5, 'Car fund ₦2,000,000', 2_000_000],
  [6, 'SUV fund ₦6,000,000', 6_000_000],
  [7, 'House fund ₦20,000,000', 20_000_000],
];

/** name, registration ₦, rebate %, stock pick-up ₦, level */
const stockistPackages: Array<[string, number, number, number, number]> = [
  ['Mini Stockist', 100_000, 5, 80_000, 1],
  ['Standard Stockist', 250_000, 7, 210_000, 2],
  ['Master Stockist', 500_000, 10, 430_000, 3],
];

/** name, description, price ₦, points */
const products: Array<[string, string, number, number]> = [
  ['Moringa Leaf Capsules', '60 capsules of dried moringa leaf: daily vitamins and minerals.', 8_500, 2],
  ['Bitter Leaf & Ginger Detox Tea', '20 tea bags of bitter leaf and ginger for digestion.', 6_000, 1],
  ['Black Seed Oil 100 ml', 'Cold-pressed Nigella sativa oil for immune support.', 12_000, 3],
  ['Garlic & Ginger Immune Booster', '60 capsules of aged garlic and ginger root.', 9_500, 2],
  ['Soursop Leaf Tea', '20 tea bags of soursop leaf for calm and rest.', 7_000, 2],
  ['Shea Butter & Neem Skin Balm', '150 g of unrefined shea butter with neem oil.', 5_500, 1],
  ['Prostate Care Herbal Blend', '90 capsules of saw palmetto, pumpkin seed and African cherry bark.', 18_000, 4],
  ['Hibiscus (Zobo) Heart Capsules', '60 capsules of hibiscus calyx for a healthy heart.', 10_000, 2],
];

const companyBanks: Array<[string, string, string]> = [
  ['Zenith Bank', 'Herbal Life Network Ltd', '1012345678'],
  ['Guaranty Trust Bank', 'Herbal Life Network Ltd', '0123456789'],
];

/** Percentages of generations 1..10; a bigger package reaches deeper (the rest are 0). */
const generationTables: Record<BonusTableKind, number[]> = {
  referral: [10, 5, 3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5],
  upgrade: [8, 4, 2, 1, 1, 0.5, 0.5, 0.5, 0.25, 0.25],
  unilevel: [5, 3, 2, 1, 1, 1, 0.5, 0.5, 0.5, 0.5],
  'stockist-upline': [3, 2, 1, 1, 0.5, 0.5, 0.5, 0.5, 0.25, 0.25],
};
/** How many generations each registration package (1..6) is paid to. */
const depthByPackage: Record<number, number> = { 1: 3, 2: 4, 3: 6, 4: 8, 5: 10, 6: 10 };

/** name, code */
const serviceProviders: Array<[string, string]> = [
  ['MTN Nigeria', 'mtn'],
  ['Airtel Nigeria', 'airtel'],
  ['Ikeja Electric', 'ikeja-electric'],
  ['DStv', 'dstv'],
];
/** provider code, service, name, price ₦ */
const productServices: Array<[string, string, string, number]> = [
  ['mtn', 'airtime', 'MTN airtime ₦500', 500],
  ['mtn', 'data', 'MTN data 1.5 GB, 30 days', 1_200],
  ['airtel', 'airtime', 'Airtel airtime ₦1,000', 1_000],
  ['ikeja-electric', 'electricity', 'Ikeja Electric prepaid token ₦5,000', 5_000],
  ['dstv', 'cable', 'DStv Compact, one month', 15_700],
];

export async function seedDemoCatalogue(trx: Transaction<Database>, metadata: EventMetadata): Promise<void> {
  for (const [rankId, incentive, worth] of incentives) {
    await createIncentive(trx, { rank_id: rankId, incentive, worth_kobo: nairaToKobo(worth), file_path: null }, metadata);
  }
  for (const [name, registration, rebate, pickup, level] of stockistPackages) {
    const fields = { name, registration_value_kobo: nairaToKobo(registration), sales_bonus_percentage: rebate, pickup_amount_kobo: nairaToKobo(pickup), point_value: 1, value: level };
    await defineEntry(trx, catalogueKinds.stockistPackage, fields, metadata);
  }
  for (const [name, description, price, points] of products) {
    await defineEntry(trx, catalogueKinds.product, { name, description, image: null, worth_kobo: nairaToKobo(price), points, is_active: true }, metadata);
  }
  for (const [bank_name, bank_account_name, bank_account_number] of companyBanks) {
    await defineEntry(trx, catalogueKinds.companyBank, { bank_name, bank_account_name, bank_account_number }, metadata);
  }
  await seedBonusGenerationTables(trx, metadata);
  const providerIds = new Map<string, number>();
  for (const [name, code] of serviceProviders) {
    providerIds.set(code, await defineEntry(trx, catalogueKinds.serviceProvider, { name, code, is_active: true }, metadata));
  }
  for (const [code, service, name, price] of productServices) {
    await createProductService(trx, { service_provider_id: providerIds.get(code)!, service, name, amount_kobo: nairaToKobo(price), is_active: true }, metadata);
  }
}

/** The four bonus generation tables (part of the compensation plan every company starts with). */
export async function seedBonusGenerationTables(trx: Transaction<Database>, metadata: EventMetadata): Promise<void> {
  for (const [kind, percentages] of Object.entries(generationTables) as Array<[BonusTableKind, number[]]>) {
    for (const [packageId, depth] of Object.entries(depthByPackage)) {
      const row = Object.fromEntries(GENERATIONS.map((g) => [generationField(g), g <= depth ? percentages[g - 1]! : 0]));
      await setBonusGenerations(trx, kind, Number(packageId), row, metadata);
    }
  }
}
