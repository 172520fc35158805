// The document's scripts, asked for once the browser has painted (decision 043). The server renders them
// (./paint-first-scripts.server.tsx, through the document context); the browser, hydrating, meets the same two elements,
// Remix's handoff and its bootstrap, whose text it leaves as the server sent it.
import { useDocumentInfo } from "./document-context";

/** Leaves the element as the server sent it (React neither checks nor writes inner HTML while hydrating). */
const AS_SENT = { suppressHydrationWarning: true, dangerouslySetInnerHTML: { __html: " " } };

export function PaintFirstScripts({ nonce }: { nonce?: string }) {
  const { scripts: ServerScripts } = useDocumentInfo();
  if (ServerScripts) return <ServerScripts nonce={nonce} />;
  return (
    <>
      <script {...AS_SENT} />
      <script type="module" async {...AS_SENT} />
    </>
  );
}
