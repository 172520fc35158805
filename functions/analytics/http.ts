// Small pieces the analytics endpoints share: JSON answers (functions/plumbing/http.ts). Log lines are written by the
// one logger, functions/plumbing/log.ts.

export { jsonResponse, methodNotAllowed, notFound } from "../plumbing/http";
