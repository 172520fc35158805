import { createContext, useContext, type ComponentType } from "react";

export interface DocumentInfo {
  /** CSP nonce; only known on the server (browsers hide it from the DOM). */
  nonce?: string;
  /** Id of the request that rendered this document. */
  requestId?: string;
  /**
   * On the server only: the build that renders this document, which it carries on <html data-build> for the browser
   * (app/components/build-update.tsx). Carried by the document rather than compiled into the browser's code, so a
   * build whose browser code did not change keeps every file name, and the browser's cache of them, of the one before.
   */
  buildId?: string;
  /**
   * The app's stylesheet, which the document carries in its head (decision 043), and the nonce that lets it apply:
   * on the server app/styles/app.css and this response's nonce; in the browser the `<style>` element the document came
   * with (its nonce, hidden as an attribute, still reads as a property), so hydration meets the same element and a
   * `<style>` React makes again (the document rebuilt around an error boundary) is still allowed by the CSP.
   */
  styles?: Pick<HTMLElement, "textContent" | "nonce"> | null;
  /** On the server only: the document's scripts (paint-first-scripts.server.tsx, decision 043). */
  scripts?: ComponentType<{ part: ScriptsPart; nonce?: string }>;
}

/** Which of Remix's two scripts: its bootstrap (the module script, in the head) or its handoff (end of the body). */
export type ScriptsPart = "bootstrap" | "handoff";

/** The id of the `<style>` element that carries the app's stylesheet. */
export const STYLES_ID = "pp-styles";

export const DocumentContext = createContext<DocumentInfo>({});

export function useDocumentInfo(): DocumentInfo {
  return useContext(DocumentContext);
}
