// /merchants/add-merchant and /merchants/:merchantId through the built Worker:
// every change is a request (nothing else is written), refused input is a 400
// with the message next to its field and no request, another business's ids are
// 404, and a role that may not ask gets 403 whatever it posts.
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { approveRequest } from "#server/approvals/approvals.db";
import { textOf } from "../support/html";
import { signedInCookie } from "../support/sign-in";
import { ACCRA, KOFI_KUMASI, KUMASI, META } from "../support/tenants";
import { usePortal } from "../support/use-portal";

const portal = usePortal();
const KOFI = "kofi.boateng@example.com";
const ESI = "esi.owusu@example.com";
const ABENA = "abena.darko@example.com";
const YAW = "yaw.asante@example.com";
const AMA = "ama.mensah@example.com";

type Cookie = { Cookie: string };

async function as(email: string, businessId = KUMASI): Promise<Cookie> {
  return signedInCookie(portal(), email, businessId);
}

function post(path: string, form: Record<string, string>, cookie: Cookie) {
  return portal().fetch(path, {
    method: "POST",
    headers: { Origin: portal().url, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/x-www-form-urlencoded", ...cookie },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
}

async function requestCount(): Promise<number> {
  return (await (await portal().db()).prepare("SELECT COUNT(*) AS n FROM approval_requests").first<number>("n")) ?? 0;
}

async function latestRequest(): Promise<{ id: string; kind: string; action: string; target_id: string; after: Record<string, unknown>; maker_id: string }> {
  const row = await (
    await portal().db()
  )
    .prepare("SELECT id, kind, action, target_id, after_json, maker_id FROM approval_requests ORDER BY made_at DESC, rowid DESC LIMIT 1")
    .first<{ id: string; kind: string; action: string; target_id: string; after_json: string; maker_id: string }>();
  return { ...row!, after: JSON.parse(row!.after_json) as Record<string, unknown> };
}

/** Posts, expects `status`, and proves no request (and no merchant or account) was written. */
async function refused(path: string, form: Record<string, string>, cookie: Cookie, status: number): Promise<string> {
  const db = await portal().db();
  const counts = async () => [
    await requestCount(),
    await db.prepare("SELECT COUNT(*) AS n FROM merchants").first<number>("n"),
    await db.prepare("SELECT COUNT(*) AS n FROM settlement_accounts").first<number>("n"),
  ];
  const before = await counts();
  const response = await post(path, form, cookie);
  expect(response.status).toBe(status);
  expect(await counts()).toEqual(before);
  return textOf(await response.text());
}

const NEW_MERCHANT = {
  code: "mrc-0100",
  name: "Bantama Cold Store Limited",
  trading_name: "Bantama Cold Store",
  tin: "c0012345678",
  sector: "Groceries",
  town: "Kumasi",
  region: "Ashanti",
  address: "Plot 4, Bantama High Street, Kumasi",
  contact_name: "Akua Frimpong",
  contact_phone: "024 412 3456",
  contact_email: " Akua@BantamaCold.example.com ",
};

describe("/merchants/add-merchant", () => {
  it("is for those who may request merchant changes: 403 for Finance and a Viewer", async () => {
    expect((await portal().fetch("/merchants/add-merchant", { headers: await as(ESI) })).status).toBe(200);
    expect((await portal().fetch("/merchants/add-merchant", { headers: await as(ABENA) })).status).toBe(403);
    expect((await portal().fetch("/merchants/add-merchant", { headers: await as(YAW, ACCRA) })).status).toBe(403);
  });

  it("an empty form is a 400 with a message under every field, and no request", async () => {
    const text = await refused("/merchants/add-merchant", {}, await as(ESI), 400);
    for (const message of [
      "Enter the merchant code.",
      "Enter the merchant's registered name.",
      "Enter the name the merchant trades under.",
      "Enter the TIN.",
      "Enter the sector, like Groceries.",
      "Enter the town.",
      "Choose the region.",
      "Enter the address.",
      "Enter the contact person's name.",
      "Enter the contact phone number.",
      "Enter the contact email address.",
    ]) {
      expect(text).toContain(message);
    }
  });

  it("refuses SPEC's email and number rules, a bad TIN and an unknown region, keeping what was typed", async () => {
    const text = await refused(
      "/merchants/add-merchant",
      { ...NEW_MERCHANT, contact_email: "akua@bantama", contact_phone: "0244-12", tin: "X123", region: "Kumasi Metro" },
      await as(ESI),
      400,
    );
    expect(text).toContain("Enter a valid email address, like name@company.com.");
    expect(text).toContain(PHONE_MESSAGE);
    expect(text).toContain("Enter the Ghana TIN: P, C, G or Q and 10 digits");
    expect(text).toContain("Choose the region.");
    const html = await (await post("/merchants/add-merchant", { ...NEW_MERCHANT, contact_email: "akua@bantama" }, await as(ESI))).text();
    expect(html).toContain('value="akua@bantama"');
    expect(html).toContain('value="Bantama Cold Store Limited"');
  });

  it("a code or TIN another merchant has, or a pending request would give, is a field error, not a 500", async () => {
    const taken = await refused("/merchants/add-merchant", { ...NEW_MERCHANT, code: "MRC-0001", tin: "C0008473783" }, await as(ESI), 400);
    expect(taken).toContain("Another merchant already has this code");
    expect(taken).toContain("Another merchant already has this TIN");
    // MRC-0004 / P0017455187 are only in the seed's pending create request.
    const pending = await refused("/merchants/add-merchant", { ...NEW_MERCHANT, code: "MRC-0004", tin: "P0017455187" }, await as(ESI), 400);
    expect(pending).toContain("Another merchant already has this code");
    expect(pending).toContain("Another merchant already has this TIN");
    // Another business's codes are no clash.
    expect(
      await (await portal().db()).prepare("SELECT COUNT(*) AS n FROM merchants WHERE business_id = ? AND code = 'MRC-0001'").bind(ACCRA).first<number>("n"),
    ).toBe(1);
  });

  it("a Viewer posting anyway gets 403 and nothing is written", async () => {
    await refused("/merchants/add-merchant", NEW_MERCHANT, await as(YAW, ACCRA), 403);
  });

  it("a good form becomes a create request in the engine's words (normalised), and the merchant does not exist yet", async () => {
    const before = await requestCount();
    const response = await post("/merchants/add-merchant", NEW_MERCHANT, await as(ESI));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/merchants");
    expect(await requestCount()).toBe(before + 1);
    const request = await latestRequest();
    expect(request).toMatchObject({ kind: "merchant", action: "create", maker_id: "usr_esi_owusu" });
    expect(request.after).toMatchObject({ code: "MRC-0100", tin: "C0012345678", contact_phone: "233244123456", contact_email: "akua@bantamacold.example.com" });
    const exists = await (await portal().db()).prepare("SELECT COUNT(*) AS n FROM merchants WHERE code = 'MRC-0100'").first<number>("n");
    expect(exists).toBe(0);
    // The flash says it went for approval.
    const list = await portal().fetch("/merchants", { headers: { Cookie: `${(await as(ESI)).Cookie}; ${response.headers.get("Set-Cookie")!.split(";")[0]}` } });
    expect(await list.text()).toContain("Sent for approval: another person must approve it before it takes effect.");
  });
});

describe("/merchants/:merchantId", () => {
  it("shows the merchant's cards, with card numbers cut to BIN and last four and customers' phones masked", async () => {
    const response = await portal().fetch("/merchants/mer_kff_0001", { headers: await as(KOFI) });
    expect(response.status).toBe(200);
    const html = await response.text();
    const text = textOf(html);
    for (const heading of ["Overview", "Points of sale", "POS terminals", "Settlement accounts", "Recent transactions", "Change history"])
      expect(text).toContain(heading);
    expect(text).toContain("Papa Kwaku's Supermarket Limited");
    expect(text).toContain("463-09378022");
    expect(html).toContain('href="/merchants/mer_kff_0001/add-point-of-sale"');
    expect(html).toMatch(/href="\/merchants\/mer_kff_0001\/point-of-sale\/pos_kff_\w+"/);
    const db = await portal().db();
    const { results } = await db
      .prepare(
        "SELECT customer_msisdn AS m, card_bin AS bin, card_last4 AS last4, channel FROM transactions WHERE merchant_id = 'mer_kff_0001' ORDER BY created_at DESC, id DESC LIMIT 10",
      )
      .all<{ m: string | null; bin: string | null; last4: string | null; channel: string }>();
    expect(results.length).toBeGreaterThan(0);
    for (const row of results) {
      if (row.m) {
        expect(text).not.toContain(row.m);
        expect(text).toContain(`${row.m.slice(0, 3)}*****${row.m.slice(-4)}`);
      }
      if (row.bin && row.last4) expect(text).toContain(`${row.bin} •••• ${row.last4}`);
    }
  });

  it("another business's merchant, and an unknown one, are SPEC's 404", async () => {
    for (const id of ["mer_amp_0001", "mer_nobody"]) {
      const response = await portal().fetch(`/merchants/${id}`, { headers: await as(KOFI) });
      expect(response.status).toBe(404);
      expect(textOf(await response.text())).toContain(`Page Not Found: /merchants/${id}`);
    }
  });

  it("a pending request on the merchant is a banner linking to it, and its edit actions are gone", async () => {
    const pending = await (
      await portal().db()
    )
      .prepare("SELECT id FROM approval_requests WHERE kind = 'merchant' AND target_id = 'mer_kff_0002' AND status = 'pending'")
      .first<string>("id");
    const html = await (await portal().fetch("/merchants/mer_kff_0002", { headers: await as(ESI) })).text();
    expect(html).toContain(`href="/approvals/merchant/${pending}"`);
    expect(textOf(html)).not.toContain("Edit merchant");
    const free = await (await portal().fetch("/merchants/mer_kff_0003", { headers: await as(ESI) })).text();
    expect(textOf(free)).toContain("Edit merchant");
  });

  it("a Viewer sees no create or edit actions", async () => {
    const text = textOf(await (await portal().fetch("/merchants/mer_amp_0001", { headers: await as(YAW, ACCRA) })).text());
    expect(text).toContain("Dansoman Mini Mart Limited");
    for (const action of ["Edit merchant", "Deactivate", "Add settlement account", "Add point of sale", "Edit"])
      expect(text).not.toMatch(new RegExp(`\\b${action}\\b`));
    // Even when the URL asks for a form.
    const asked = textOf(await (await portal().fetch("/merchants/mer_amp_0001?edit=merchant", { headers: await as(YAW, ACCRA) })).text());
    expect(asked).not.toContain("Send for approval");
  });

  describe("requests", () => {
    it("an edit with bad fields is a 400 under the fields, and no request", async () => {
      const cookie = await as(ESI);
      const text = await refused(
        "/merchants/mer_kff_0001",
        {
          intent: "update-merchant",
          name: "",
          trading_name: "Papa Kwaku's",
          tin: "C0008473783",
          sector: "Groceries",
          town: "Kumasi",
          region: "Ashanti",
          address: "Adum",
          contact_name: "Kwaku",
          contact_phone: "12345678",
          contact_email: "no-at-sign",
        },
        cookie,
        400,
      );
      expect(text).toContain("Enter the merchant's registered name.");
      expect(text).toContain("Enter a Ghana phone number");
      expect(text).toContain("Enter a valid email address");
      const unknown = await refused("/merchants/mer_kff_0001", { intent: "delete-everything" }, cookie, 400);
      expect(unknown).toContain("That request was not understood.");
    });

    it("an edit asks for the changed fields only; approved, it shows in the change history", async () => {
      const page = await (await portal().fetch("/merchants/mer_kff_0001", { headers: await as(ESI) })).text();
      expect(page).not.toContain("Contact name: ");
      const db = await portal().db();
      const current = await db.prepare("SELECT * FROM merchants WHERE id = 'mer_kff_0001'").first<Record<string, string>>();
      const form = Object.fromEntries(
        ["name", "trading_name", "tin", "sector", "town", "region", "address", "contact_name", "contact_phone", "contact_email"].map((key) => [
          key,
          current![key]!,
        ]),
      );
      const response = await post("/merchants/mer_kff_0001", { ...form, intent: "update-merchant", contact_name: "Yaa Asantewaa" }, await as(ESI));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/merchants/mer_kff_0001");
      const request = await latestRequest();
      expect(request).toMatchObject({ kind: "merchant", action: "update", target_id: "mer_kff_0001" });
      expect(request.after).toEqual({ contact_name: "Yaa Asantewaa" });
      // A second request on the same merchant waits for the first: 400, nothing written.
      const again = await refused("/merchants/mer_kff_0001", { ...form, intent: "update-merchant", contact_name: "Someone Else" }, await as(ESI), 400);
      expect(again).toContain("already has a pending request");

      await approveRequest(KOFI_KUMASI, META, request.id);
      const text = textOf(await (await portal().fetch("/merchants/mer_kff_0001", { headers: await as(ESI) })).text());
      expect(text).toContain(`Contact name: ${current!.contact_name} → Yaa Asantewaa`);
      expect(text).toContain("approved by Kofi Boateng");
    });

    it("an edit that changes nothing is refused, and nothing is written", async () => {
      const db = await portal().db();
      const current = await db.prepare("SELECT * FROM merchants WHERE id = 'mer_kff_0003'").first<Record<string, string>>();
      const form = Object.fromEntries(
        ["name", "trading_name", "tin", "sector", "town", "region", "address", "contact_name", "contact_phone", "contact_email"].map((key) => [
          key,
          current![key]!,
        ]),
      );
      const text = await refused("/merchants/mer_kff_0003", { ...form, intent: "update-merchant" }, await as(ESI), 400);
      expect(text).toContain("Nothing would change");
      // Taking another merchant's TIN is a field error.
      const clash = await refused("/merchants/mer_kff_0003", { ...form, intent: "update-merchant", tin: "C0008473783" }, await as(ESI), 400);
      expect(clash).toContain("Another merchant already has this TIN");
    });

    it("deactivating asks for status inactive", async () => {
      const response = await post("/merchants/mer_kff_0003", { intent: "deactivate-merchant" }, await as(ESI));
      expect(response.status).toBe(302);
      const request = await latestRequest();
      expect(request).toMatchObject({ kind: "merchant", action: "deactivate", target_id: "mer_kff_0003" });
      expect(request.after).toEqual({ status: "inactive" });
      expect(await (await portal().db()).prepare("SELECT status FROM merchants WHERE id = 'mer_kff_0003'").first<string>("status")).toBe("active");
    });

    it("another business's merchant is a 404 for every intent, and nothing is written", async () => {
      for (const intent of ["update-merchant", "deactivate-merchant", "add-account"]) {
        await refused(
          "/merchants/mer_amp_0001",
          { ...NEW_MERCHANT, intent, provider: "MTN", account_number: "0241234567", account_name: "Dansoman" },
          await as(KOFI),
          404,
        );
      }
    });

    it("a Viewer, and Finance, posting anyway get 403 and nothing is written", async () => {
      const yaw = await as(YAW, ACCRA);
      const forms: Record<string, string>[] = [
        { intent: "update-merchant", contact_name: "Someone" },
        { intent: "deactivate-merchant" },
        { intent: "add-account", provider: "MTN", account_number: "0241234567", account_name: "Dansoman Mini Mart" },
        { intent: "update-account", accountId: "sac_amp_00001", account_name: "Changed" },
        { intent: "deactivate-account", accountId: "sac_amp_00001" },
      ];
      for (const form of forms) {
        await refused("/merchants/mer_amp_0001", form, yaw, 403);
      }
      await refused("/merchants/mer_amp_0001", { intent: "anything" }, yaw, 403);
      // An intent nobody knows, on another business's merchant, is still that merchant's 404.
      await refused("/merchants/mer_amp_0001", { intent: "anything" }, await as(KOFI), 404);
      await refused(
        "/merchants/mer_kff_0001",
        { intent: "add-account", provider: "MTN", account_number: "0241234567", account_name: "Papa Kwaku" },
        await as(ABENA),
        403,
      );
    });
  });

  describe("settlement accounts", () => {
    const GOOD = { intent: "add-account", provider: "MTN", account_number: "0241234567", account_name: "Papa Kwaku's Supermarket" };

    it("a bad account number, no provider and no name are 400s under the fields, and no request", async () => {
      for (const number of ["12345678", "1234567890123", "12-34-5678", "-123456789", "12345678a"]) {
        const text = await refused("/merchants/mer_kff_0001", { ...GOOD, account_number: number }, await as(ESI), 400);
        expect(text).toContain("Use 9 to 12 characters: digits, optionally a hyphen and more digits");
      }
      const text = await refused(
        "/merchants/mer_kff_0001",
        { intent: "add-account", provider: "Vodafone", account_number: "", account_name: " " },
        await as(ESI),
        400,
      );
      expect(text).toContain("Choose the bank or the mobile-money network.");
      expect(text).toContain("Enter the account number.");
      expect(text).toContain("Enter the name on the account.");
    });

    it("an account the merchant already has is a field error", async () => {
      const text = await refused("/merchants/mer_kff_0001", { ...GOOD, provider: "CalBank", account_number: "463-09378022" }, await as(ESI), 400);
      expect(text).toContain("This merchant already has this account");
    });

    it("adding one asks for a mobile-money or bank account with the primary flag", async () => {
      const response = await post("/merchants/mer_kff_0001", { ...GOOD, is_primary: "on" }, await as(ESI));
      expect(response.status).toBe(302);
      const request = await latestRequest();
      expect(request).toMatchObject({ kind: "settlement_account", action: "create" });
      expect(request.after).toEqual({
        merchant_id: "mer_kff_0001",
        kind: "mobile_money",
        provider: "MTN",
        account_number: "0241234567",
        account_name: "Papa Kwaku's Supermarket",
        is_primary: 1,
      });
      // The same account again clashes with the pending request.
      const again = await refused("/merchants/mer_kff_0001", GOOD, await as(ESI), 400);
      expect(again).toContain("This merchant already has this account");
      // The page lists it as waiting, with a link to the request.
      const html = await (await portal().fetch("/merchants/mer_kff_0001", { headers: await as(ESI) })).text();
      expect(html).toContain(`href="/approvals/settlement-account/${request.id}"`);

      await post("/merchants/mer_kff_0003", { ...GOOD, provider: "GCB Bank", account_number: "1020304050", is_primary: "" }, await as(ESI));
      expect((await latestRequest()).after).toMatchObject({ kind: "bank", provider: "GCB Bank", is_primary: 0 });
    });

    it("changing one asks for the changed fields only; deactivating asks for inactive", async () => {
      const response = await post(
        "/merchants/mer_kff_0001",
        {
          intent: "update-account",
          accountId: "sac_kff_00001",
          provider: "CalBank",
          account_number: "463-09378022",
          account_name: "Papa Kwaku Supermarket Ltd",
          is_primary: "on",
        },
        await as(ESI),
      );
      expect(response.status).toBe(302);
      const request = await latestRequest();
      expect(request).toMatchObject({ kind: "settlement_account", action: "update", target_id: "sac_kff_00001" });
      expect(request.after).toEqual({ account_name: "Papa Kwaku Supermarket Ltd" });

      const invalid = await refused(
        "/merchants/mer_kff_0003",
        { intent: "update-account", accountId: "sac_kff_00006", provider: "Stanbic Bank Ghana", account_number: "538_84949126", account_name: "x" },
        await as(ESI),
        400,
      );
      expect(invalid).toContain("Use 9 to 12 characters");

      expect((await post("/merchants/mer_kff_0003", { intent: "deactivate-account", accountId: "sac_kff_00006" }, await as(ESI))).status).toBe(302);
      expect(await latestRequest()).toMatchObject({
        kind: "settlement_account",
        action: "deactivate",
        target_id: "sac_kff_00006",
        after: { status: "inactive" },
      });
    });

    it("another merchant's account, or another business's, is a 404 from here", async () => {
      const form = { intent: "update-account", provider: "MTN", account_number: "0241234567", account_name: "x" };
      await refused("/merchants/mer_kff_0003", { ...form, accountId: "sac_kff_00005" }, await as(ESI), 404);
      await refused("/merchants/mer_kff_0003", { ...form, accountId: "sac_amp_00001" }, await as(ESI), 404);
      await refused("/merchants/mer_kff_0003", { intent: "deactivate-account", accountId: "sac_amp_00001" }, await as(AMA), 404);
      await refused("/merchants/mer_kff_0003", { intent: "deactivate-account" }, await as(ESI), 404);
    });
  });
});
