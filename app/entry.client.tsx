import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { codeTheDocumentShows } from "./components/code-on-demand";
import { DocumentContext, STYLES_ID } from "./components/document-context";
import { trackServerErrorIds } from "./components/error-id";
import { ROUTE_MODULES_LOADED } from "./components/paint-first-bootstrap";
import { installSubmissionIds } from "#app/components/forms/submission";

// The document's bootstrap imports this module beside the page's route modules, and says here when those are in
// (app/components/paint-first-bootstrap.ts); Remix reads them from window.__remixRouteModules as it hydrates.
await (window as unknown as Record<string, Promise<void> | undefined>)[ROUTE_MODULES_LOADED];
// The bootstrap is in the head: the rest of the document may still be arriving. React hydrates all of it.
if (document.readyState === "loading") await new Promise((parsed) => document.addEventListener("DOMContentLoaded", parsed, { once: true }));
trackServerErrorIds();
installSubmissionIds();
// The parts the server drew from code loaded on demand hydrate with the rest, not after it
// (app/components/code-on-demand.tsx): until then a press on them is the browser's own send, with its submission id.
await codeTheDocumentShows(document);
const requestId = document.querySelector<HTMLMetaElement>('meta[name="pp-request-id"]')?.content;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <DocumentContext.Provider value={{ requestId, styles: document.getElementById(STYLES_ID) }}>
        <RemixBrowser />
      </DocumentContext.Provider>
    </StrictMode>,
  );
});
