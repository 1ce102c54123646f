import { z } from 'zod';
import { flag, idField, nairaAmount, optionalText, percentage, priceAmount, requiredText, wholeNumber } from './fields';

/**
 * The catalogue as the portal API shows it and takes it (seed 002 §3, §7): money in naira.
 * Create bodies hold every field; update bodies are the same fields, each optional (a field left
 * out keeps its value). Multipart forms (incentives, products) are parsed with these schemas too.
 */

export const catalogueMessages = {
  packageCreated: 'Package created successfully',
  packageUpdated: 'Package updated successfully',
  rankCreated: 'Rank created successfully',
  rankUpdated: 'Rank updated successfully',
  incentiveCreated: 'Incentive created successfully',
  incentiveUpdated: 'Incentive updated successfully',
  productCreated: 'Product created successfully',
  productUpdated: 'Product updated successfully',
  productEnabled: 'Product enabled successfully',
  productDisabled: 'Product disabled successfully',
  bankCreated: 'Bank created successfully',
  bankUpdated: 'Bank updated successfully',
  bankDeleted: 'Bank deleted successfully',
  stockistPackageCreated: 'Stockist package created successfully',
  stockistPackageUpdated: 'Stockist package updated successfully',
  serviceProviderCreated: 'Service provider created successfully',
  serviceProviderUpdated: 'Service provider updated successfully',
  productServiceCreated: 'Product service created successfully',
  productServiceUpdated: 'Product service updated successfully',
  packageRequired: 'Package required',
  rankHasIncentive: 'This rank already has an incentive; edit that one instead.',
  packageInvalid: 'The selected package is invalid.',
  rankInvalid: 'The selected rank is invalid.',
  serviceProviderInvalid: 'The selected service provider is invalid.',
} as const;

// ---- registration packages ----------------------------------------------------------------

export const registrationPackage = z.object({
  id: z.number(),
  name: z.string(),
  point_value: z.number(),
  registration_value: z.number(),
  pickup_amount: z.number(),
  matching_bonus_cap: z.number(),
});
export type RegistrationPackage = z.infer<typeof registrationPackage>;

const packageFields = {
  name: requiredText('name'),
  point_value: wholeNumber('point value'),
  /** At least ₦1: a ₦0 package would activate without a payment. */
  registration_value: priceAmount('registration value'),
  pickup_amount: nairaAmount('product pickup amount'),
  matching_bonus_cap: nairaAmount('matching bonus cap'),
};
/** The edit form defaults pickup_amount and matching_bonus_cap to 0 (seed 002 §3). */
export const packageCreateBody = z.object({ ...packageFields, pickup_amount: packageFields.pickup_amount.default(0), matching_bonus_cap: packageFields.matching_bonus_cap.default(0) });
export const packageUpdateBody = z.object(packageFields).partial();
export type PackageCreateBody = z.input<typeof packageCreateBody>;

// ---- ranks --------------------------------------------------------------------------------

export const rank = z.object({
  id: z.number(),
  name: z.string(),
  points: z.number(),
  /** 1 or 0, shown as Eligible or Not-Eligible. */
  is_global_profit_eligible: z.union([z.literal(0), z.literal(1)]),
  description: z.string(),
  /** The minimum registration package id (the edit form sends it as package_id). */
  package: z.number(),
  package_id: z.number(),
  package_name: z.string().nullable(),
});
export type Rank = z.infer<typeof rank>;

const rankFields = {
  name: requiredText('name'),
  points: wholeNumber('points'),
  is_global_profit_eligible: flag('global profit eligibility'),
  description: optionalText('description', 1000),
  package_id: idField(catalogueMessages.packageRequired),
};
export const rankCreateBody = z.object({ ...rankFields, description: rankFields.description.default('') });
/** The edit form sends every field; the package must be there (seed 002 §5 'Package required'). */
export const rankUpdateBody = z.object(rankFields).partial().extend({ package_id: rankFields.package_id });
export type RankCreateBody = z.input<typeof rankCreateBody>;

/** GET /ranks/current-rank-badge/{rankId}: the rank and its badge image (its incentive's image). */
export const rankBadge = z.object({ id: z.number(), name: z.string(), points: z.number(), file_path: z.string().nullable() });

// ---- incentives ---------------------------------------------------------------------------

export const incentive = z.object({
  id: z.number(),
  /** The rank's name. */
  name: z.string(),
  /** The rank's points: the cumulated point value (CPV) that earns it. */
  points: z.number(),
  incentive: z.string(),
  /** Cash equivalent, naira. */
  worth: z.number(),
  file_path: z.string().nullable(),
  rank_id: z.number(),
});
export type Incentive = z.infer<typeof incentive>;

/** Multipart text fields; the optional image comes as the file field `file_path`. */
const incentiveFields = {
  rank_id: idField('The rank field is required.', catalogueMessages.rankInvalid),
  incentive: requiredText('incentive'),
  worth: nairaAmount('worth'),
};
export const incentiveCreateFields = z.object(incentiveFields);
export const incentiveUpdateFields = z.object(incentiveFields).partial();

// ---- company bank accounts ----------------------------------------------------------------

export const companyBank = z.object({ id: z.number(), bank_name: z.string(), bank_account_name: z.string(), bank_account_number: z.string() });
export type CompanyBank = z.infer<typeof companyBank>;

const companyBankFields = {
  bank_name: requiredText('bank name'),
  bank_account_name: requiredText('account name'),
  bank_account_number: requiredText('account number').regex(/^\d{10}$/, 'The account number must be 10 digits.'),
};
export const companyBankCreateBody = z.object(companyBankFields);
export const companyBankUpdateBody = z.object(companyBankFields).partial();

// ---- stockist packages --------------------------------------------------------------------

export const stockistPackage = z.object({
  id: z.number(),
  name: z.string(),
  registration_value: z.number(),
  /** The stockist's rebate on the pick-up orders they approve (shown as Rebate). */
  sales_bonus_percentage: z.number(),
  pickup_amount: z.number(),
  point_value: z.number(),
  /** The package's level: packages are listed by it, and an upgrade goes to a higher one. */
  value: z.number(),
});
export type StockistPackage = z.infer<typeof stockistPackage>;

const stockistPackageFields = {
  name: requiredText('name'),
  registration_value: priceAmount('registration value'),
  sales_bonus_percentage: percentage('rebate percentage'),
  pickup_amount: nairaAmount('pickup amount'),
  point_value: wholeNumber('point value'),
  value: wholeNumber('value'),
};
export const stockistPackageCreateBody = z.object({ ...stockistPackageFields, point_value: stockistPackageFields.point_value.default(1), value: stockistPackageFields.value.default(0) });
export const stockistPackageUpdateBody = z.object(stockistPackageFields).partial();

// ---- products -----------------------------------------------------------------------------

export const product = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  image: z.string().nullable(),
  /** Price, naira. */
  worth: z.number(),
  is_active: z.boolean(),
  points: z.number(),
});
export type Product = z.infer<typeof product>;

/** Multipart text fields; the optional image comes as the file field `image`. */
const productFields = {
  name: requiredText('name'),
  /** At least ₦1: a ₦0 product would be handed out of pick-up allowances for nothing. */
  worth: priceAmount('price'),
  description: optionalText('description'),
  points: wholeNumber('points'),
};
export const productCreateFields = z.object({ ...productFields, description: productFields.description.default(''), points: productFields.points.default(1) });
export const productUpdateFields = z.object(productFields).partial();
export const productToggleBody = z.object({ is_active: flag('status') });

// ---- the bill-payment catalogue -----------------------------------------------------------

/**
 * Service providers and product services: the seeds give only their paths (seed 002 §7), so they
 * are modelled as a bill-payment catalogue. A service provider is a biller (MTN, Airtel, Ikeja
 * Electric, DStv...); a product service is one thing a member can buy from it: a kind of service
 * (airtime, data, electricity, cable...), a name and a price in naira.
 */
export const serviceProvider = z.object({ id: z.number(), name: z.string(), code: z.string(), is_active: z.boolean() });
export type ServiceProvider = z.infer<typeof serviceProvider>;

const serviceProviderFields = {
  name: requiredText('name'),
  code: requiredText('code', 50).regex(/^[a-z0-9][a-z0-9_-]*$/, 'The code may only contain lowercase letters, numbers, dashes and underscores.'),
  is_active: flag('status'),
};
export const serviceProviderCreateBody = z.object({ ...serviceProviderFields, is_active: serviceProviderFields.is_active.default(true) });
export const serviceProviderUpdateBody = z.object(serviceProviderFields).partial();

export const productService = z.object({
  id: z.number(),
  service_provider_id: z.number(),
  service_provider_name: z.string().nullable(),
  service: z.string(),
  name: z.string(),
  /** Price, naira. */
  amount: z.number(),
  is_active: z.boolean(),
});
export type ProductService = z.infer<typeof productService>;

const serviceKind = requiredText('service', 50).regex(/^[a-z][a-z0-9_-]*$/, 'The service must be one lowercase word, such as airtime, data, electricity or cable.');
const productServiceFields = {
  service_provider_id: idField('The service provider field is required.', catalogueMessages.serviceProviderInvalid),
  service: serviceKind,
  name: requiredText('name'),
  amount: priceAmount('amount'),
  is_active: flag('status'),
};
export const productServiceCreateBody = z.object({ ...productServiceFields, is_active: productServiceFields.is_active.default(true) });
export const productServiceUpdateBody = z.object(productServiceFields).partial();
export const productServiceQuery = z.object({ service: serviceKind });

/** `{id}` path parameters. */
export const idParams = z.object({ id: idField('The id must be a number.', 'The id must be a whole number from 1 to 2147483647.') });

// ---- back-office bodies (ra-data-simple-rest at /api/admin, JSON) ------------------------------

/**
 * The back office sends a product's image inside the JSON body as a data URL (react-admin's
 * ImageInput read in the browser); on edit, the stored path it was given back means "keep", null
 * means "remove". The image rules are the uploads' own (≤ 500 kB, JPEG/PNG/WebP by content).
 */
const adminImage = z.string({ error: 'The image must be a file.' }).nullish();
export const adminProductCreateBody = productCreateFields.extend({ image: adminImage });
export const adminProductUpdateBody = productUpdateFields.extend({ image: adminImage, is_active: flag('status').optional() });
