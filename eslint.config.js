import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["build/", "dist/", "node_modules/", ".wrangler/", "test-results/", "playwright-report/", "tmp/", "functions/worker-configuration.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Bindings reach loaders through the load context only (DESIGN.md section 3).
      "no-restricted-imports": ["error", { paths: [{ name: "cloudflare:workers", message: "Use the load context (context.cloudflare.env)." }] }],
    },
  },
  {
    files: ["functions/**/*.ts"],
    rules: {
      // functions/ is the server edge; it never depends on the UI.
      "no-restricted-imports": ["error", { patterns: [{ group: ["../app/*", "../../app/*", "~/*"], message: "functions/ must not import from app/." }] }],
    },
  },
);
