/**
 * The floors of lib/ (docs/architecture.md#floors), checked by `npm run lint`.
 *
 * FLOORS lists lib/'s folders (and its single-file modules) from the ground up. A folder may import
 * what is listed before it, never what is listed after it: so the folder graph has no cycle, and a
 * new import that would tie two folders together fails CI with the rule's name. Where a new folder
 * goes: above everything it imports and below everything that imports it. Tests and lib/testing/
 * (fixtures, fakes) may import anything.
 */
const FLOORS = [
  // 1 foundation: imports nothing of lib/ but itself
  [
    "env",
    "inbound-listener",
    "version",
    "clock",
    "short-lived-cache",
    "errors",
    "ids",
    "tracing",
    "log",
    "tls-files",
    "group-commit",
    "metrics",
    "plural.shared",
    "validation.shared",
    "pagination",
    "crypto",
    "addresses",
    "access",
  ].map((name) => `foundation/${name}`),
  // 3 records (db/ is floor 2): facts and the work they cause, written in one transaction
  ["retention", "partitions", "timeline", "queue", "activity", "audit"].map((name) => `records/${name}`),
  // 4 domain: each its own tables and rules
  [
    "users",
    "domains",
    "api-keys",
    "contacts",
    "attachments",
    "templates",
    "batches",
    "inbox",
    "insights",
    "messages",
    "workspaces",
    "suppressions",
    "tracking",
    "unsubscribe",
    "inbound",
    "providers",
  ].map((name) => `domain/${name}`),
  // 5 sending: the one accept path
  ["sending"],
  // 6 delivery: the outside world (provider events in, the pipeline out)
  ["delivery/provider-events", "delivery"],
  // 7 flows: use cases built on sending
  ["workflows", "members", "auth", "setup", "webhooks", "inbound", "retention", "content"].map(
    (name) => `flows/${name}`,
  ),
  // 8 entry points: adapt a way in to the use cases
  ["api", "mcp", "http", "observability", "process", "inbound", "worker", "submission", "boot", "cli"].map(
    (name) => `entry/${name}`,
  ),
];

const order = FLOORS.flat();
const escape = (name) => name.replace(/[.]/g, "\\.");
const pathOf = (names) => `^lib/(${names.map(escape).join("|")})(/|\\.|$)`;
const tests = "\\.(test|spec)\\.tsx?$|^lib/testing/|(^|/)(testing|test-helpers)\\.ts$";

const floorRules = order.slice(0, -1).map((name, index) => ({
  name: `floor:${name}`,
  comment: `lib/${name} may import only what docs/architecture.md#floors lists below it.`,
  severity: "error",
  from: { path: pathOf([name]), pathNot: tests },
  to: { path: pathOf(order.slice(index + 1)), pathNot: pathOf([name]), dependencyTypesNot: ["type-only"] },
}));

/**
 * lib/delivery/pipeline/ reads in step order (lib/delivery/deliver-batch.ts calls the numbered steps):
 * a step imports no later step and not the orchestrator, an earlier step only for its types; claims.ts,
 * which every step may use, imports none of them.
 */
const pipeline = "^lib/delivery/pipeline/";
const pipelineRules = [0, 1, 2, 3, 4, 5, 6, 7].flatMap((step) => {
  const from = { path: step === 0 ? `${pipeline}claims\\.ts$` : `${pipeline}${step}-`, pathNot: tests };
  const later = { path: `^lib/delivery/deliver-batch\\.ts$|${pipeline}[${step + 1}-9]-` };
  const earlier = { path: `${pipeline}[1-${step - 1}]-`, dependencyTypesNot: ["type-only"] };
  const comment = "The delivery pipeline reads top to bottom (docs/architecture.md#the-path-of-a-send).";
  return [
    { name: `pipeline:${step}-to-later`, comment, severity: "error", from, to: later },
    ...(step > 1 ? [{ name: `pipeline:${step}-to-earlier`, comment, severity: "error", from, to: earlier }] : []),
  ];
});

module.exports = {
  forbidden: [
    ...floorRules,
    ...pipelineRules,
    {
      name: "lib-folder-unlisted",
      comment: "Every folder of lib/ has its place in FLOORS (.dependency-cruiser.cjs).",
      severity: "error",
      from: { path: "^lib/", pathNot: `${tests}|${pathOf(order)}` },
      to: {},
    },
    {
      name: "no-circular",
      comment: "No module imports itself through others.",
      severity: "error",
      from: { pathNot: tests },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "lib-not-to-app",
      comment: "lib/ never imports app/, components/ or next/*: it is called by them.",
      severity: "error",
      from: { path: "^lib/", pathNot: tests },
      to: { path: "^(app|components)/|^node_modules/next/" },
    },
    {
      name: "app-not-to-db",
      comment: "Pages, routes and components call use cases in lib/, never the database.",
      severity: "error",
      from: { path: "^(app|components)/", pathNot: tests },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "internals-only-to-dependencies",
      comment:
        "internals/ holds the reaches into dependencies' internals (docs/architecture.md#dependency-internals); it imports nothing of ours, so every floor may use it.",
      severity: "error",
      from: { path: "^internals/", pathNot: tests },
      to: { path: "^(app|components|lib|db|server|bench|scripts)/|^(instrumentation|proxy)\\.ts$" },
    },
    {
      name: "db-only-to-foundation",
      comment: "db/ (floor 2) uses only the foundation (floor 1) of lib/.",
      severity: "error",
      from: { path: "^db/", pathNot: tests },
      to: { path: "^lib/", pathNot: "^lib/foundation/" },
    },
    {
      name: "foundation-not-to-db",
      comment: "The foundation (floor 1) stands below db/ (floor 2): it never imports it.",
      severity: "error",
      from: { path: "^lib/foundation/", pathNot: tests },
      to: { path: "^db/", dependencyTypesNot: ["type-only"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|\\.next|\\.data|test-results|playwright-report)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
