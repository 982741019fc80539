import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, installDbHandle, openPostgres } from "@/db/client";
import { createEndpoint } from "@/lib/flows/webhooks/manage-endpoints";
import { acquireDataDirLock } from "@/lib/entry/boot/data-dir-lock";
import { stopQueue } from "@/lib/records/queue/queue";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { onDiskDatabases } from "@/lib/testing/on-disk-database";
import { useSettings } from "@/lib/testing/settings";
import { cli, recreateEmptyDatabase } from "../testing";

const postgresUrl = process.env.DATABASE_URL;
const disk = await onDiskDatabases();

beforeAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: "true", WEBHOOKS_ALLOW_HTTP: "true" }));
afterAll(() => useSettings({ WEBHOOKS_ALLOW_PRIVATE: undefined, WEBHOOKS_ALLOW_HTTP: undefined, DATA_DIR: undefined }));

/** A workspace with a key, a template, a webhook endpoint and a sent message, made through the use cases. */
async function createData() {
  const ws = await createTestWorkspace();
  await ws.createTemplate();
  await createEndpoint(ws.workspace.id, { url: "http://127.0.0.1:9/hooks", eventTypes: ["email.bounced"] }, "system");
  const sent = await callApi("/v1/email_messages", {
    authorization: ws.authorization,
    body: { from: "hello@example.com", to: "ada@example.org", subject: "Kept", bodyHtml: "<p>kept</p>" },
  });
  expect(sent.status).toBeLessThan(300);
  return ws.authorization;
}

/** What the API answers for the data: the same key must still authenticate after a restore. */
async function readBack(authorization: string) {
  const answers: Record<string, unknown> = {};
  for (const route of ["/v1/email_messages", "/v1/templates", "/v1/webhook_endpoints"]) {
    const answer = await callApi(route, { authorization });
    expect(answer.status, route).toBe(200);
    answers[route] = answer.json;
  }
  return answers;
}

describe.skipIf(postgresUrl)("db backup / db restore, embedded", () => {
  it("backs up under the data-dir lock, restores into an empty DATA_DIR (--force to replace), and the API answers the same", async () => {
    const dataDir = disk.tempDir("backup");
    const file = path.join(disk.tempDir("backup-file"), "postwerk.tar.gz");
    useSettings({ DATA_DIR: dataDir });
    const handle = await disk.boot(path.join(dataDir, "pglite"));
    const authorization = await createData();
    const before = await readBack(authorization);
    await stopQueue();
    await disk.close(handle);

    // A running server (another live pid holding the lock) makes both commands refuse.
    const server = acquireDataDirLock(dataDir, "server", process.ppid);
    const refused = await cli(["db", "backup", file]);
    server.release();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("stop it first");

    const backup = await cli(["db", "backup", file, "--json"]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ driver: "pglite", file, bytes: fs.statSync(file).size });
    expect(fs.readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip

    const notForced = await cli(["db", "restore", file]);
    expect(notForced.code).toBe(1);
    expect(notForced.stderr).toContain("--force");

    fs.rmSync(dataDir, { recursive: true, force: true });
    const restored = await cli(["db", "restore", file]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("up to date");
    expect((await cli(["db", "restore", file, "--force"])).code).toBe(0);

    await disk.boot(path.join(dataDir, "pglite"));
    expect(await readBack(authorization)).toEqual(before);
  });
});

describe.skipIf(!postgresUrl)("db backup / db restore, PostgreSQL", () => {
  it("pg_dump, drop and recreate the database, pg_restore, and the API answers the same", async () => {
    const file = path.join(disk.tempDir("backup-file"), "postwerk.dump");
    const authorization = await createData();
    const before = await readBack(authorization);
    await stopQueue();

    const backup = await cli(["db", "backup", file]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up the PostgreSQL database to .* KB\) in/);

    await closeDb();
    // The harness's own scratch database: dropped and made again empty, as after losing the server.
    await recreateEmptyDatabase(postgresUrl!);

    const restored = await cli(["db", "restore", file, "--json"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ driver: "postgres", pendingMigrations: 0 });

    installDbHandle(await openPostgres(postgresUrl!, 5));
    expect(await readBack(authorization)).toEqual(before);
  });

  it("names the missing tool and the command to run by hand", async () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const missing = await cli(["db", "backup", "/tmp/never.dump"]);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain("pg_dump is not on PATH");
      expect(missing.stderr).toContain("pg_dump --format=custom");
    } finally {
      process.env.PATH = path;
    }
  });
});
