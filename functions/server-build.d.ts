// The Remix server build, bundled into the Worker by wrangler's alias
// "remix-server-build" (wrangler.toml); typed here so no build is needed to typecheck.
declare module "remix-server-build" {
  import type { ServerBuild } from "@remix-run/cloudflare";
  const build: ServerBuild;
  export = build;
}
