// /platform/businesses/new through the built Worker (decision 039): a Platform Administrator asks to onboard a business,
// another approves it under the platform's fresh check, and only then does the business exist: on the directory, on
// the shard with the fewest businesses (or the chosen one), with its first two people, a Super Administrator and an
// Administrator, who sign in and find an empty business that works: one asks for a merchant, the other approves it.
// A business's people do not find the page; Platform Support may not ask; bad input (the second person missing, or
// the first one typed twice), an identifier in use and a logo that is not a picture (by its bytes) are refused with
// nothing written.
import { beforeAll, describe, expect, it } from "vitest";
import { actionDataOf, textOf } from "../support/html";
import { EFUA, KWAME, ADJOA, makeStaff, type StaffMember } from "../support/platform";
import { mintSession, signedInCookie } from "../support/sign-in";
import { sendChecked } from "../support/fresh-check";
import { KUMASI } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const PAGE = "/platform/businesses/new";
const KOFI = "kofi.boateng@example.com";
const YAA: StaffMember = { email: "yaa.boakye@platform.example.com", name: "Yaa Boakye", phone: "233245100004", role: "Platform Administrator" };

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1]);
const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const EXE = Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00]);

type Logo = { name: string; bytes: Uint8Array; type: string };

let identifiers = 0;
/** A registration number no other test of the file uses. */
const newIdentifier = () => `CS${String(700_000_000 + ++identifiers * 7919).padStart(9, "0")}`;

function fields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    name: "Tamale Shea Ɛkuo Cooperative Ltd",
    trading_name: "Ɔdɔ Ŋkɔ Shea 🌰",
    identifier: newIdentifier(),
    sector: "Agriculture",
    town: "Tamale",
    region: "Northern",
    contact_number: "037 202 2345",
    contact_email: "Hello@TamaleShea.example.com",
    shard: "fewest",
    admin_name: "Abena Ɛsi Nkrumah",
    admin_email: `abena.${identifiers}@tamaleshea.example.com`,
    admin_phone: "024 555 0101",
    second_name: "Kwabena Ŋmɛ Osei 🙂",
    second_email: `kwabena.${identifiers}@tamaleshea.example.com`,
    second_phone: "020 555 0202",
    ...overrides,
  };
}

/** Sends the form as a browser does: multipart, its boundary in the Content-Type, its length declared. */
async function ask(email: string, form: Record<string, string>, logo?: Logo, businessId: string | null = null): Promise<Response> {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  if (logo) body.set("logo", new File([logo.bytes as Uint8Array<ArrayBuffer>], logo.name, { type: logo.type }));
  const encoded = new Request(portal().url, { method: "POST", body });
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  return portal().fetch(PAGE, {
    method: "POST",
    redirect: "manual",
    headers: {
      ...(await signedInCookie(portal(), email, businessId)),
      Origin: portal().url,
      "Sec-Fetch-Site": "same-origin",
      "Content-Type": encoded.headers.get("Content-Type")!,
      "Content-Length": String(bytes.byteLength),
    },
    body: bytes,
  });
}

/** Asks and follows to the request: its id and the id the business will have. */
async function asked(form: Record<string, string>, logo?: Logo): Promise<{ requestId: string; businessId: string }> {
  const answer = await ask(EFUA.email, form, logo);
  expect(answer.status, await answer.clone().text()).toBe(302);
  const requestId = /^\/platform\/requests\/(preq_[0-9a-f-]+)$/.exec(answer.headers.get("Location") ?? "")?.[1];
  expect(requestId).toBeDefined();
  const row = await portal().core().prepare("SELECT subject_id FROM platform_requests WHERE id = ?").bind(requestId).first<{ subject_id: string }>();
  return { requestId: requestId!, businessId: row!.subject_id };
}

async function decide(email: string, requestId: string, intent = "approve"): Promise<Response> {
  const cookie = await signedInCookie(portal(), email, null);
  return sendChecked(portal().core(), cookie, () =>
    portal().fetch(`/platform/requests/${requestId}`, {
      method: "POST",
      redirect: "manual",
      headers: { ...cookie, Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent }).toString(),
    }),
  );
}

const errorsOf = (html: string) => (actionDataOf(html)["routes/platform.businesses.new"] as { errors: Record<string, string> }).errors;

const count = async (db: D1Database, sql: string, ...binds: unknown[]) =>
  (await db
    .prepare(sql)
    .bind(...binds)
    .first<number>("n")) ?? 0;
const requestCount = () => count(portal().core(), "SELECT count(*) AS n FROM platform_requests WHERE kind = 'onboard_business'");
const logoCount = async () => (await (await portal().evidence()).keys("logos/")).length;

/** The shard the directory holds the fewest businesses on (the first by name on a tie). */
async function fewestShard(): Promise<string> {
  const { results } = await portal().core().prepare("SELECT shard, count(*) AS n FROM business_shards GROUP BY shard").all<{ shard: string; n: number }>();
  const counts = new Map(results.map((r) => [r.shard, r.n]));
  return ["SHARD_A", "SHARD_B"].sort((a, b) => (counts.get(a) ?? 0) - (counts.get(b) ?? 0) || a.localeCompare(b))[0]!;
}

beforeAll(async () => {
  for (const member of [EFUA, KWAME, ADJOA, YAA]) await makeStaff(portal().core(), member);
});

describe("who may ask to onboard a business", () => {
  it("answers a business's person 404 for the page and the post, as for a page that does not exist", async () => {
    const cookie = await signedInCookie(portal(), KOFI, KUMASI);
    expect((await portal().fetch(PAGE, { headers: cookie })).status).toBe(404);
    expect((await ask(KOFI, fields(), undefined, KUMASI)).status).toBe(404);
  });

  it("refuses Platform Support (403) and writes nothing", async () => {
    const before = await requestCount();
    expect((await portal().fetch(PAGE, { headers: await signedInCookie(portal(), ADJOA.email, null) })).status).toBe(403);
    expect((await ask(ADJOA.email, fields(), { name: "logo.png", bytes: PNG, type: "image/png" })).status).toBe(403);
    expect(await requestCount()).toBe(before);
    expect(await logoCount()).toBe(0);
  });

  it("shows a Platform Administrator the form and the link to it on /platform", async () => {
    const cookie = await signedInCookie(portal(), EFUA.email, null);
    const form = await portal().fetch(PAGE, { headers: cookie });
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain("<title>Onboard a Business</title>");
    expect(textOf(html)).toContain("The one with the fewest businesses");
    expect(await (await portal().fetch("/platform", { headers: cookie })).text()).toContain('href="/platform/businesses/new"');
    expect(await (await portal().fetch("/platform", { headers: await signedInCookie(portal(), ADJOA.email, null) })).text()).not.toContain(
      'href="/platform/businesses/new"',
    );
  });
});

describe("what the form refuses", () => {
  it("says every mistake by its field (400), keeps what was typed, and writes nothing", async () => {
    const before = await requestCount();
    const answer = await ask(
      EFUA.email,
      fields({ name: " ", identifier: "GH-12", contact_number: "12345", contact_email: "nobody@", admin_email: "x", admin_phone: "", region: "Mars" }),
      { name: "logo.png", bytes: PNG, type: "image/png" },
    );
    expect(answer.status).toBe(400);
    const html = await answer.text();
    const errors = errorsOf(html);
    expect(Object.keys(errors).sort()).toEqual(["admin_email", "admin_phone", "contact_email", "contact_number", "identifier", "name", "region"]);
    expect(errors.identifier).toMatch(/registration number .* or the TIN/);
    expect(errors.contact_number).toBe("Enter a Ghana phone number, like 024 412 3456 or 233244123456.");
    expect(textOf(html)).toContain("Some fields need attention");
    // What was typed comes back in the form.
    expect(html).toContain('value="Ɔdɔ Ŋkɔ Shea 🌰"');
    expect(await requestCount()).toBe(before);
    expect(await logoCount()).toBe(0);
  });

  it("requires the second person, an Administrator, by the same rules as the first (400, nothing written)", async () => {
    const before = await requestCount();
    const missing = await ask(EFUA.email, fields({ second_name: " ", second_email: "", second_phone: "" }));
    expect(missing.status).toBe(400);
    expect(errorsOf(await missing.text())).toEqual({
      second_name: "Enter the Administrator's full name.",
      second_email: "Enter the Administrator's email address.",
      second_phone: "Enter the Administrator's mobile number.",
    });
    const wrong = await ask(EFUA.email, fields({ second_email: "kwabena@", second_phone: "12345" }));
    expect(wrong.status).toBe(400);
    expect(errorsOf(await wrong.text())).toEqual({
      second_email: "Enter a valid email address, like name@company.com.",
      second_phone: "Enter a Ghana phone number, like 024 412 3456 or 233244123456.",
    });
    expect(await requestCount()).toBe(before);
  });

  it("refuses the Super Administrator's email or number for the Administrator, however it is spelled, by the Administrator's fields", async () => {
    const before = await requestCount();
    const form = fields();
    const answer = await ask(
      EFUA.email,
      // The same email in other capitals and the same number in the other spelling the phone rule reads.
      { ...form, second_email: ` ${form.admin_email!.toUpperCase()} `, second_phone: "233 24 555 0101" },
    );
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(errorsOf(html)).toEqual({
      second_email: "Enter an email of the Administrator's own: this one is the Super Administrator's.",
      second_phone: "Enter a mobile number of the Administrator's own: this one is the Super Administrator's.",
    });
    // Said along with the other fields' mistakes, not one round later.
    const both = await ask(EFUA.email, { ...form, name: "", second_email: form.admin_email!, second_phone: form.admin_phone! });
    expect(Object.keys(errorsOf(await both.text())).sort()).toEqual(["name", "second_email", "second_phone"]);
    expect(await requestCount()).toBe(before);
  });

  it("refuses an SVG and a program renamed logo.png by their content, storing nothing", async () => {
    const before = await requestCount();
    for (const logo of [
      { name: "logo.svg", bytes: SVG, type: "image/svg+xml" },
      { name: "logo.png", bytes: SVG, type: "image/png" },
      { name: "logo.png", bytes: EXE, type: "image/png" },
    ]) {
      const answer = await ask(EFUA.email, fields(), logo);
      expect(answer.status, logo.name).toBe(400);
      expect(errorsOf(await answer.text()).logo).toMatch(/not a PNG, JPEG or WebP image: its content was checked/);
    }
    const large = await ask(EFUA.email, fields(), {
      name: "logo.png",
      bytes: new Uint8Array(600 * 1024).fill(1).map((b, i) => PNG[i] ?? b),
      type: "image/png",
    });
    expect(large.status).toBe(400);
    expect(errorsOf(await large.text()).logo).toMatch(/larger than 512 KB/);
    expect(await requestCount()).toBe(before);
    expect(await logoCount()).toBe(0);
  });

  it("takes a registration number or a TIN, and refuses one another onboarding already waits with", async () => {
    const tin = "C0012345678";
    const first = await asked(fields({ identifier: " c001-234-5678 " }));
    const row = await portal()
      .core()
      .prepare("SELECT after_json ->> '$.identifier' AS identifier FROM platform_requests WHERE id = ?")
      .bind(first.requestId)
      .first();
    expect(row).toEqual({ identifier: tin });
    const again = await ask(EFUA.email, fields({ identifier: tin }));
    expect(again.status).toBe(400);
    expect(errorsOf(await again.text()).identifier).toBe("A request to onboard a business with this identifier already waits for a decision.");
    // Rejected, the identifier is free again.
    const cookie = await signedInCookie(portal(), KWAME.email, null);
    const rejected = await sendChecked(portal().core(), cookie, () =>
      portal().fetch(`/platform/requests/${first.requestId}`, {
        method: "POST",
        redirect: "manual",
        headers: { ...cookie, Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "reject", reason: "Wrong TIN" }).toString(),
      }),
    );
    expect(rejected.status).toBe(302);
    expect(await count(portal().core(), "SELECT count(*) AS n FROM businesses WHERE id = ?", first.businessId)).toBe(0);
    await asked(fields({ identifier: tin }));
  });
});

describe("asking, deciding, and the business that results", () => {
  let requestId: string;
  let businessId: string;
  let form: Record<string, string>;
  let shard: string;

  it("asks: the request waits, the logo is stored, and nothing of the business exists anywhere yet", async () => {
    shard = await fewestShard();
    form = fields();
    ({ requestId, businessId } = await asked(form, { name: "tamale.png", bytes: PNG, type: "image/png" }));
    expect(businessId).toMatch(/^bus_/);
    expect(await count(portal().core(), "SELECT count(*) AS n FROM business_shards WHERE business_id = ?", businessId)).toBe(0);
    expect(await count(portal().core(), "SELECT count(*) AS n FROM businesses WHERE id = ?", businessId)).toBe(0);
    for (const db of portal().shards()) expect(await count(db, "SELECT count(*) AS n FROM businesses WHERE id = ?", businessId)).toBe(0);
    expect(await count(portal().core(), "SELECT count(*) AS n FROM users WHERE email = ?", form.admin_email)).toBe(0);
    expect(await (await portal().evidence()).keys("logos/")).toContain(`logos/${businessId}`);
    // The page the maker lands on, and what the checker will read.
    const page = textOf(await (await portal().fetch(`/platform/requests/${requestId}`, { headers: await signedInCookie(portal(), KWAME.email, null) })).text());
    expect(page).toContain("Onboard Ɔdɔ Ŋkɔ Shea 🌰");
    expect(page).toContain("Tamale Shea Ɛkuo Cooperative Ltd");
    expect(page).toContain(`${shard} (the fewest businesses when asked)`);
    expect(page).toContain("233*****0101");
    expect(page).not.toContain("233245550101");
    // Both people, the Administrator's number masked the same way.
    expect(page).toContain("Abena Ɛsi Nkrumah");
    expect(page).toContain("Kwabena Ŋmɛ Osei 🙂");
    expect(page).toContain(form.second_email);
    expect(page).toContain("233*****0202");
    expect(page).not.toContain("233205550202");
    const audited = await portal()
      .core()
      .prepare("SELECT after_json FROM audit_log WHERE action = 'platform.request.made' AND entity_id = ?")
      .bind(requestId)
      .first<string>("after_json");
    expect(audited).toContain("233*****0202");
    expect(audited).not.toContain("233205550202");
    // Platform staff see the logo before deciding; a business's person does not.
    const logo = await portal().fetch(`/logos/${businessId}`, { headers: await signedInCookie(portal(), KWAME.email, null) });
    expect(logo.status).toBe(200);
    expect(logo.headers.get("Content-Type")).toBe("image/png");
    expect((await portal().fetch(`/logos/${businessId}`, { headers: await signedInCookie(portal(), KOFI, KUMASI) })).status).toBe(404);
  });

  it("does not let the maker approve it (403)", async () => {
    expect((await decide(EFUA.email, requestId)).status).toBe(403);
    expect(await count(portal().core(), "SELECT count(*) AS n FROM business_shards WHERE business_id = ?", businessId)).toBe(0);
  });

  it("two administrators approving at once make one business, on the shard with the fewest businesses", async () => {
    const answers = await Promise.all([decide(KWAME.email, requestId), decide(YAA.email, requestId)]);
    expect(answers.map((a) => a.status).sort()).toContain(302);
    const place = await portal().core().prepare("SELECT shard, lifecycle FROM business_shards WHERE business_id = ?").bind(businessId).first();
    expect(place).toEqual({ shard, lifecycle: "active" });
    await portal().refreshPlaces();
    const home = portal().database(shard);
    for (const db of [portal().core(), home]) {
      expect(
        await db
          .prepare("SELECT name, trading_name, identifier, contact_number, contact_email, town, region, sector, logo_url, status FROM businesses WHERE id = ?")
          .bind(businessId)
          .first(),
      ).toEqual({
        name: "Tamale Shea Ɛkuo Cooperative Ltd",
        trading_name: "Ɔdɔ Ŋkɔ Shea 🌰",
        identifier: form.identifier,
        contact_number: "233372022345",
        contact_email: "hello@tamaleshea.example.com",
        town: "Tamale",
        region: "Northern",
        sector: "Agriculture",
        logo_url: `/logos/${businessId}`,
        status: "active",
      });
      const { results: members } = await db
        .prepare("SELECT u.email, m.role, m.status FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.business_id = ? ORDER BY m.role DESC")
        .bind(businessId)
        .all();
      expect(members).toEqual([
        { email: form.admin_email, role: "Super Administrator", status: "active" },
        { email: form.second_email, role: "Administrator", status: "active" },
      ]);
      expect(await count(db, "SELECT count(*) AS n FROM users WHERE email IN (?, ?)", form.admin_email, form.second_email)).toBe(2);
    }
    const other = portal().database(shard === "SHARD_A" ? "SHARD_B" : "SHARD_A");
    expect(await count(other, "SELECT count(*) AS n FROM businesses WHERE id = ?", businessId)).toBe(0);
    expect(await count(home, "SELECT count(*) AS n FROM audit_log WHERE business_id = ? AND action = 'business.onboarded'", businessId)).toBe(1);
    expect(await count(home, "SELECT count(*) AS n FROM ledger_accounts WHERE business_id = ?", businessId)).toBe(3);
    expect(await portal().core().prepare("SELECT status FROM platform_requests WHERE id = ?").bind(requestId).first("status")).toBe("approved");
    expect(await count(portal().core(), "SELECT count(*) AS n FROM audit_log WHERE action = 'platform.request.approved' AND entity_id = ?", requestId)).toBe(1);
    // Each new person signs in with the number typed for them, under the name typed for them.
    for (const [email, name, msisdn] of [
      [form.admin_email, "Abena Ɛsi Nkrumah", "233245550101"],
      [form.second_email, "Kwabena Ŋmɛ Osei 🙂", "233205550202"],
    ]) {
      const phones = await portal()
        .core()
        .prepare("SELECT u.name, p.msisdn, p.linked_by FROM user_phones p JOIN users u ON u.id = p.user_id WHERE u.email = ?")
        .bind(email)
        .all();
      expect(phones.results).toEqual([{ name, msisdn, linked_by: "invitation" }]);
    }
  });

  it("its Super Administrator signs in and finds an empty business that works: the dashboard, no merchants, and a merchant the Administrator approves", async () => {
    const session = await mintSession(await portal().db(), portal().url, form.admin_email!, businessId);
    const cookie = { Cookie: session.cookieHeader };
    const choice = await portal().fetch("/select-business", {
      headers: { Cookie: (await mintSession(await portal().db(), portal().url, form.admin_email!, null)).cookieHeader },
    });
    expect(textOf(await choice.text())).toContain("Tamale Shea Ɛkuo Cooperative Ltd");
    const dashboard = await portal().fetch("/", { headers: cookie });
    expect(dashboard.status).toBe(200);
    const merchants = await portal().fetch("/merchants", { headers: cookie });
    expect(merchants.status).toBe(200);
    expect(textOf(await merchants.text())).toContain("No merchants yet");
    expect((await portal().fetch("/merchants/add-merchant", { headers: cookie })).status).toBe(200);
    const added = await portal().fetch("/merchants/add-merchant", {
      method: "POST",
      redirect: "manual",
      headers: { ...cookie, Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        code: "MRC-0001",
        name: "Ɛkuo Shea Butter Ltd",
        trading_name: "Ɛkuo Shea",
        tin: "C0098765432",
        sector: "Agriculture",
        town: "Tamale",
        region: "Northern",
        address: "Plot 4, Kalpohin, NT-0123-4567",
        contact_name: "Ama Ŋmɛ",
        contact_phone: "0244123457",
        contact_email: "ama@ekuo.example.com",
      }).toString(),
    });
    expect(added.status).toBe(302);
    const home = portal().database(shard);
    const asked = await home
      .prepare("SELECT id, status FROM approval_requests WHERE business_id = ? AND kind = 'merchant'")
      .bind(businessId)
      .all<{ id: string; status: string }>();
    expect(asked.results).toEqual([{ id: expect.any(String), status: "pending" }]);
    const merchantRequest = asked.results[0]!.id;
    expect((await portal().fetch(`/logos/${businessId}`, { headers: cookie })).status).toBe(200);

    // The point of the second person: the Super Administrator may not decide their own request, the Administrator may.
    const decideMerchant = async (email: string) => {
      const as = await signedInCookie(portal(), email, businessId);
      return sendChecked(portal().core(), as, () =>
        portal().fetch(`/approvals/merchant/${merchantRequest}`, {
          method: "POST",
          redirect: "manual",
          headers: { ...as, Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "approve" }).toString(),
        }),
      );
    };
    expect((await decideMerchant(form.admin_email!)).status).toBe(403);
    expect(await home.prepare("SELECT status FROM approval_requests WHERE id = ?").bind(merchantRequest).first("status")).toBe("pending");
    const approved = await decideMerchant(form.second_email!);
    expect(approved.status, await approved.clone().text()).toBe(302);
    expect(await home.prepare("SELECT status FROM approval_requests WHERE id = ?").bind(merchantRequest).first("status")).toBe("approved");
    expect(await home.prepare("SELECT name, status FROM merchants WHERE business_id = ? AND code = 'MRC-0001'").bind(businessId).first()).toEqual({
      name: "Ɛkuo Shea Butter Ltd",
      status: "active",
    });
  });

  it("both its people enter it, each in their role (the account menu says which)", async () => {
    for (const [email, role] of [
      [form.admin_email!, "Super Administrator"],
      [form.second_email!, "Administrator"],
    ] as const) {
      const cookie = { Cookie: (await mintSession(await portal().db(), portal().url, email, businessId)).cookieHeader };
      const dashboard = await portal().fetch("/", { headers: cookie });
      expect(dashboard.status, email).toBe(200);
      expect(await dashboard.text()).toContain(`<span class="menu__hint">${role}</span>`);
    }
  });

  it("refuses the identifier of a business on the platform", async () => {
    const answer = await ask(EFUA.email, fields({ identifier: form.identifier! }));
    expect(answer.status).toBe(400);
    expect(errorsOf(await answer.text()).identifier).toBe("A business on the platform already has this identifier.");
  });

  it("places on the chosen database, and makes people who already have accounts its Super Administrator and Administrator without second accounts", async () => {
    const existing = [
      { email: "yaw.asante@example.com", typed: "Yaw.Asante@example.com", phone: "0245550199", msisdn: "233245550199", role: "Super Administrator" },
      { email: "ama.mensah@example.com", typed: "AMA.Mensah@example.com", phone: "0205550198", msisdn: "233205550198", role: "Administrator" },
    ];
    const before = await Promise.all(
      existing.map(async ({ email }) => {
        const person = await portal().core().prepare("SELECT id, name FROM users WHERE email = ?").bind(email).first<{ id: string; name: string }>();
        const phones = await portal().core().prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY msisdn").bind(person!.id).all();
        return { ...person!, phones: phones.results };
      }),
    );
    const chosen = shard === "SHARD_A" ? "SHARD_B" : "SHARD_A";
    const second = await asked(
      fields({
        shard: chosen,
        admin_email: existing[0]!.typed,
        admin_name: "Someone Else",
        admin_phone: existing[0]!.phone,
        second_email: existing[1]!.typed,
        second_name: "Someone Else Too",
        second_phone: existing[1]!.phone,
        trading_name: "",
      }),
    );
    expect((await decide(KWAME.email, second.requestId)).status).toBe(302);
    expect(await portal().core().prepare("SELECT shard FROM business_shards WHERE business_id = ?").bind(second.businessId).first("shard")).toBe(chosen);
    await portal().refreshPlaces();
    for (const db of [portal().core(), portal().database(chosen)]) {
      expect(
        (await db.prepare("SELECT user_id, role FROM memberships WHERE business_id = ? ORDER BY role DESC").bind(second.businessId).all()).results,
      ).toEqual(existing.map(({ role }, i) => ({ user_id: before[i]!.id, role })));
      expect(await db.prepare("SELECT trading_name FROM businesses WHERE id = ?").bind(second.businessId).first("trading_name")).toBeNull();
    }
    for (const [i, person] of existing.entries()) {
      const { id, name, phones } = before[i]!;
      expect(await count(portal().core(), "SELECT count(*) AS n FROM users WHERE email = ?", person.email)).toBe(1);
      // Their own name and numbers (decision 029), on the core and on the business's database: the typed phone is the
      // business's contact number for them only.
      for (const db of [portal().core(), portal().database(chosen)])
        expect(await db.prepare("SELECT name FROM users WHERE id = ?").bind(id).first("name")).toBe(name);
      expect((await portal().core().prepare("SELECT msisdn FROM user_phones WHERE user_id = ? ORDER BY msisdn").bind(id).all()).results).toEqual(phones);
      expect(
        await portal()
          .database(chosen)
          .prepare("SELECT contact_phone FROM memberships WHERE business_id = ? AND user_id = ?")
          .bind(second.businessId, id)
          .first("contact_phone"),
      ).toBe(person.msisdn);
    }
  });

  it("refuses to apply a request kept before a business started with two people, and says to reject it", async () => {
    // A request of the earlier shape (one `admin`, no `people`), as a database that ran the earlier code may hold.
    const businessId = `bus_${crypto.randomUUID()}`;
    const requestId = `preq_${crypto.randomUUID()}`;
    const efua = await portal().core().prepare("SELECT id FROM users WHERE email = ?").bind(EFUA.email).first<string>("id");
    const old = {
      name: "Old Shape Ltd",
      tradingName: null,
      identifier: newIdentifier(),
      sector: "Retail",
      town: "Tamale",
      region: "Northern",
      contactNumber: "233372022345",
      contactEmail: "hello@oldshape.example.com",
      shard: "SHARD_A",
      shardChosen: true,
      adminUserId: "usr_old_shape",
      adminExisting: false,
      admin: { name: "Abena Ɛsi Nkrumah", email: "old.shape@example.com", phone: "233245550101", phoneMasked: "233*****0101" },
      logo: null,
    };
    await portal()
      .core()
      .prepare("INSERT INTO platform_requests (id, kind, subject_id, after_json, maker_id, made_at) VALUES (?, 'onboard_business', ?, ?, ?, ?)")
      .bind(requestId, businessId, JSON.stringify(old), efua, new Date().toISOString())
      .run();
    const page = textOf(await (await portal().fetch(`/platform/requests/${requestId}`, { headers: await signedInCookie(portal(), KWAME.email, null) })).text());
    expect(page).toContain("asked before a business started with two administrators");
    const answer = await decide(KWAME.email, requestId);
    expect(answer.status).toBe(400);
    expect(textOf(await answer.text())).toContain("reject it and ask again with both people");
    expect(await count(portal().core(), "SELECT count(*) AS n FROM business_shards WHERE business_id = ?", businessId)).toBe(0);
    expect(await portal().core().prepare("SELECT status FROM platform_requests WHERE id = ?").bind(requestId).first("status")).toBe("pending");
  });
});
