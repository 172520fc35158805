import { withoutCardNumbers } from "../card-numbers/card-numbers";

// One JSON line per event so Workers Logs can filter on fields. A path or message holding what looks like a card
// number is written with its digits masked (decision 031): a log line is stored, and PCI DSS 3.4.1 counts logs.
export function logError(requestId: string, request: Request, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  const url = new URL(request.url);
  console.error(
    JSON.stringify({
      level: "error",
      requestId,
      method: request.method,
      path: withoutCardNumbers(url.pathname),
      name: err.name,
      message: withoutCardNumbers(err.message),
      stack: err.stack === undefined ? undefined : withoutCardNumbers(err.stack),
    }),
  );
}
