import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * A dependency's non-public modules and members are reached only from internals/, one file per
 * dependency (docs/architecture.md#dependency-internals). Type-only imports are allowed (nodemailer's
 * types live under nodemailer/lib); tests and lib/testing/ may import a dependency's internals as the
 * reference they compare against, never touch its private members.
 */
const internals =
  "reach a dependency's internals only through internals/<dependency>.ts (docs/architecture.md#dependency-internals).";
const PRIVATE_PATH =
  "/^(nodemailer\\/(lib|dist)|pg-boss\\/dist|@electric-sql\\/pglite\\/dist|drizzle-orm\\/[^/]+\\/session|postgres\\/(src|cjs|cf)|next\\/dist)(\\/|$)/";
const privateImports = [
  `ImportDeclaration[importKind!='type'][source.value=${PRIVATE_PATH}]`,
  `ExportNamedDeclaration[exportKind!='type'][source.value=${PRIVATE_PATH}]`,
  `ExportAllDeclaration[source.value=${PRIVATE_PATH}]`,
  `ImportExpression[source.value=${PRIVATE_PATH}]`,
  `CallExpression[callee.name='require'][arguments.0.value=${PRIVATE_PATH}]`,
].map((selector) => ({ selector, message: `A dependency's non-public module: ${internals}` }));
const privateMembers = [
  ["property.name='_'", "Drizzle's `db._`"],
  ["property.name=/^_run/", "PGlite's `_run…` locks"],
  ["property.name=/^execProtocol/", "PGlite's wire protocol"],
  ["property.name='prepareQuery'", "Drizzle's session `prepareQuery`"],
  ["property.name=/^(parsers|serializers)$/", "PGlite's parser and serializer tables"],
  ["object.name='Column'][property.name='prototype'", "Drizzle's `Column.prototype`"],
  ["property.name='_httpMessage'", "node:http's `socket._httpMessage`"],
].map(([match, what]) => ({
  selector: `MemberExpression[computed=false][${match}]`,
  message: `${what}, not public: ${internals}`,
}));
const tests = ["**/*.test.ts", "**/*.test.tsx", "lib/testing/**"];

/** Layering rules of docs/architecture.md#layering are enforced here, not only written down. */
const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      "dist/**", // the process bundles npm run build writes (scripts/build-processes.mjs)
      "node_modules/**",
      ".data/**",
      "db/migrations/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    // Tests set up and assert on rows directly; the rule is for the code they test.
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["@/db", "@/db/*"], message: "app/ and components/ call lib/ use cases; they never import db/." },
          ],
        },
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
        {
          patterns: [
            { group: ["next", "next/*", "@/app/*"], message: "lib/ is transport-neutral: no next/* or app/ imports." },
          ],
        },
      ],
    },
  },
  {
    ignores: ["internals/**", ...tests],
    rules: { "no-restricted-syntax": ["error", ...privateImports, ...privateMembers] },
  },
  { files: tests, ignores: ["internals/**"], rules: { "no-restricted-syntax": ["error", ...privateMembers] } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
];

export default config;
