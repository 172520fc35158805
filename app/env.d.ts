/// <reference types="vite/client" />

/** The id of this build, baked in by vite.config.ts; compared with the deployed one. */
declare const __BUILD_ID__: string;
