// Every kind of platform request and its spec (functions/operators/requests.ts): the one list the request pages and
// the engine read, so a kind without a spec cannot be asked for, shown or decided.
import type { PlatformRequestKind } from "./requests.db";
import type { PlatformKindSpec } from "./requests";
import { LIFECYCLE_SPECS } from "./lifecycle";
import { ONBOARDING_SPEC } from "./onboarding";
import { OPERATION_SPECS } from "./operations";

export const PLATFORM_SPECS: Readonly<Partial<Record<PlatformRequestKind, PlatformKindSpec>>> = {
  onboard_business: ONBOARDING_SPEC,
  ...LIFECYCLE_SPECS,
  ...OPERATION_SPECS,
};
