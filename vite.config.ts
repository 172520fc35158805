import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { resolveBuildId, writeBuildIdFile } from "./scripts/build-id";
import { importAliases } from "./scripts/lib/import-aliases";
import { routeModuleLoading } from "./scripts/route-module-loading";
import { serverCodeBoundary } from "./scripts/server-code-boundary";
import { shellChunk } from "./scripts/lib/shell-chunk";
import { boundaryShellWithoutScripts } from "./scripts/boundary-shell";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

// One id per build, shared by the client and server bundles, so the client can
// tell when the deployed build (KV) has moved on. Remix evaluates this file once
// for the client build and again for the server build: keep the first id.
const buildId = (process.env.BUILD_ID = resolveBuildId());

export default defineConfig(({ isSsrBuild }) => ({
  define: { __BUILD_ID__: JSON.stringify(buildId) },
  resolve: { alias: importAliases() },
  // The browser's shared app code in one chunk (decision 043); the server bundle is one file anyway.
  build: { target: "es2022", rollupOptions: isSsrBuild ? {} : { output: { manualChunks: shellChunk() } } },
  plugins: [
    remix({
      appDirectory: "app",
      buildDirectory: "build",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
        v3_routeConfig: true,
      },
      buildEnd: () => writeBuildIdFile(buildId),
    }),
    // Fails the client build when code from functions/ would ship to the browser (decision 014).
    serverCodeBoundary(),
    // A page's code that cannot load offline fails the navigation instead of reloading the document (decision 038).
    routeModuleLoading(),
    // The browser's document scripts are the root's; Remix's <Scripts> stays on the server (decision 043).
    boundaryShellWithoutScripts(),
  ],
}));
