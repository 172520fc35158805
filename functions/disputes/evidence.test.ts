// The pure parts of disputes: an evidence file's type from its first bytes, a name that contradicts it, a
// stored name, and the days left to answer in Africa/Accra days around midnight.
import { describe, expect, it } from "vitest";
import { cleanFileName, nameContradicts, sniffEvidenceType } from "./evidence";
import { daysLeft, deadlineLabel } from "#app/lib/disputes";

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(values.flatMap((value) => (typeof value === "string" ? [...value].map((c) => c.charCodeAt(0)) : [value])));

describe("an evidence file's type, from its bytes", () => {
  it.each([
    ["application/pdf", bytes("%PDF-1.7\n")],
    ["image/jpeg", bytes(0xff, 0xd8, 0xff, 0xe0, 0, 16, "JFIF")],
    ["image/png", bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13)],
    ["image/webp", bytes("RIFF", 0x24, 0, 0, 0, "WEBPVP8 ")],
  ])("%s", (type, head) => {
    expect(sniffEvidenceType(head)).toBe(type);
  });

  it.each([
    ["text", bytes("<script>alert(1)</script>")],
    ["a PDF's name in text", bytes("receipt.pdf")],
    ["HTML that starts with %PD", bytes("%PD")],
    ["a RIFF that is not WebP (a WAV)", bytes("RIFF", 0x24, 0, 0, 0, "WAVEfmt ")],
    ["a ZIP (an Office file)", bytes("PK", 3, 4)],
    ["nothing", bytes()],
  ])("refuses %s", (_what, head) => {
    expect(sniffEvidenceType(head)).toBeNull();
  });
});

describe("a name that contradicts the content", () => {
  it("refuses a PNG named .pdf and a PDF named .JPG", () => {
    expect(nameContradicts("receipt.pdf", "image/png")).toMatch(/content is a PNG image, but its name ends in \.pdf/);
    expect(nameContradicts("Scan.JPG", "application/pdf")).toMatch(/ends in \.jpg/);
  });

  it("takes a matching extension, none, or one that names none of the four kinds", () => {
    expect(nameContradicts("photo.jpeg", "image/jpeg")).toBeNull();
    expect(nameContradicts("photo.JPG", "image/jpeg")).toBeNull();
    expect(nameContradicts("Receipt 12.11.2026", "application/pdf")).toBeNull();
    expect(nameContradicts("Ɔsu receipt", "image/webp")).toBeNull();
  });

  it("keeps a name's letters of any script and drops paths and control characters", () => {
    expect(cleanFileName("C:\\Users\\Ɛsi\\Receipt Ŋkɔ 🧾.pdf")).toBe("Receipt Ŋkɔ 🧾.pdf");
    expect(cleanFileName('a"b\u0000c.pdf')).toBe("abc.pdf");
    expect(cleanFileName("   ")).toBe("evidence");
    expect([...cleanFileName("ع".repeat(300))]).toHaveLength(120);
  });
});

describe("days left to answer (Africa/Accra, UTC+0)", () => {
  // Due by 30 Nov 2026: the deadline is the end of that day, 1 Dec 00:00 UTC.
  const due = Date.UTC(2026, 11, 1);
  it.each([
    [Date.UTC(2026, 10, 23, 0, 0), 7, "7 days left"],
    [Date.UTC(2026, 10, 23, 23, 59), 7, "7 days left"],
    [Date.UTC(2026, 10, 29, 12), 1, "1 day left"],
    [Date.UTC(2026, 10, 30, 0, 0), 0, "Due today"],
    [Date.UTC(2026, 10, 30, 23, 59, 59), 0, "Due today"],
  ])("at %s: %s days, %j", (now, days, text) => {
    expect(daysLeft(due, now)).toBe(days);
    expect(deadlineLabel(due, now)).toEqual({ text, overdue: false });
  });

  it("is overdue from midnight after the due date", () => {
    expect(deadlineLabel(due, due)).toEqual({ text: "Overdue", overdue: true });
    expect(daysLeft(due, due + 3 * 86_400_000)).toBeLessThan(0);
  });
});
