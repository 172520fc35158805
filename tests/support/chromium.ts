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
