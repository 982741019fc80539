import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/** Layering rules of docs/architecture.md#layering are enforced here, not only written down. */
const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    // Tests set up and assert on rows directly; the rule is for the code they test.
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["@/db", "@/db/*"], message: "app/ and components/ call lib/ use cases; they never import db/." }] },
      ],
    },
  },
  {
    files: ["lib/**/*.{ts,tsx}"],
    // A test may drive the layer above the code it tests (a CLI test sending through the API route).
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: [{ group: ["next", "next/*", "@/app/*"], message: "lib/ is transport-neutral: no next/* or app/ imports." }] },
      ],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
