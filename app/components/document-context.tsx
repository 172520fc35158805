import { createContext, useContext } from "react";

export interface DocumentInfo {
  /** CSP nonce; only known on the server (browsers hide it from the DOM). */
  nonce: string | undefined;
  /** Id of the request that rendered this document. */
  requestId: string | undefined;
}

export const DocumentContext = createContext<DocumentInfo>({ nonce: undefined, requestId: undefined });

export function useDocumentInfo(): DocumentInfo {
  return useContext(DocumentContext);
}
