// Reference data for realistic Ghanaian demo rows: names, towns and regions,
// sectors, phone prefixes, banks, card BINs and POS terminal models. Plausible,
// not authoritative: the BINs and serial formats are made up to look right.

export type NameGroup = "akan" | "ga" | "ewe" | "north";
export type MomoNetwork = "MTN" | "Telecel" | "AirtelTigo";
export type CardScheme = "VISA" | "MASTERCARD" | "GHLINK";

/** Mobile prefixes after 233 (the digit after the leading 0 of a local number). */
export const NETWORK_PREFIXES: Readonly<Record<MomoNetwork, readonly string[]>> = {
  MTN: ["24", "54", "55", "59"],
  Telecel: ["20", "50"],
  AirtelTigo: ["26", "27", "56", "57"],
};
export const MOMO_NETWORKS: readonly MomoNetwork[] = ["MTN", "Telecel", "AirtelTigo"];
/** Mobile-money market share, roughly. */
export const MOMO_SHARE: readonly (readonly [MomoNetwork, number])[] = [
  ["MTN", 68],
  ["Telecel", 20],
  ["AirtelTigo", 12],
];

export const CARD_SCHEMES: readonly CardScheme[] = ["VISA", "MASTERCARD", "GHLINK"];
export const CARD_SHARE: readonly (readonly [CardScheme, number])[] = [
  ["VISA", 55],
  ["MASTERCARD", 35],
  ["GHLINK", 10],
];
/** Six-digit BINs per scheme (Visa 4…, Mastercard 51–55 and 2-series, gh-link domestic 6…). */
export const CARD_BINS: Readonly<Record<CardScheme, readonly string[]>> = {
  VISA: ["402372", "419773", "434994", "455657", "476173", "489514", "404586", "422610"],
  MASTERCARD: ["510123", "522183", "539983", "548712", "555940", "222300", "526790"],
  GHLINK: ["639249", "639250", "627780", "606161"],
};

export interface Town {
  town: string;
  region: string;
  /** GhanaPost GPS-style district prefix for addresses. */
  gps: string;
  group: NameGroup;
  areas: readonly string[];
}

const GENERIC_AREAS = ["Central Market", "Zongo", "Station Road", "Lorry Park", "New Town", "Main Street", "Hospital Road"];

export const TOWNS: readonly Town[] = [
  {
    town: "Kumasi",
    region: "Ashanti",
    gps: "AK",
    group: "akan",
    areas: ["Adum", "Kejetia", "Asafo", "Bantama", "Suame", "Ahodwo", "Santasi", "Tafo", "Ayeduase", "Asokwa", "Atonsu", "Nhyiaeso"],
  },
  { town: "Obuasi", region: "Ashanti", gps: "AO", group: "akan", areas: ["Central Market", "Tutuka", "Gauso", "Sanso"] },
  { town: "Ejisu", region: "Ashanti", gps: "AE", group: "akan", areas: ["Ejisu Market", "Besease", "Fumesua"] },
  { town: "Konongo", region: "Ashanti", gps: "AS", group: "akan", areas: ["Konongo Market", "Zongo", "Odumasi"] },
  { town: "Mampong", region: "Ashanti", gps: "AM", group: "akan", areas: ["Mampong Market", "Daaho", "Krobo"] },
  { town: "Bekwai", region: "Ashanti", gps: "AB", group: "akan", areas: ["Bekwai Market", "Asaman", "Zongo"] },
  {
    town: "Accra",
    region: "Greater Accra",
    gps: "GA",
    group: "ga",
    areas: ["Osu", "Makola", "East Legon", "Dansoman", "Achimota", "Kaneshie", "Labone", "Airport Residential", "Circle", "Abeka", "Lapaz", "Cantonments"],
  },
  { town: "Tema", region: "Greater Accra", gps: "GT", group: "ga", areas: ["Community 1", "Community 9", "Community 25", "Tema Harbour", "Sakumono"] },
  { town: "Madina", region: "Greater Accra", gps: "GM", group: "ga", areas: ["Madina Market", "Zongo Junction", "Adenta", "Ritz Junction"] },
  { town: "Ashaiman", region: "Greater Accra", gps: "GT", group: "ga", areas: ["Ashaiman Market", "Lebanon", "Taifa"] },
  { town: "Spintex", region: "Greater Accra", gps: "GT", group: "ga", areas: ["Spintex Road", "Baatsona", "Coastal Estates"] },
  {
    town: "Tamale",
    region: "Northern",
    gps: "NT",
    group: "north",
    areas: ["Central Market", "Lamashegu", "Kalpohin", "Sakasaka", "Choggu", "Vittin", "Aboabo", "Gumani"],
  },
  { town: "Yendi", region: "Northern", gps: "NY", group: "north", areas: ["Yendi Market", "Kpabia", "Zongo"] },
  { town: "Savelugu", region: "Northern", gps: "NS", group: "north", areas: ["Savelugu Market", "Zongo"] },
  { town: "Damongo", region: "Savannah", gps: "SD", group: "north", areas: ["Damongo Market", "Canteen"] },
  { town: "Salaga", region: "Savannah", gps: "SS", group: "north", areas: ["Salaga Market", "Zongo"] },
  { town: "Walewale", region: "North East", gps: "NW", group: "north", areas: ["Walewale Market", "Station"] },
  { town: "Nalerigu", region: "North East", gps: "NN", group: "north", areas: ["Nalerigu Market", "Gambaga Road"] },
  { town: "Bolgatanga", region: "Upper East", gps: "UB", group: "north", areas: ["Bolga Market", "Zuarungu", "Soe", "Yikene"] },
  { town: "Navrongo", region: "Upper East", gps: "UN", group: "north", areas: ["Navrongo Market", "Nogsenia"] },
  { town: "Bawku", region: "Upper East", gps: "UK", group: "north", areas: ["Bawku Market", "Natinga"] },
  { town: "Wa", region: "Upper West", gps: "XW", group: "north", areas: ["Wa Central Market", "Dondoli", "Kpaguri", "Jengbeyiri"] },
  { town: "Tumu", region: "Upper West", gps: "XT", group: "north", areas: ["Tumu Market", "Zongo"] },
  { town: "Cape Coast", region: "Central", gps: "CC", group: "akan", areas: ["Kotokuraba", "Abura", "Pedu", "University Area", "London Bridge"] },
  { town: "Kasoa", region: "Central", gps: "CX", group: "akan", areas: ["Kasoa Market", "Old Barrier", "Galilea", "Millennium City"] },
  { town: "Winneba", region: "Central", gps: "CE", group: "akan", areas: ["Winneba Market", "Low Town", "North Campus"] },
  { town: "Mankessim", region: "Central", gps: "CM", group: "akan", areas: ["Mankessim Market", "Station"] },
  { town: "Takoradi", region: "Western", gps: "WS", group: "akan", areas: ["Market Circle", "Anaji", "Effiakuma", "Kwesimintsim", "Beach Road"] },
  { town: "Tarkwa", region: "Western", gps: "WT", group: "akan", areas: ["Tarkwa Market", "Cyanide", "Tamso"] },
  { town: "Sefwi Wiawso", region: "Western North", gps: "WW", group: "akan", areas: ["Wiawso Market", "Dwinase"] },
  { town: "Bibiani", region: "Western North", gps: "WB", group: "akan", areas: ["Bibiani Market", "Old Town"] },
  { town: "Koforidua", region: "Eastern", gps: "EN", group: "akan", areas: ["Koforidua Central Market", "Adweso", "Effiduase", "Betom", "Oyoko"] },
  { town: "Nkawkaw", region: "Eastern", gps: "EK", group: "akan", areas: ["Nkawkaw Market", "Zongo", "Anyinam Road"] },
  { town: "Akim Oda", region: "Eastern", gps: "EO", group: "akan", areas: ["Oda Market", "Aboabo"] },
  { town: "Nsawam", region: "Eastern", gps: "EW", group: "akan", areas: ["Nsawam Market", "Adoagyiri"] },
  { town: "Ho", region: "Volta", gps: "VH", group: "ewe", areas: ["Ho Central Market", "Bankoe", "Ahoe", "Dome", "Heve"] },
  { town: "Hohoe", region: "Volta", gps: "VO", group: "ewe", areas: ["Hohoe Market", "Gbi-Bla", "Zongo"] },
  { town: "Keta", region: "Volta", gps: "VK", group: "ewe", areas: ["Keta Market", "Vui", "Tegbi"] },
  { town: "Aflao", region: "Volta", gps: "VA", group: "ewe", areas: ["Aflao Border", "Aflao Market", "Denu"] },
  { town: "Dambai", region: "Oti", gps: "OD", group: "ewe", areas: ["Dambai Market", "Ferry Station"] },
  { town: "Nkwanta", region: "Oti", gps: "ON", group: "ewe", areas: ["Nkwanta Market"] },
  { town: "Sunyani", region: "Bono", gps: "BS", group: "akan", areas: ["Sunyani Central Market", "Penkwase", "Abesim", "Nkwabeng"] },
  { town: "Berekum", region: "Bono", gps: "BB", group: "akan", areas: ["Berekum Market", "Senase"] },
  { town: "Dormaa Ahenkro", region: "Bono", gps: "BD", group: "akan", areas: ["Dormaa Market", "Zongo"] },
  { town: "Techiman", region: "Bono East", gps: "BT", group: "akan", areas: ["Techiman Market", "Tanoso", "Krobo", "Hansua"] },
  { town: "Kintampo", region: "Bono East", gps: "BK", group: "akan", areas: ["Kintampo Market", "Lorry Station"] },
  { town: "Atebubu", region: "Bono East", gps: "BA", group: "akan", areas: ["Atebubu Market"] },
  { town: "Goaso", region: "Ahafo", gps: "RG", group: "akan", areas: ["Goaso Market", "Akrodie Road"] },
  { town: "Bechem", region: "Ahafo", gps: "RB", group: "akan", areas: ["Bechem Market"] },
];

export function townsIn(region: string): Town[] {
  return TOWNS.filter((t) => t.region === region);
}

export function areasOf(town: Town): readonly string[] {
  return town.areas.length > 0 ? town.areas : GENERIC_AREAS;
}

export const STREET_KINDS = ["Shop", "Stall", "Plot", "House No.", "Block"] as const;

export const FIRST_NAMES: Readonly<Record<NameGroup, { female: readonly string[]; male: readonly string[] }>> = {
  akan: {
    female: [
      "Ama",
      "Akua",
      "Adwoa",
      "Abena",
      "Afua",
      "Yaa",
      "Akosua",
      "Efua",
      "Esi",
      "Adjoa",
      "Araba",
      "Maame",
      "Nana Ama",
      "Gifty",
      "Comfort",
      "Patience",
      "Grace",
      "Mercy",
      "Priscilla",
      "Vida",
    ],
    male: [
      "Kwame",
      "Kofi",
      "Kwaku",
      "Yaw",
      "Kwabena",
      "Kwadwo",
      "Kwasi",
      "Kojo",
      "Kwesi",
      "Ebo",
      "Nana Kwame",
      "Emmanuel",
      "Samuel",
      "Isaac",
      "Daniel",
      "Felix",
      "Richard",
      "Benjamin",
      "Michael",
      "Stephen",
    ],
  },
  ga: {
    female: ["Naa", "Naa Adjeley", "Naa Ayeley", "Dedei", "Korkoi", "Ayele", "Adoley", "Shika", "Gifty", "Esther", "Joyce", "Mabel", "Rita", "Dora"],
    male: ["Nii", "Nii Armah", "Nii Odoi", "Tetteh", "Lartey", "Nortey", "Ashitey", "Kpakpo", "Nii Lante", "Joseph", "Ebenezer", "Francis", "George", "Eric"],
  },
  ewe: {
    female: ["Selorm", "Dzifa", "Esinam", "Elinam", "Enyonam", "Akpene", "Mawusi", "Dela", "Sena", "Edinam", "Makafui", "Yayra"],
    male: ["Edem", "Elikem", "Mawuli", "Senyo", "Kafui", "Selasi", "Delali", "Kekeli", "Etornam", "Kwami", "Worlali", "Eyram"],
  },
  north: {
    female: ["Zenabu", "Mariama", "Fatima", "Amina", "Rahinatu", "Hawa", "Fati", "Ayishetu", "Salamatu", "Memunatu", "Sakina", "Lamisi"],
    male: ["Abdul-Rahman", "Fuseini", "Mohammed", "Alhassan", "Issahaku", "Ibrahim", "Sumaila", "Abdulai", "Yakubu", "Mahama", "Iddrisu", "Awudu"],
  },
};

export const SURNAMES: Readonly<Record<NameGroup, readonly string[]>> = {
  akan: [
    "Mensah",
    "Boateng",
    "Owusu",
    "Asante",
    "Darko",
    "Osei",
    "Agyeman",
    "Appiah",
    "Amoah",
    "Ansah",
    "Opoku",
    "Frimpong",
    "Sarpong",
    "Adomako",
    "Antwi",
    "Bonsu",
    "Gyamfi",
    "Acheampong",
    "Nkrumah",
    "Ofori",
    "Asamoah",
    "Kyei",
    "Amponsah",
    "Danquah",
    "Aidoo",
    "Essien",
    "Quansah",
    "Arthur",
  ],
  ga: ["Quaye", "Tetteh", "Lamptey", "Addo", "Quartey", "Ankrah", "Nortey", "Aryee", "Odoi", "Lartey", "Armah", "Kotey", "Sowah", "Adjei", "Laryea", "Ashong"],
  ewe: ["Kpodo", "Agbeko", "Dogbe", "Amenyo", "Tsikata", "Fiawoo", "Gbeho", "Ahiadeke", "Dzokoto", "Kumah", "Agbenyega", "Adzoe", "Akpabli", "Gadzekpo"],
  north: [
    "Alhassan",
    "Iddrisu",
    "Abdulai",
    "Mahama",
    "Yakubu",
    "Issah",
    "Seidu",
    "Fuseini",
    "Salifu",
    "Abubakari",
    "Haruna",
    "Osman",
    "Zakaria",
    "Mumuni",
    "Dramani",
  ],
};

/** Prefix phrases of Ghanaian trading names, by flavour. */
export const NAME_PHRASES: Readonly<Record<NameGroup, readonly string[]>> = {
  akan: [
    "Nyame Adom",
    "Onyame Nhyira",
    "Gye Nyame",
    "Sika Mpo",
    "Adom Wura",
    "Nkabom",
    "Abundant Grace",
    "God's Grace",
    "Ebenezer",
    "Divine Favour",
    "Hope",
    "Blessed",
    "Psalm 23",
    "Owura Kwadwo",
    "Mmoa Nni Aduru",
    "Fa Wo Ho Ma Nyame",
    "Obaapa",
    "Awurade Kasa",
    "Nkunimdie",
    "Eno Adwoa",
  ],
  ga: [
    "Jehovah Jireh",
    "El-Shaddai",
    "God First",
    "Ebenezer",
    "Peace and Love",
    "Mama's Pride",
    "Divine Touch",
    "Hallelujah",
    "Glorious",
    "Auntie Dedei",
    "Nii Boye",
    "Oyarifa",
    "Hope Alive",
    "Big Joe",
    "Unity",
  ],
  ewe: ["Mawuli", "Mawunyo", "Dzidzor", "Yesu Mawu", "Akpe Na Mawu", "Elikplim", "Seyram", "Togbe", "Blessed Assurance", "Unity", "Agbenoxevi", "Mawuena"],
  north: ["Alhamdulillah", "Bismillah", "Insha Allah", "Nasara", "Tiyumba", "Naa Zangina", "Zaachi", "Al-Ameen", "Baraka", "Savanna", "Nyohini", "Sung Naa"],
};

export interface SectorProfile {
  /** Names shops of this sector give themselves ("Provisions", "Chop Bar"). */
  nouns: readonly string[];
  /** Median ticket in Ghana cedis, log-normal spread, and the largest ticket. */
  medianCedis: number;
  sigma: number;
  maxCedis: number;
  /** Share of payments by card (the rest mobile money). */
  cardShare: number;
}

export const SECTORS: Readonly<Record<string, SectorProfile>> = {
  Groceries: {
    nouns: ["Provisions", "Mini Mart", "Supermarket", "Fresh Mart", "Grocery Store", "Provision Shop"],
    medianCedis: 60,
    sigma: 0.9,
    maxCedis: 4_000,
    cardShare: 0.4,
  },
  Restaurants: {
    nouns: ["Chop Bar", "Kitchen", "Restaurant", "Waakye Joint", "Fast Food", "Eatery", "Grills"],
    medianCedis: 35,
    sigma: 0.7,
    maxCedis: 1_500,
    cardShare: 0.3,
  },
  Bakery: { nouns: ["Bakery", "Bread & Pastries", "Oven Fresh Bakery"], medianCedis: 20, sigma: 0.6, maxCedis: 600, cardShare: 0.25 },
  "Cold Store": { nouns: ["Cold Store", "Frozen Foods", "Fish & Meat Cold Store"], medianCedis: 120, sigma: 0.8, maxCedis: 6_000, cardShare: 0.3 },
  "Fruit & Vegetables": { nouns: ["Fruits & Vegetables", "Farm Fresh", "Greens"], medianCedis: 30, sigma: 0.7, maxCedis: 900, cardShare: 0.15 },
  Butchery: { nouns: ["Meat Shop", "Butchery", "Quality Meats"], medianCedis: 90, sigma: 0.7, maxCedis: 3_000, cardShare: 0.3 },
  Beverages: { nouns: ["Drinks Depot", "Beverages", "Wines & Spirits"], medianCedis: 80, sigma: 0.9, maxCedis: 6_000, cardShare: 0.35 },
  Pharmacy: { nouns: ["Pharmacy", "Chemists", "Chemical Shop", "Health Care"], medianCedis: 70, sigma: 0.9, maxCedis: 3_000, cardShare: 0.45 },
  Fuel: { nouns: ["Filling Station", "Fuel Station", "Oil Services"], medianCedis: 200, sigma: 0.7, maxCedis: 3_000, cardShare: 0.5 },
  Electronics: {
    nouns: ["Electronics", "Phones & Accessories", "Mobile World", "Digital Hub"],
    medianCedis: 800,
    sigma: 1.0,
    maxCedis: 35_000,
    cardShare: 0.6,
  },
  Fashion: { nouns: ["Fashion House", "Boutique", "Kente & Fabrics", "Collections"], medianCedis: 250, sigma: 0.9, maxCedis: 9_000, cardShare: 0.45 },
  "Hair & Beauty": { nouns: ["Beauty Salon", "Hair Salon", "Barbering Shop", "Beauty Palace"], medianCedis: 120, sigma: 0.8, maxCedis: 2_500, cardShare: 0.3 },
  Hardware: { nouns: ["Hardware", "Building Materials", "Cement & Iron Rods"], medianCedis: 400, sigma: 1.1, maxCedis: 45_000, cardShare: 0.4 },
  Transport: { nouns: ["Transport Services", "Travel & Tours", "Logistics"], medianCedis: 60, sigma: 0.8, maxCedis: 1_500, cardShare: 0.2 },
  Hospitality: { nouns: ["Hotel", "Guest House", "Lodge"], medianCedis: 400, sigma: 0.9, maxCedis: 12_000, cardShare: 0.65 },
  "Shea Butter": { nouns: ["Shea Butter", "Shea Processing", "Shea Women's Group"], medianCedis: 300, sigma: 1.0, maxCedis: 20_000, cardShare: 0.15 },
  "Agro Inputs": { nouns: ["Agro Inputs", "Agro Chemicals", "Farm Centre"], medianCedis: 500, sigma: 1.0, maxCedis: 40_000, cardShare: 0.2 },
  Grains: { nouns: ["Grains", "Maize & Soya Traders", "Rice Mill"], medianCedis: 600, sigma: 1.1, maxCedis: 50_000, cardShare: 0.15 },
  Cosmetics: { nouns: ["Cosmetics", "Natural Skincare", "Beauty Products"], medianCedis: 80, sigma: 0.8, maxCedis: 2_000, cardShare: 0.3 },
  Livestock: { nouns: ["Livestock", "Poultry Farm", "Cattle Traders"], medianCedis: 1_500, sigma: 0.9, maxCedis: 60_000, cardShare: 0.1 },
};

export const BANKS: readonly (readonly [string, number])[] = [
  ["GCB Bank", 18],
  ["Ecobank Ghana", 14],
  ["Stanbic Bank Ghana", 10],
  ["Fidelity Bank Ghana", 10],
  ["CalBank", 8],
  ["Absa Bank Ghana", 9],
  ["Zenith Bank Ghana", 6],
  ["Access Bank Ghana", 6],
  ["Republic Bank Ghana", 4],
  ["Agricultural Development Bank", 6],
  ["Consolidated Bank Ghana", 5],
  ["Standard Chartered Bank Ghana", 4],
];

export interface PosDevice {
  model: string;
  weight: number;
  serial: (digits: (n: number) => string, letter: () => string) => string;
  versions: readonly (readonly [string, number])[];
}

export const POS_DEVICES: readonly PosDevice[] = [
  {
    model: "PAX A920",
    weight: 28,
    serial: (d) => `0820${d(6)}`,
    versions: [
      ["PayDroid 7.1 / 3.12.4", 2],
      ["PayDroid 7.1 / 3.14.0", 5],
      ["PayDroid 7.1 / 3.14.2", 8],
    ],
  },
  {
    model: "PAX A920 Pro",
    weight: 10,
    serial: (d) => `1850${d(6)}`,
    versions: [
      ["PayDroid 10 / 4.2.1", 3],
      ["PayDroid 10 / 4.3.0", 6],
    ],
  },
  {
    model: "PAX A80",
    weight: 14,
    serial: (d) => `1240${d(6)}`,
    versions: [
      ["Prolin 2.6.33 / 2.8.5", 3],
      ["Prolin 2.6.33 / 2.9.1", 6],
    ],
  },
  {
    model: "Sunmi P2",
    weight: 14,
    serial: (d, l) => `P2${l()}${l()}${d(2)}${l()}${d(6)}`,
    versions: [
      ["SUNMI OS 2.1.5", 3],
      ["SUNMI OS 2.3.0", 6],
    ],
  },
  {
    model: "Sunmi P2 Pro",
    weight: 6,
    serial: (d, l) => `P2P${l()}${d(2)}${l()}${d(6)}`,
    versions: [
      ["SUNMI OS 3.0.2", 4],
      ["SUNMI OS 3.1.1", 5],
    ],
  },
  {
    model: "Verifone V240m",
    weight: 16,
    serial: (d) => `${d(3)}-${d(3)}-${d(3)}`,
    versions: [
      ["VOS2 3.14.2", 3],
      ["VOS2 3.16.0", 6],
      ["VOS2 3.16.1", 4],
    ],
  },
  {
    model: "Ingenico Move/5000",
    weight: 12,
    serial: (d) => `${d(5)}PP${d(8)}`,
    versions: [
      ["Telium Tetra 11.16.05", 4],
      ["Telium Tetra 12.02.01", 5],
    ],
  },
];

export const SERIAL_LETTERS = "ABCDEFGHJKLMNPRSTUVWXYZ";
