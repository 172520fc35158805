import { existsSync } from "node:fs";

/** Debian's Chromium, or the one CHROMIUM_PATH names. Playwright never downloads a browser here. */
export function chromiumPath(): string {
  const path = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(path)) {
    throw new Error(
      `No Chromium found at ${path}. Install Debian's package (sudo apt-get install chromium) ` +
        "or set CHROMIUM_PATH to a Chromium or Chrome executable, then run the tests again.",
    );
  }
  return path;
}

/** Debian's old headless shell, which the end-to-end tier prefers when it is installed. */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * The browser the end-to-end tests drive: CHROMIUM_PATH when set, else Debian's old headless shell when installed,
 * else Chromium. The shell is Chromium's own engine without the full browser's headless mode, and took about 13% less
 * CPU for the same tests, all passing, passkeys' virtual authenticator included (decision 003, 2026-12-02). Screenshots
 * and Lighthouse keep the full browser (chromiumPath): Lighthouse needs its `--headless=new`.
 */
export function testBrowserPath(shell: string = HEADLESS_SHELL): string {
  if (!process.env.CHROMIUM_PATH && existsSync(shell)) return shell;
  return chromiumPath();
}

// Root needs --no-sandbox; the rest keep Chromium from calling home on a closed network.
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
