// One JSON line per event so Workers Logs can filter on fields.
export function logError(requestId: string, request: Request, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const url = new URL(request.url);
  console.error(
    JSON.stringify({
      level: "error",
      requestId,
      method: request.method,
      path: url.pathname,
      name: err.name,
      message: err.message,
      stack: err.stack,
    }),
  );
}
