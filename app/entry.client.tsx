import { RemixBrowser } from "@remix-run/react";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { DocumentContext } from "./components/document-context";
import { trackServerErrorIds } from "./components/error-id";
import { installSubmissionIds } from "./components/submission";

trackServerErrorIds();
installSubmissionIds();
const requestId = document.querySelector<HTMLMetaElement>('meta[name="pp-request-id"]')?.content;

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <DocumentContext.Provider value={{ nonce: undefined, requestId }}>
        <RemixBrowser />
      </DocumentContext.Provider>
    </StrictMode>,
  );
});
