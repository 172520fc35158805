import { PrefetchPageLinks, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FIRST_PREFETCH_DELAY_MS, likelyNextPages, shouldPrefetch, type ConnectionInfo } from "../lib/prefetch";
import { useRootData } from "../lib/root-data";

/**
 * SPEC section 7's first payload prefetch: a second after a signed-in page loads, the
 * pages people usually open next (their code and loader data) are fetched, unless the
 * connection is very slow or the person asked to save data. Hover prefetch
 * (prefetch="intent" on the navigation) still covers the rest.
 */
export function FirstPrefetch() {
  const role = useRootData()?.identity?.user.role;
  const { pathname } = useLocation();
  const [due, setDue] = useState(false);

  // Each page waits its second: a navigation's own requests go first.
  useEffect(() => {
    setDue(false);
    const connection = (navigator as Navigator & { connection?: ConnectionInfo }).connection;
    if (!shouldPrefetch(connection)) return;
    const timer = setTimeout(() => setDue(true), FIRST_PREFETCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pathname]);

  if (!due || !role) return null;
  return (
    <>
      {likelyNextPages(pathname, role).map((page) => (
        <PrefetchPageLinks key={page} page={page} />
      ))}
    </>
  );
}
