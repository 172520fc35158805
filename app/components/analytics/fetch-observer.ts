// One wrapper around window.fetch, installed once, that tells listeners about
// every response (the error-id tracker and failed-request reporting use it).

export interface ObservedResponse {
  url: string;
  method: string;
  response: Response;
}

type Listener = (observed: ObservedResponse) => void;

const listeners = new Set<Listener>();
let originalFetch: typeof fetch | null = null;

export function installFetchObserver(): void {
  if (originalFetch) return;
  const original = window.fetch.bind(window);
  originalFetch = original;
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await original(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    const url = response.url || (input instanceof Request ? input.url : String(input));
    for (const listener of listeners) {
      try {
        listener({ url, method, response });
      } catch {
        // A listener's failure must never break the page's own request.
      }
    }
    return response;
  };
}

export function onFetchResponse(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** fetch without the observer: for sending analytics, which must not report on itself. */
export function unobservedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return (originalFetch ?? window.fetch)(input, init);
}
