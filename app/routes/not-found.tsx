import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { routeNotFound } from "../../functions/http";

// Any path no screen claims. Throwing from the loader (rather than rendering)
// gives the 404 status and the root error boundary's Page Not Found page.
export function loader({ request }: LoaderFunctionArgs): never {
  routeNotFound(request);
}

export const action = loader;

export default function NotFound() {
  return null;
}
