// Small pieces the analytics endpoints share: JSON answers (functions/platform/http.ts). Log lines are written by the
// one logger, functions/platform/log.ts.

export { jsonResponse, methodNotAllowed, notFound } from "../platform/http";
