// Test mode (decision 045): every business may have a test business beside it, on the same database, whose id is the
// live business's id and "~test". Every record of the portal is kept under one business id and every query reads one
// (decision 004), so test data never reaches a live list, balance, settlement, report or webhook: not by a filter that
// could be forgotten, but because it is another business. What differs in test mode is decided from the id alone:
//  - the people and their roles are the live business's (the guard reads the live membership);
//  - its API keys are pp_test_ keys and a pp_test_ key acts only for a test business;
//  - its payouts and refunds go to the simulated rails, whatever rail the deployment pays with;
//  - the platform's screens and the platform keys never see it ("~" is not in a business id a platform key may name).

export const TEST_SUFFIX = "~test";

/** The test business of a live business. */
export function testBusinessOf(liveBusinessId: string): string {
  return isTestBusiness(liveBusinessId) ? liveBusinessId : `${liveBusinessId}${TEST_SUFFIX}`;
}

export function isTestBusiness(businessId: string): boolean {
  return businessId.endsWith(TEST_SUFFIX);
}

/** The live business a business id belongs to: itself, or the one a test business is the test data of. */
export function liveBusinessOf(businessId: string): string {
  return isTestBusiness(businessId) ? businessId.slice(0, -TEST_SUFFIX.length) : businessId;
}

/** Which kind of API key a business makes and takes: pp_live_ for a live business, pp_test_ for a test one, on every deployment. */
export function keyModeOf(businessId: string): "live" | "test" {
  return isTestBusiness(businessId) ? "test" : "live";
}
