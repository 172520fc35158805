// The flags of `npm run platform:admin` (scripts/lib/platform-admin-args.ts): read by the portal's own rules, and every
// refusal is one clear message (the command prints it and exits 2 before opening any database).
import { describe, expect, it } from "vitest";
import { PHONE_MESSAGE } from "#app/lib/forms/phone";
import { parsePlatformAdminArgs } from "../../scripts/lib/platform-admin-args";

const GOOD = ["--email", "  Akosua.Mensah@Example.COM ", "--phone", "+233 (0)24 412 3456", "--name", " Akosua Mensah "];

function refusal(argv: string[], env = {}): string {
  const parsed = parsePlatformAdminArgs(argv, env);
  if (parsed.ok) throw new Error(`accepted ${argv.join(" ")}`);
  return parsed.message.split("\n")[0]!;
}

describe("parsePlatformAdminArgs", () => {
  it("reads the email as sign-in stores it, the phone by the one Ghana rule (masked for the audit log), the name trimmed", () => {
    expect(parsePlatformAdminArgs(GOOD)).toEqual({
      ok: true,
      args: {
        admin: { email: "akosua.mensah@example.com", name: "Akosua Mensah", phone: { msisdn: "233244123456", masked: "233*****3456" } },
        remote: false,
        persistTo: undefined,
      },
    });
    for (const written of ["0244123456", "024 412 3456", "233244123456", "00233 24 412 3456", "244123456"]) {
      const parsed = parsePlatformAdminArgs(["--email", "a@example.com", "--phone", written, "--name", "A"]);
      expect(parsed.ok && parsed.args.admin.phone.msisdn).toBe("233244123456");
    }
  });

  it("writes the local state npm start uses unless told otherwise, and the deployed database with --remote", () => {
    const local = parsePlatformAdminArgs(GOOD, { PP_STATE_DIR: "/tmp/state" });
    expect(local.ok && local.args).toMatchObject({ remote: false, persistTo: "/tmp/state" });
    const folder = parsePlatformAdminArgs([...GOOD, "--persist-to", "/tmp/other"], { PP_STATE_DIR: "/tmp/state" });
    expect(folder.ok && folder.args).toMatchObject({ remote: false, persistTo: "/tmp/other" });
    const remote = parsePlatformAdminArgs([...GOOD, "--remote"], { PP_STATE_DIR: "/tmp/state" });
    expect(remote.ok && remote.args).toMatchObject({ remote: true, persistTo: undefined });
    expect(refusal([...GOOD, "--remote", "--persist-to", "/tmp/other"])).toBe("Give --remote or --persist-to, not both.");
  });

  it("refuses a phone the portal's forms refuse, with their message", () => {
    for (const phone of ["0201234", "+44 20 7946 0958", "0644123456", "024-412-3456x", "233 24 412 3456 7", "+233 (0)24 (412) 3456"]) {
      expect(refusal(["--email", "a@example.com", "--phone", phone, "--name", "A"])).toBe(`--phone: ${PHONE_MESSAGE}`);
    }
    expect(refusal(["--email", "a@example.com", "--phone", "  ", "--name", "A"])).toBe("Say which phone gets the sign-in codes: --phone PHONE.");
  });

  it("refuses an email that is not one, and an empty, too long or direction-reversing name", () => {
    for (const email of ["akosua", "akosua@example", "a b@example.com", "@example.com", `${"a".repeat(250)}@example.com`]) {
      expect(refusal(["--email", email, "--phone", "0244123456", "--name", "A"])).toMatch(/^--email: /);
    }
    expect(refusal(["--email", "a@example.com", "--phone", "0244123456", "--name", "   "])).toBe("--name: enter the person's full name.");
    expect(refusal(["--email", "a@example.com", "--phone", "0244123456", "--name", "A".repeat(101)])).toBe("--name: keep the name under 100 characters.");
    expect(refusal(["--email", "a@example.com", "--phone", "0244123456", "--name", "Ama\u202Eharsne"])).toMatch(
      /^--name: The name holds an invisible character/,
    );
  });

  it("refuses a missing flag by naming it, and an unknown flag, a value left out or a stray word with the usage", () => {
    expect(refusal(["--phone", "0244123456", "--name", "A"])).toBe("Say whose account: --email EMAIL.");
    expect(refusal(["--email", "a@example.com", "--name", "A"])).toBe("Say which phone gets the sign-in codes: --phone PHONE.");
    expect(refusal(["--email", "a@example.com", "--phone", "0244123456"])).toBe("Say the person's full name: --name NAME.");
    expect(refusal([...GOOD, "--role", "Platform Support"])).toMatch(/Unknown option '--role'/);
    expect(refusal(["--email", "a@example.com", "--phone", "0244123456", "--name"])).toMatch(/--name/);
    expect(refusal([...GOOD, "extra"])).toMatch(/extra/);
    expect(parsePlatformAdminArgs([...GOOD, "--role", "x"])).toMatchObject({ ok: false, message: expect.stringContaining("Usage: npm run platform:admin") });
  });
});
