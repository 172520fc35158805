/** The environment for wrangler subprocesses: no telemetry prompts or sends on a closed network. */
export function wranglerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "", ...extra };
}
