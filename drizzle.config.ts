import { defineConfig } from "drizzle-kit";

// Only used to generate SQL migrations from db/schema; the app applies them with db/migrate.ts.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema/index.ts",
  out: "./db/migrations",
});
