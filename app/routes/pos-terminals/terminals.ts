// Shared with the server: the webhook sweep announces the same silence (functions/webhooks/sweep.ts).
export { SILENT_AFTER_MS } from "#server/merchants/terminal-silence";
