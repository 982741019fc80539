import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDbHandle, installDbHandle, type DbHandle } from "@/db/client";
import { migrateDatabase, pendingMigrations } from "@/db/migrate";
import { webhookEndpoints } from "@/db/schema";
import { basicAuthHeader } from "@/lib/domain/api-keys/create-api-key";
import { openSecret } from "@/lib/flows/webhooks/signing";
import { getQueue, stopQueue } from "@/lib/records/queue/queue";
import { startWorkers, stopWorkers } from "@/lib/entry/worker/worker";
import { callApi } from "@/lib/testing/http";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { readAnswer, type Answers } from "@/scripts/upgrade-fixture/answers";
import { dumpRows, loadRows, type Rows } from "@/scripts/upgrade-fixture/snapshot";
import type { FixtureCredentials } from "@/scripts/upgrade-fixture/write-data";
import { answerDifferences, missingRows, type AllowedDifference } from "./compare";
import { applyMigrationsFrom, openEmptyDatabase } from "./empty-database";

/**
 * Upgrading from each release to HEAD (docs/upgrading.md#what-the-upgrade-test-proves): a fresh
 * database gets the release's own migrations and the rows its code wrote (db/upgrade/<version>/,
 * made by scripts/upgrade-fixture/make.ts in that release), then HEAD's migrator, the one boot and
 * `db migrate` run. Every row must still hold every value it had, HEAD's API must answer every GET
 * the release answered with the same data, the release's keys and webhook secrets must still work,
 * and a new message must go out.
 */
const UPGRADE = path.join(process.cwd(), "db", "upgrade");
const releases = fs.readdirSync(UPGRADE).filter((name) => /^v\d+\.\d+\.\d+$/.test(name));

/** What HEAD may answer differently from a release, and why that is not a regression. Keep it short. */
const ALLOWED_ANSWER_DIFFERENCES: AllowedDifference[] = [
  {
    path: /^\/v1\/api_keys$/,
    field: /^data\[\d+\]\.lastUsedAt$/,
    why: "every call moves it, the test's own calls included",
  },
];

const read = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

describe.each(releases)("upgrading from %s to HEAD", (release) => {
  const folder = path.join(UPGRADE, release);
  const credentials: FixtureCredentials & { authSecret: string } = read(path.join(folder, "credentials.json"));
  const releaseRows: Rows = read(path.join(folder, "rows.json"));
  const releaseAnswers: Answers = read(path.join(folder, "answers.json"));
  const authorization = basicAuthHeader(credentials.apiKey.id, credentials.apiKey.secret);
  const testSecret = process.env.AUTH_SECRET;
  let harness: DbHandle;
  let database: Awaited<ReturnType<typeof openEmptyDatabase>>;
  let upgradedRows: Rows;

  beforeAll(async () => {
    harness = await getDbHandle();
    // The release sealed its webhook secrets with a key derived from this AUTH_SECRET.
    useSettings({ AUTH_SECRET: credentials.authSecret });
    database = await openEmptyDatabase();
    await applyMigrationsFrom(database.handle, release);
    await loadRows(database.handle.db, releaseRows);
    installDbHandle(database.handle);
    await migrateDatabase(database.handle);
    upgradedRows = await dumpRows(database.handle.db);
  });

  afterAll(async () => {
    await stopWorkers();
    await stopQueue();
    installDbHandle(harness);
    await database?.drop();
    useSettings({ AUTH_SECRET: testSecret });
  });

  it("applies every migration HEAD has and the release lacked", async () => {
    expect(await pendingMigrations(database.handle)).toEqual([]);
    const [{ count }] = await database.handle.db
      .select({ count: sql<number>`count(*)::int` })
      .from(sql`drizzle.__drizzle_migrations`);
    const headJournal = read(path.join(process.cwd(), "db", "migrations", "meta", "_journal.json"));
    expect(count).toBe(headJournal.entries.length);
  });

  it("keeps every row of the release, each column it had with the value it had", () => {
    const tables = Object.keys(releaseRows);
    expect(tables.length).toBeGreaterThan(20);
    expect(Object.values(releaseRows).flat().length).toBeGreaterThan(100);
    for (const table of tables) expect(upgradedRows, `table ${table}`).toHaveProperty(table);
    expect(missingRows(releaseRows, upgradedRows)).toEqual([]);
  });

  it("answers every GET the release answered with the same data (fields may be added)", async () => {
    const paths = Object.keys(releaseAnswers);
    expect(paths.length).toBeGreaterThan(30);
    const differences: string[] = [];
    for (const route of paths) {
      const now = await readAnswer(route, authorization);
      for (const difference of answerDifferences(releaseAnswers[route], now)) {
        const field = difference.slice(0, difference.indexOf(":"));
        const allowed = ALLOWED_ANSWER_DIFFERENCES.some(
          (rule) => rule.path.test(route) && rule.field.test(field.replace(/^body\./, "")),
        );
        if (!allowed) differences.push(`GET ${route} ${difference}`);
      }
    }
    expect(differences).toEqual([]);
  });

  it("still takes the release's keys, with their scopes, and opens its webhook secrets", async () => {
    expect((await callApi("/v1/api_keys", { authorization })).status).toBe(200);
    const sending = basicAuthHeader(credentials.sendingKey.id, credentials.sendingKey.secret);
    expect((await callApi("/v1/api_keys", { authorization: sending })).json.error.code).toBe("FORBIDDEN");
    const wrong = basicAuthHeader(credentials.apiKey.id, `${credentials.apiKey.secret}x`);
    expect((await callApi("/v1/api_keys", { authorization: wrong })).status).toBe(401);
    for (const [id, secret] of Object.entries(credentials.webhookSecrets)) {
      const [endpoint] = await database.handle.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      expect(openSecret(endpoint.secretEncrypted)).toBe(secret);
    }
  });

  it("sends a new message from the release's template with the release's key", async () => {
    const templates = releaseAnswers["/v1/templates"].body as { data: Array<{ id: string; name: string }> };
    const welcome = templates.data.find((template) => template.name === "Welcome")!;
    await getQueue(); // installs pg-boss's schema here, as boot does
    const sent = await callApi("/v1/email_messages", {
      authorization,
      body: { to: "ada@example.org", templateId: welcome.id, variables: { name: "Ada" } },
    });
    expect(sent.status, sent.text).toBe(201);
    expect(sent.json.data.subject).toBe("Welcome aboard, Ada"); // the template's second version
    await startWorkers();
    const delivered = await waitFor(
      async () => {
        const answer = await callApi(`/v1/email_messages/${sent.json.data.id}`, { authorization });
        return answer.json.data.sentAt && answer.json.data;
      },
      { what: "the new message to be sent" },
    );
    expect(delivered.status).toBe("SUCCEEDED");
  });
});
