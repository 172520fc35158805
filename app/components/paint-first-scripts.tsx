// The document's scripts, asked for once the browser has painted (decision 043). The server renders them
// (./paint-first-scripts.server.tsx, through the document context): Remix's bootstrap, which waits for the first paint,
// in the head, so that the page's code (from the cache, on a repeat visit) is read while the rest of the document still
// streams; Remix's handoff at the end of the body, as before. The browser, hydrating, meets the same elements and
// leaves their text as the server sent it.
import { useDocumentInfo, type ScriptsPart } from "./document-context";

/** Leaves the element as the server sent it (React neither checks nor writes inner HTML while hydrating). */
const AS_SENT = { suppressHydrationWarning: true, dangerouslySetInnerHTML: { __html: " " } };

export function PaintFirstScripts({ part, nonce }: { part: ScriptsPart; nonce?: string }) {
  const { scripts: ServerScripts } = useDocumentInfo();
  if (ServerScripts) return <ServerScripts part={part} nonce={nonce} />;
  return part === "bootstrap" ? <script type="module" async {...AS_SENT} /> : <script {...AS_SENT} />;
}
