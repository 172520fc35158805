// The server's half of the document's scripts (decision 043): Remix's <Scripts> without its modulepreload links, its
// bootstrap rewritten to wait for the first paint (./paint-first-bootstrap.ts). Handed to the root through the document
// context by app/entry.server.tsx, so neither this nor Remix's <Scripts> ships to the browser, which renders the same
// two elements (./paint-first-scripts.tsx).
import { Scripts, UNSAFE_RemixContext } from "@remix-run/react";
import { Fragment, cloneElement, isValidElement, useContext, type ReactElement, type ReactNode } from "react";
import type { ScriptsPart } from "./document-context";
import { paintFirstBootstrap } from "./paint-first-bootstrap";

/** Every element under `node`, fragments and arrays opened. */
function elementsOf(node: ReactNode): ReactElement[] {
  if (Array.isArray(node)) return node.flatMap(elementsOf);
  if (!isValidElement(node)) return [];
  if (node.type === Fragment) return elementsOf((node.props as { children?: ReactNode }).children);
  return [node];
}

interface ElementProps {
  type?: string;
  rel?: string;
  href?: string;
  dangerouslySetInnerHTML?: { __html: string };
}

interface Reshaped {
  handoff: ReactElement;
  bootstrap: ReactElement;
}

/** Each document's two scripts, made once: the head and the body each render one (keyed by Remix's context of that render). */
const made = new WeakMap<object, Reshaped | null>();

/** Remix's <Scripts>, called as the function it is (its hooks are its caller's), reshaped. */
function reshape(nonce: string | undefined): Reshaped | null {
  const rendered = Scripts({ nonce });
  if (!rendered) return null;
  const elements = elementsOf(rendered);
  const isPreload = (element: ReactElement) => element.type === "link" && (element.props as ElementProps).rel === "modulepreload";
  const preloads = elements.filter(isPreload).map((element) => (element.props as ElementProps).href!);
  const [handoff, bootstrap, ...more] = elements.filter((element) => !isPreload(element));
  // What the browser renders in their place (./paint-first-scripts.tsx): Remix's handoff and its bootstrap.
  if (!handoff || !bootstrap || more.length > 0 || handoff.type !== "script" || (bootstrap.props as ElementProps).type !== "module") {
    throw new Error("Remix's <Scripts> rendered an unexpected shape");
  }
  const script = (bootstrap.props as ElementProps).dangerouslySetInnerHTML?.__html;
  const rewritten = script === undefined ? null : paintFirstBootstrap(script, preloads);
  return { handoff, bootstrap: rewritten ? cloneElement(bootstrap, { dangerouslySetInnerHTML: { __html: rewritten } }) : bootstrap };
}

/** One of the document's two scripts. The server renders each once, so the one that comes first making both is safe. */
export function ServerScripts({ part, nonce }: { part: ScriptsPart; nonce?: string }) {
  const remix = useContext(UNSAFE_RemixContext) as object;
  if (!made.has(remix)) made.set(remix, reshape(nonce));
  return made.get(remix)?.[part] ?? null;
}
