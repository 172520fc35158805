// Who and what the seed writes. The sign-in identities are DESIGN section 8
// exactly; tests and people trying the product rely on them.

export type Role = "Super Administrator" | "Administrator" | "Operations" | "Finance" | "Viewer";
export type SeedSize = "tiny" | "demo" | "large";
export const SEED_SIZES: readonly SeedSize[] = ["tiny", "demo", "large"];

export interface SeedBusiness {
  id: string;
  name: string;
  identifier: string;
  contactNumber: string;
  contactEmail: string;
  town: string;
  region: string;
  sector: string;
  sizes: readonly SeedSize[];
}

export interface SeedUser {
  id: string;
  email: string;
  name: string;
  gender: "female" | "male";
  phones: readonly string[];
  roles: Readonly<Record<string, Role>>;
  sizes: readonly SeedSize[];
}

const ALL: readonly SeedSize[] = ["tiny", "demo", "large"];
// `large` is `demo` with more of everything: the same businesses and people.
const DEMO: readonly SeedSize[] = ["demo", "large"];

export const KUMASI_FRESH_FOODS = "bus_kumasi_fresh_foods";
export const ACCRA_MOBILE_PAY = "bus_accra_mobile_pay";
export const TAMALE_SHEA = "bus_tamale_shea_collective";

export const BUSINESSES: readonly SeedBusiness[] = [
  {
    id: KUMASI_FRESH_FOODS,
    name: "Kumasi Fresh Foods",
    identifier: "GH-BUS-100231",
    contactNumber: "233322045120",
    contactEmail: "accounts@kumasifreshfoods.example.com",
    town: "Kumasi",
    region: "Ashanti",
    sector: "Groceries",
    sizes: ALL,
  },
  {
    id: ACCRA_MOBILE_PAY,
    name: "Accra Mobile Pay",
    identifier: "GH-BUS-100477",
    contactNumber: "233302761904",
    contactEmail: "ops@accramobilepay.example.com",
    town: "Accra",
    region: "Greater Accra",
    sector: "Payments",
    sizes: ALL,
  },
  {
    id: TAMALE_SHEA,
    name: "Tamale Shea Collective",
    identifier: "GH-BUS-100912",
    contactNumber: "233372022871",
    contactEmail: "hello@tamaleshea.example.com",
    town: "Tamale",
    region: "Northern",
    sector: "Agriculture",
    sizes: DEMO,
  },
];

export const USERS: readonly SeedUser[] = [
  {
    id: "usr_ama_mensah",
    email: "ama.mensah@example.com",
    name: "Ama Mensah",
    gender: "female",
    phones: ["233244123456", "233209876543"],
    roles: { [KUMASI_FRESH_FOODS]: "Super Administrator", [ACCRA_MOBILE_PAY]: "Administrator" },
    sizes: ALL,
  },
  {
    id: "usr_kofi_boateng",
    email: "kofi.boateng@example.com",
    name: "Kofi Boateng",
    gender: "male",
    phones: ["233244556677"],
    roles: { [KUMASI_FRESH_FOODS]: "Administrator" },
    sizes: ALL,
  },
  {
    id: "usr_esi_owusu",
    email: "esi.owusu@example.com",
    name: "Esi Owusu",
    gender: "female",
    phones: ["233201112223"],
    roles: { [KUMASI_FRESH_FOODS]: "Operations" },
    sizes: ALL,
  },
  {
    id: "usr_yaw_asante",
    email: "yaw.asante@example.com",
    name: "Yaw Asante",
    gender: "male",
    phones: ["233277001122"],
    roles: { [ACCRA_MOBILE_PAY]: "Viewer" },
    sizes: ALL,
  },
  {
    id: "usr_abena_darko",
    email: "abena.darko@example.com",
    name: "Abena Darko",
    gender: "female",
    phones: ["233554443332"],
    roles: { [KUMASI_FRESH_FOODS]: "Finance" },
    sizes: ALL,
  },
  {
    id: "usr_fuseini_alhassan",
    email: "fuseini.alhassan@example.com",
    name: "Fuseini Alhassan",
    gender: "male",
    phones: ["233245901233"],
    roles: { [TAMALE_SHEA]: "Super Administrator" },
    sizes: DEMO,
  },
  {
    id: "usr_akosua_frimpong",
    email: "akosua.frimpong@example.com",
    name: "Akosua Frimpong",
    gender: "female",
    phones: ["233506781234"],
    roles: { [ACCRA_MOBILE_PAY]: "Operations" },
    sizes: DEMO,
  },
  {
    // Not a DESIGN section 8 identity: the employee whose role change waits for approval.
    id: "usr_kwabena_osei",
    email: "kwabena.osei@example.com",
    name: "Kwabena Osei",
    gender: "male",
    phones: ["233245550123"],
    roles: { [KUMASI_FRESH_FOODS]: "Viewer" },
    sizes: DEMO,
  },
  {
    // Not a DESIGN section 8 identity: a name written in Akan letters, on the Team tab.
    id: "usr_nyamekye_opare",
    email: "nyamekye.opare@example.com",
    name: "Nyamekyɛ Ɔpare",
    gender: "female",
    phones: ["233244778120"],
    roles: { [ACCRA_MOBILE_PAY]: "Finance" },
    sizes: DEMO,
  },
];
