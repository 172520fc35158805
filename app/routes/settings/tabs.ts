// The tabs of /settings (`?tab=`), shared by the route and its tab modules.
import { paths, type SettingsTab } from "#app/lib/paths";

export const TAB_LABEL: Record<SettingsTab, string> = {
  profile: "Profile",
  business: "Business",
  team: "Team",
  security: "Security",
  developers: "Developers",
  audit: "Audit",
};

export const TEAM_URL = paths.settings("team");
export const SECURITY_URL = paths.settings("security");
export const SETTINGS_BUSINESS_URL = paths.settings("business");
export const DEVELOPERS_URL = paths.settings("developers");

/** The Partner API's reference page. */
export const API_REFERENCE_URL = "/developers/api";

/** The longest name of an API key. */
export { KEY_NAME_MAX } from "#app/lib/api-keys";

export const GENDER_LABEL = {
  female: "Female",
  male: "Male",
  unspecified: "Not given",
} as const;

export const NOT_UNDERSTOOD = "That request was not understood. Reload the page and try again.";

/** The API key forms of the Developers tab (the tab tells their answers from the endpoints section's). */
export const API_KEY_INTENTS = ["create-key", "roll-key", "revoke-key"] as const;

/** The Business tab's one form: asking to change the security policy. */
export const POLICY_INTENT = "ask-security-policy";
