import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, describe, expect, it, vi } from "vitest";
import { getDbHandle } from "@/db/client";
import { workspaces } from "@/db/schema";
import { authenticateApiKey } from "@/lib/domain/api-keys/authenticate-api-key";
import { basicAuthHeader } from "@/lib/domain/api-keys/create-api-key";
import { randomBase62 } from "@/lib/foundation/ids";
import { setLogLevel } from "@/lib/foundation/log";
import { getQueue, QUEUES } from "@/lib/records/queue/queue";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { useSettings } from "@/lib/testing/settings";
import { RawSmtp, smtpClient } from "@/lib/entry/submission/testing";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { bootServer } from "./boot";
import { DataDirBusyError } from "./data-dir-lock";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-boot-"));
const lockFile = path.join(dataDir, "server.pid");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/**
 * bootServer runs on the test's installed database (getDbHandle returns it); DATABASE_URL is
 * overridden to "embedded" so the DATA_DIR lock is exercised on both test databases. shutdown()
 * closes the database, so the successful boot is the file's last test.
 */
describe("bootServer", () => {
  it("refuses to start while another live process holds DATA_DIR, touching nothing", async () => {
    fs.writeFileSync(lockFile, `${process.ppid}\nserver\n`);
    await expect(
      bootServer({ settings: { DATABASE_URL: undefined, DATA_DIR: dataDir }, handleSignals: false }),
    ).rejects.toBeInstanceOf(DataDirBusyError);
    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.ppid}\nserver\n`);
    fs.rmSync(lockFile);
    // The database is still open and usable.
    const { db } = await getDbHandle();
    await db.select({ value: count() }).from(workspaces);
  });

  it("takes the lock, migrates, starts queue and workers, seeds an empty database; shutdown undoes it all", async () => {
    const { db, driver } = await getDbHandle();
    const [before] = await db.select({ value: count() }).from(workspaces);
    // On the shared PostgreSQL database other files' workspaces exist; make "not empty" certain there.
    if (driver === "postgres") await createWorkspace({ name: "Existing" });
    const expectSeed = driver === "pglite" && before.value === 0;

    const seedKey = `key_${randomBase62(16)}:${randomBase62(40)}`;
    const printed: string[] = [];
    // The bounce listener starts with the server when SMTP_INBOUND_PORT is set (0: a free port).
    useSettings({ SMTP_INBOUND_PORT: "0", SMTP_INBOUND_HOST: "127.0.0.1", BOUNCE_DOMAIN: "bounces.example.com" });
    const smtp = { SMTP_SUBMISSION_PORT: 0, SMTP_SUBMISSION_HOST: "127.0.0.1", SMTP_ALLOW_INSECURE_AUTH: true };
    const settings = {
      DATABASE_URL: undefined,
      DATA_DIR: dataDir,
      SEED_DEMO: true,
      SEED_API_KEY: seedKey,
      RUN_WORKER: false,
      ...smtp,
    };
    // The log is silent in tests: turned on and caught here to read the "server ready" line.
    const logged: string[] = [];
    setLogLevel("info");
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => logged.push(String(chunk)) > 0);
    const server = await bootServer({ settings, print: (line) => printed.push(line), handleSignals: false }).finally(
      () => {
        stdout.mockRestore();
        setLogLevel("silent");
      },
    );
    const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
    const ready = logged
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .find((line) => line.message === "server ready");
    expect(ready).toMatchObject({ level: "info", version, database: driver, workers: true });
    expect(await bootServer({ settings, handleSignals: false })).toBe(server); // once per process
    expect(server.inboundPort).toBeGreaterThan(0);
    expect(await smtpGreeting(server.inboundPort!)).toMatch(/^220 .*Postwerk inbound mail/);

    expect(fs.readFileSync(lockFile, "utf8")).toBe(`${process.pid}\nserver\n`);
    expect(server.embedded).toBe(true);
    // Embedded: the worker runs in the server process even with RUN_WORKER=false.
    expect(server.workersStarted).toBe(true);
    const boss = await getQueue();
    expect(await boss.getQueue(QUEUES.deliverMessage)).toBeTruthy();

    if (expectSeed) {
      expect(server.seed?.status).toBe("created");
      expect(printed[0]).toBe(`Postwerk ${version}`);
      const text = printed.join("\n");
      expect(text).toContain("Dashboard:    http://localhost:3000/");
      expect(text).toContain(`-u '${seedKey}'`);
      expect(text).toContain("/api/v1/email_messages");
      const [username, password] = seedKey.split(":");
      const principal = await authenticateApiKey(basicAuthHeader(username, password));
      if (server.seed?.status === "created") expect(principal.workspaceId).toBe(server.seed.workspace.id);
    } else {
      expect(server.seed).toEqual({ status: "skipped" });
      expect(printed).toEqual([]);
    }

    // The SMTP submission listener runs in the server process (embedded mode) and takes mail.
    const sender = await createTestWorkspace();
    const info = await smtpClient(server.submission!.port!, {
      user: sender.key.id,
      pass: sender.key.password,
    }).sendMail({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Through the embedded server",
      text: "x",
    });
    expect(info.response).toMatch(/^250 2\.0\.0 OK em_/);

    await server.shutdown();
    await server.shutdown();
    expect(fs.existsSync(lockFile)).toBe(false);
    await expect(smtpGreeting(server.inboundPort!)).rejects.toThrow(/ECONNREFUSED/);
    useSettings({ SMTP_INBOUND_PORT: undefined, SMTP_INBOUND_HOST: undefined, BOUNCE_DOMAIN: undefined });
    await expect(RawSmtp.connect(server.submission!.port!)).rejects.toThrow(/ECONNREFUSED/);
  });
});

/** The first line an SMTP server sends on a new connection. */
function smtpGreeting(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("data", (chunk) => {
      socket.destroy();
      resolve(chunk.toString("utf8"));
    });
    socket.once("error", reject);
  });
}
