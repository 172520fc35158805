// What both key screens (Settings → Developers, /platform/keys) and their server modules share: the name's length,
// and what a new key's one showing carries.

/** The longest name of a key (api_keys' and platform_keys' CHECK). */
export const KEY_NAME_MAX = 60;

/** What the page shows once after a key is made or rolled: the only time its secret leaves the Worker. */
export interface NewKey {
  name: string;
  prefix: string;
  secret: string;
  rolled: boolean;
}
