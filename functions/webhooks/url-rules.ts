// Where a webhook may be sent. Pure, so the form, the data
// layer and the sender (again, at every delivery) apply the same rules.
//
// Allowed: https URLs to a public host name or a public address. In development
// (ENVIRONMENT=development) only, also http or https to the host `localhost`.
// Refused: anything else, userinfo in the URL, names that only mean something on
// a private network (localhost, *.local, *.internal, ...; one-label names), and
// every address that is not publicly routable: loopback, private, shared
// (carrier-grade NAT), link-local, unspecified, multicast, reserved and
// documentation ranges, IPv4 and IPv6, including IPv4 embedded in IPv6
// (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96 and 6to4 2002::/16).
// The WHATWG URL parser turns every IPv4 spelling (0x7f.1, 2130706433, 0177.0.0.1)
// into dotted decimal first, so the ranges see the address the request would go to.
// A public name that resolves to a private address is not caught here: Workers
// cannot resolve names, and Cloudflare's edge does not connect to private networks.

export type WebhookEnvironment = "development" | "test" | "production";

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_WEBHOOK_URL_LENGTH = 2000;

const PRIVATE_SUFFIXES = ["localhost", "local", "internal", "localdomain", "home.arpa", "lan", "intranet", "private", "corp", "home"];

// [first address as a 32-bit number, prefix length]
const FORBIDDEN_V4: [string, number][] = [
  ["0.0.0.0", 8], // "this network", including 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255
];

function v4Number(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = value * 256 + Number(part);
  }
  return value;
}

function inV4Range(value: number, base: string, prefix: number): boolean {
  const size = 2 ** (32 - prefix);
  const start = v4Number(base)!;
  return value >= start && value < start + size;
}

/** True when the dotted-decimal IPv4 address is not publicly routable. */
export function isForbiddenIPv4(address: string): boolean {
  const value = v4Number(address);
  if (value === null) return true;
  return FORBIDDEN_V4.some(([base, prefix]) => inV4Range(value, base, prefix));
}

/** The eight 16-bit groups of an IPv6 address (no brackets); null when it is not one. */
export function parseIPv6(address: string): number[] | null {
  let text = address.toLowerCase();
  if (text.includes("%")) return null; // zone ids: link-local by definition
  // A trailing dotted IPv4 part stands for the last two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const value = v4Number(v4[1]!);
    if (value === null) return null;
    text = `${text.slice(0, -v4[1]!.length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (half: string) => (half === "" ? [] : half.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (all.some((group) => !/^[0-9a-f]{1,4}$/.test(group))) return null;
  return all.map((group) => parseInt(group, 16));
}

function embeddedV4(groups: number[]): string {
  const [a, b] = [groups[6]!, groups[7]!];
  return `${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`;
}

/** True when the IPv6 address (no brackets) is not publicly routable, or carries an IPv4 address that is not. */
export function isForbiddenIPv6(address: string): boolean {
  const g = parseIPv6(address);
  if (!g) return true;
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  // ::/96 (unspecified ::, loopback ::1, IPv4-compatible) and ::ffff:0:0/96 (IPv4-mapped): always refused,
  // a public receiver has a plain IPv4 address for these.
  if (zeros(0, 6)) return true;
  if (zeros(0, 5) && g[5] === 0xffff) return true;
  // ::ffff:0:a.b.c.d (IPv4-translated)
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return true;
  // NAT64 64:ff9b::/96 and 64:ff9b:1::/48 carry an IPv4 address: judge it.
  if (g[0] === 0x64 && g[1] === 0xff9b) return isForbiddenIPv4(embeddedV4(g)) || g[2] === 1;
  // 6to4 2002::/16: the IPv4 address is in groups 1 and 2.
  if (g[0] === 0x2002) return isForbiddenIPv4(`${g[1]! >> 8}.${g[1]! & 255}.${g[2]! >> 8}.${g[2]! & 255}`);
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return true; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return true; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return true; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return true; // ff00::/8 multicast
  if (first === 0x2001 && g[1] === 0x0db8) return true; // 2001:db8::/32 documentation
  if (first === 0x0100 && zeros(1, 4)) return true; // 100::/64 discard
  if (first === 0x2001 && g[1]! < 0x200) return true; // 2001::/23 IETF protocol assignments (Teredo, ...)
  return false;
}

function isLocalhostName(host: string): boolean {
  return host === "localhost";
}

const PRIVATE_ADDRESS = "The URL must not point to a private, loopback or link-local address.";

/** Why a host (lower case, no trailing dot) may not receive webhooks; null when it may. */
function hostRefusal(host: string): string | null {
  if (host.startsWith("[")) return isForbiddenIPv6(host.slice(1, -1)) ? PRIVATE_ADDRESS : null;
  if (/^[\d.]+$/.test(host)) return isForbiddenIPv4(host) ? PRIVATE_ADDRESS : null;
  const labels = host.split(".");
  if (labels.length < 2 || labels.some((label) => label === "")) return "The URL must name a public host (a domain name).";
  if (PRIVATE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) return "The URL must name a public host, not a local or internal one.";
  return null;
}

/**
 * Checks a webhook URL for `environment`; on success gives it back normalised
 * (as the URL parser writes it), which is what is stored and fetched.
 */
export function checkWebhookUrl(input: string, environment: WebhookEnvironment): UrlVerdict {
  const text = input.trim();
  if (text.length === 0) return { ok: false, reason: "Enter the URL of the endpoint." };
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return { ok: false, reason: `Keep the URL under ${MAX_WEBHOOK_URL_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: "Enter a full URL, starting with https://." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "The URL must start with https://." };
  if (url.username !== "" || url.password !== "" || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(text)) {
    return { ok: false, reason: "The URL must not contain a user name or password." };
  }
  // A trailing dot names the same host.
  const host = url.hostname.toLowerCase().replace(/\.+$/, "");
  if (host === "") return { ok: false, reason: "The URL must name a host." };
  const development = environment === "development";
  if (isLocalhostName(host) && development) return { ok: true, url: url.href };
  const hostProblem = hostRefusal(host);
  if (hostProblem) return { ok: false, reason: hostProblem };
  if (url.protocol === "http:") {
    return { ok: false, reason: development ? "Use https://, or http://localhost while developing." : "The URL must start with https://." };
  }
  return { ok: true, url: url.href };
}
