/**
 * Makes the upgrade fixture of the release it runs in (docs/upgrading.md#cutting-a-release): boots
 * that release on a fresh embedded database, writes a small dataset through its API
 * (write-data.ts), lets its worker deliver it, then saves what db/upgrade/upgrade.test.ts needs to
 * prove a later release keeps it: the release's migrations (its journal and each file's sha256), every row, the answers of its API GETs,
 * and the credentials to call it again.
 *
 *   npx tsx --conditions=react-server scripts/upgrade-fixture/make.ts db/upgrade/v0.1.0
 *
 * Run it in a checkout of the release's tag (copy this folder in when the tag predates it).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

const outDir = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) throw new Error("usage: make.ts OUT_DIR (e.g. db/upgrade/v0.1.0)");
/** Webhook secrets are sealed with a key derived from AUTH_SECRET: the test runs with this same one. */
const AUTH_SECRET = "upgrade-fixture-auth-secret-not-for-production";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-upgrade-fixture-"));
Object.assign(process.env, {
  NODE_ENV: "production",
  LOG_LEVEL: "silent",
  DATA_DIR: dataDir,
  AUTH_SECRET,
  APP_URL: "http://localhost:3000",
  SEED_DEMO: "false",
  DELIVERY_PROVIDER: "local",
  WEBHOOKS_ALLOW_LOCAL: "true",
});
delete process.env.DATABASE_URL;

const { sql } = await import("drizzle-orm");
const { getDb } = await import("@/db/client");
const { bootServer } = await import("@/lib/entry/boot/boot");
const { stopWorkers } = await import("@/lib/entry/worker/worker");
const { flushActivityLog } = await import("@/lib/records/activity/record-activity");
const { VERSION } = await import("@/lib/foundation/version");
const { writeFixtureData } = await import("./write-data");
const { readFixtureAnswers } = await import("./answers");
const { dumpRows, formatRows } = await import("./snapshot");

const receiver = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => response.writeHead(204).end());
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const { port } = receiver.address() as { port: number };

const server = await bootServer({ handleSignals: false, print: () => {} });
try {
  const written = await writeFixtureData(`http://127.0.0.1:${port}/hooks`);
  await settle(written.deliveredMessageIds);
  await stopWorkers(); // nothing moves while the snapshot is taken
  await flushActivityLog();
  // The rows first: the answers are then read on exactly the state the rows hold (a GET writes only
  // its activity-log entry and the key's lastUsedAt).
  const rows = await dumpRows(await getDb());
  const answers = await readFixtureAnswers(written.authorization);
  saveFixture({ answers, rows, credentials: written.credentials });
} finally {
  await server.shutdown();
  receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Until the worker has sent every message, the simulator has reported, and every webhook delivery is done. */
async function settle(messageIds: string[]) {
  const db = await getDb();
  const ids = sql.join(
    messageIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const result = await db.execute(sql`select
      (select count(*) from email_messages where id in (${ids}) and (sent_at is null
        or (to_addresses[1] like '%@simulator.postwerk.test' and delivered_at is null and first_bounced_at is null))) as unsent,
      (select count(*) from webhook_events) as events,
      (select count(*) from webhook_deliveries where status in ('succeeded', 'failed')) as done`);
    const [state] = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<
      Record<string, number | string>
    >;
    if (Number(state.unsent) === 0 && Number(state.events) > 0 && Number(state.done) === Number(state.events)) return;
    if (Date.now() > deadline) throw new Error(`the fixture did not settle: ${JSON.stringify(state)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function saveFixture(fixture: {
  answers: Record<string, unknown>;
  rows: Record<string, unknown[]>;
  credentials: unknown;
}) {
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  writeMigrationsManifest();
  fs.writeFileSync(path.join(outDir, "rows.json"), formatRows(fixture.rows as never));
  const answerLines = Object.entries(fixture.answers).map(
    ([key, answer]) => `  ${JSON.stringify(key)}: ${JSON.stringify(answer)}`,
  );
  fs.writeFileSync(path.join(outDir, "answers.json"), `{\n${answerLines.join(",\n")}\n}\n`);
  const release = { version: VERSION, madeAt: new Date().toISOString(), authSecret: AUTH_SECRET };
  fs.writeFileSync(
    path.join(outDir, "credentials.json"),
    `${JSON.stringify({ ...release, ...(fixture.credentials as object) }, null, 2)}\n`,
  );
  process.stdout.write(`Wrote the upgrade fixture of ${VERSION} to ${outDir}\n`);
}

/**
 * The release's migrations, not copied: its journal and each SQL file's sha256. The upgrade test
 * takes the files from the later checkout's db/migrations, which must still match (append-only).
 */
function writeMigrationsManifest() {
  const source = path.join(process.cwd(), "db", "migrations");
  const journal = JSON.parse(fs.readFileSync(path.join(source, "meta", "_journal.json"), "utf8"));
  const sha256: Record<string, string> = {};
  for (const { tag } of journal.entries as Array<{ tag: string }>)
    sha256[`${tag}.sql`] = createHash("sha256")
      .update(fs.readFileSync(path.join(source, `${tag}.sql`)))
      .digest("hex");
  fs.writeFileSync(path.join(outDir, "migrations.json"), `${JSON.stringify({ journal, sha256 }, null, 2)}\n`);
}
