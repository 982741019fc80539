import "./server/check-node.mjs"; // first: a clear error on an unsupported Node
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { databaseFreeTestFiles } from "./lib/testing/database-free-tests.ts";

const root = process.cwd();
const folders = ["app", "lib", "db", "internals", "components", "server", "scripts", "bench"];
// CI's second phase runs the suite again on PostgreSQL (.ci/run); a file that cannot reach a database proves
// nothing new there, so that phase asks to skip those (docs/development.md#ci).
const skipDatabaseFree = process.env.TEST_SKIP_DATABASE_FREE === "1";

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // Outside Next.js the marker package throws; tests are server code.
      "server-only": path.join(root, "lib/testing/server-only-stub.ts"),
    },
  },
  test: {
    include: [`{${folders.join(",")}}/**/*.test.{ts,tsx}`, "proxy.test.ts"],
    exclude: [...configDefaults.exclude, ...(skipDatabaseFree ? databaseFreeTestFiles(root, folders) : [])],
    globalSetup: ["lib/testing/global-setup.ts"],
    setupFiles: ["lib/testing/setup-db.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
      DATA_DIR: path.join(root, ".data", "test"),
      APP_URL: "http://localhost:3000",
      SEED_DEMO: "false",
    },
  },
});
