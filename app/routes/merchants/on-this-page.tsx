// A long page's section cards, linked from its top. Fragment links: they work
// before the script loads, and following one moves the keyboard's starting point
// to that section. Through the router once it runs, whose scroll restoration
// would otherwise answer the hash change on its own and undo the jump. They keep
// the page's query: on a merchant's page it holds the open form, and a link of
// the hash alone went to the page without it, closing the form and what was typed.
import { Link, useLocation } from "@remix-run/react";

export interface PageSection {
  /** The id of the section's heading. */
  id: string;
  label: string;
}

export function OnThisPage({ sections }: { sections: readonly PageSection[] }) {
  const { search } = useLocation();
  return (
    <nav className="on-this-page" aria-label="On this page">
      <h2 className="on-this-page__title">On this page</h2>
      <ul className="on-this-page__list">
        {sections.map((section) => (
          <li key={section.id}>
            <Link to={{ search, hash: section.id }} className="chip">
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
