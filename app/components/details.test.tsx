import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { shownText, shownValue, withCodes } from "./details";

const html = (node: ReturnType<typeof withCodes>) => renderToStaticMarkup(<>{node}</>);

describe("withCodes", () => {
  // An id longer than any reference is left to wrap: kept whole, it would push a phone's card sideways.
  it.each([
    [
      "Mobile money payment KFF-261126-0000500 · 26/11/2026, 10:43 PM",
      'Mobile money payment <span class="code">KFF-261126-0000500</span> · 26/11/2026, 10:43 PM',
    ],
    ["CalBank 463-09378022", 'CalBank <span class="code">463-09378022</span>'],
    ["Payment STL-KFF-MRC-0001-20261125", 'Payment <span class="code">STL-KFF-MRC-0001-20261125</span>'],
  ])("keeps each code in %j on one line", (text, markup) => {
    expect(html(withCodes(text))).toBe(markup);
  });

  it.each(["Kumasi Fresh Foods", "Ɔkyeame Ŋkansa-Mensah 🍍", "a well-known shop", "Telecel Cash", "id 8ff02d6f-d145-453f-8a6c-d33045440f2d"])(
    "leaves %j, which holds no code, as it is",
    (text) => {
      expect(withCodes(text)).toBe(text);
    },
  );
});

describe("shownValue and shownText", () => {
  it("replace the old brand word; only shownValue wraps codes, and never inside an option", () => {
    expect(html(shownValue(<strong>Vodafone Cash MRC-0001</strong>))).toBe('<strong>Telecel Cash <span class="code">MRC-0001</span></strong>');
    expect(html(shownValue(<option>Vodafone MRC-0001</option>))).toBe("<option>Telecel MRC-0001</option>");
    expect(html(shownText(<strong>Vodafone MRC-0001</strong>))).toBe("<strong>Telecel MRC-0001</strong>");
  });
});
