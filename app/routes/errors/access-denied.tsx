// The portal's 403 page, the one source of its words: the error boundary draws it inside the shell (app/root.tsx), and
// a resource route a person opens in the browser (a CSV export refused by requireExport) answers it as a document of
// its own, in the portal's sign-in card (app/entry.server.tsx forbiddenDocument), where no router runs: there `Home` is
// a plain link.
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { NO_PERMISSION } from "#server/permissions";

type HomeLink = (props: { to: string; className: string; children: ReactNode }) => ReactNode;

/**
 * A refusal (403): the person's role does not allow this. SPEC keeps the document title of "any other error"
 * (Internal Server Error), so the heading is what tells the person nothing broke: they may not be here.
 */
export function AccessDenied({ message, Home = Link }: { message: string | null; Home?: HomeLink }) {
  return (
    <section className="error-page" aria-labelledby="error-title">
      <p className="error-page__code">403</p>
      <h1 id="error-title">You don&apos;t have access to this page</h1>
      <p data-testid="error-message">{message ?? NO_PERMISSION}</p>
      <p>Your role in this business does not allow it. Ask an administrator if you need it.</p>
      <Home to="/" className="button button--primary">
        Go to the dashboard
      </Home>
    </section>
  );
}
