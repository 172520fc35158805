// How much the seed writes for each size, and what each business looks like.
import { ACCRA_MOBILE_PAY, KUMASI_FRESH_FOODS, TAMALE_SHEA, type SeedSize } from "./data";

// The seed's times are counted with the portal's own lengths of time.
export { DAY_MS, HOUR_MS } from "#server/plumbing/time";

export interface SizeProfile {
  /** Days of transactions before the anchor. */
  days: number;
  /** Exactly this many transactions, over all businesses. */
  transactions: number;
  /** Merchants per business (businesses of the size not listed get none). */
  merchants: Readonly<Record<string, number>>;
  /** Points of sale per merchant, and terminals per active point of sale (inclusive ranges). */
  pointsOfSale: readonly [number, number];
  terminalsPerPointOfSale: readonly [number, number];
  /** Whether it holds what the Partner API's examples name (./api-examples.ts). */
  apiExamples: boolean;
}

export const SIZE_PROFILES: Readonly<Record<SeedSize, SizeProfile>> = {
  tiny: {
    days: 30,
    transactions: 500,
    merchants: { [KUMASI_FRESH_FOODS]: 3, [ACCRA_MOBILE_PAY]: 3 },
    pointsOfSale: [2, 2],
    terminalsPerPointOfSale: [1, 2],
    apiExamples: false,
  },
  demo: {
    days: 90,
    transactions: 50_000,
    merchants: { [KUMASI_FRESH_FOODS]: 14, [ACCRA_MOBILE_PAY]: 20, [TAMALE_SHEA]: 10 },
    pointsOfSale: [1, 5],
    terminalsPerPointOfSale: [1, 3],
    apiExamples: true,
  },
  large: {
    days: 365,
    transactions: 1_000_000,
    merchants: { [KUMASI_FRESH_FOODS]: 45, [ACCRA_MOBILE_PAY]: 60, [TAMALE_SHEA]: 30 },
    pointsOfSale: [1, 7],
    terminalsPerPointOfSale: [1, 4],
    apiExamples: true,
  },
};

export interface BusinessProfile {
  /** In ids: mer_kff_0001. */
  short: string;
  /** In references: KFF-260801-0000123. */
  prefix: string;
  /** Where most of its merchants are; the rest are spread over these regions. */
  homeRegion: string;
  homeShare: number;
  otherRegions: readonly string[];
  sectors: readonly (readonly [string, number])[];
  /** Relative share of all transactions. */
  transactionShare: number;
  /** Share of primary payout accounts that are bank accounts (the rest mobile money). */
  bankShare: number;
}

export const BUSINESS_PROFILES: Readonly<Record<string, BusinessProfile>> = {
  [KUMASI_FRESH_FOODS]: {
    short: "kff",
    prefix: "KFF",
    homeRegion: "Ashanti",
    homeShare: 0.75,
    otherRegions: ["Bono", "Bono East", "Ahafo", "Eastern", "Western North", "Central"],
    sectors: [
      ["Groceries", 5],
      ["Restaurants", 4],
      ["Bakery", 2],
      ["Cold Store", 2],
      ["Fruit & Vegetables", 2],
      ["Butchery", 2],
      ["Beverages", 2],
    ],
    transactionShare: 40,
    bankShare: 0.7,
  },
  [ACCRA_MOBILE_PAY]: {
    short: "amp",
    prefix: "AMP",
    homeRegion: "Greater Accra",
    homeShare: 0.6,
    otherRegions: ["Central", "Eastern", "Volta", "Western", "Ashanti", "Oti"],
    sectors: [
      ["Groceries", 3],
      ["Pharmacy", 3],
      ["Fuel", 2],
      ["Electronics", 2],
      ["Fashion", 2],
      ["Hair & Beauty", 2],
      ["Hardware", 2],
      ["Restaurants", 3],
      ["Transport", 1],
      ["Hospitality", 1],
    ],
    transactionShare: 45,
    bankShare: 0.65,
  },
  [TAMALE_SHEA]: {
    short: "tsc",
    prefix: "TSC",
    homeRegion: "Northern",
    homeShare: 0.55,
    otherRegions: ["Upper East", "Upper West", "Savannah", "North East", "Bono East"],
    sectors: [
      ["Shea Butter", 4],
      ["Agro Inputs", 3],
      ["Grains", 3],
      ["Cosmetics", 2],
      ["Livestock", 1],
      ["Groceries", 1],
    ],
    transactionShare: 15,
    bankShare: 0.45,
  },
};

export function businessProfile(businessId: string): BusinessProfile {
  const profile = BUSINESS_PROFILES[businessId];
  if (!profile) throw new Error(`no seed profile for business ${businessId}`);
  return profile;
}

/** Relative traffic by UTC day of week (Accra is UTC all year): Sunday quiet, Friday and Saturday busy. */
export const WEEKDAY_WEIGHTS: readonly number[] = [0.55, 1.0, 0.95, 1.0, 1.02, 1.15, 1.25];

/** Relative traffic by hour of day: busy 8–20 h, peaks at lunch and after work. */
export const HOUR_WEIGHTS: readonly number[] = [
  0.15, 0.08, 0.05, 0.05, 0.08, 0.3, 0.9, 2.2, 4.2, 5.6, 6.4, 6.9, 7.6, 7.7, 6.9, 6.6, 6.8, 7.5, 7.8, 6.9, 5.2, 3.2, 1.6, 0.6,
];
/** Sundays start late (church) and peak in the afternoon. */
export const SUNDAY_HOUR_WEIGHTS: readonly number[] = [
  0.2, 0.1, 0.05, 0.05, 0.05, 0.1, 0.3, 0.8, 1.5, 2.0, 2.6, 3.4, 5.0, 6.8, 7.6, 7.8, 7.6, 7.2, 6.6, 5.6, 4.0, 2.4, 1.2, 0.5,
];

/** Status mix of payments. */
export const STATUS_SHARE = { successful: 0.92, failed: 0.06, reversed: 0.02 } as const;
/** Share of payments made at a terminal (the rest: mobile money by merchant QR or USSD code, no terminal). */
export const TERMINAL_SHARE = 0.8;
