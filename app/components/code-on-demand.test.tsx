import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { codeOnDemand, codeTheDocumentShows, OnDemand } from "./code-on-demand";

/** A document whose marks name these codes, as the server's HTML would. */
const documentShowing = (...names: string[]) => ({ querySelectorAll: () => names.map((name) => ({ getAttribute: () => name })) }) as unknown as ParentNode;

function held<T>() {
  let give!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (give = resolve));
  return { promise, give };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
};

describe("code on demand", () => {
  it("the server's document names the code of the part it drew, in a mark that has no box", () => {
    const code = codeOnDemand("unit-drawn", () => Promise.resolve("loaded"));
    const Part = () => <p>{code.read()}</p>;
    return code.preload().then(() => {
      const html = renderToString(
        <OnDemand code={code} fallback={<p>Loading…</p>}>
          <Part />
        </OnDemand>,
      );
      expect(html).toContain('<template data-code-on-demand="unit-drawn"></template><p>loaded</p>');
      expect(html).not.toContain("Loading…");
    });
  });

  it("a part whose code is in the first load has no mark", () => {
    const html = renderToString(
      <OnDemand code={null} fallback={null}>
        <p>Profile</p>
      </OnDemand>,
    );
    expect(html).not.toContain("template");
  });

  it("the browser hydrates only once every code the document shows is here", async () => {
    const first = held<string>();
    const second = held<string>();
    const a = codeOnDemand("unit-a", () => first.promise);
    codeOnDemand("unit-b", () => second.promise);
    codeOnDemand("unit-not-shown", () => new Promise<string>(() => {}));
    const ready = codeTheDocumentShows(documentShowing("unit-a", "unit-b", "unit-a"));
    first.give("a");
    expect(await settled(ready)).toBe(false);
    second.give("b");
    expect(await settled(ready)).toBe(true);
    expect(a.read()).toBe("a");
  });

  it("a code that cannot load, or a name no module gave, does not hold hydration back; the next read tries again", async () => {
    let attempts = 0;
    const code = codeOnDemand("unit-offline", () => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new TypeError("Failed to fetch")) : Promise.resolve("back");
    });
    await expect(codeTheDocumentShows(documentShowing("unit-offline", "unit-nobody"))).resolves.toBeUndefined();
    let suspended: unknown;
    try {
      code.read();
    } catch (thrown) {
      suspended = thrown;
    }
    expect(suspended).toBeInstanceOf(Promise);
    await suspended;
    expect(code.read()).toBe("back");
    expect(attempts).toBe(2);
  });
});
