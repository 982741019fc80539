import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { startInboundServer, type InboundServer } from "@/lib/entry/inbound/inbound-server";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { cli } from "../testing";

const DOMAIN = "in.cli-send.test";
let inbound: InboundServer;
let workspaceId: string;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-inbound-send-"));

beforeAll(async () => {
  const ws = await createTestWorkspace();
  workspaceId = ws.workspace.id;
  const domain = await addTestInboundDomain(workspaceId, DOMAIN);
  await domain.route({ pattern: `support@${DOMAIN}`, actions: [{ type: "webhook" }] });
  inbound = await startInboundServer({
    port: 0,
    host: "127.0.0.1",
    bounceDomain: null,
    maxBytes: 100_000,
    maxConnections: 5,
    timeoutMs: 10_000,
  });
});

afterAll(async () => {
  await inbound.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

describe("npm run cli -- inbound send FILE.eml", () => {
  it("hands the file to the listener over SMTP (envelope from its headers), which stores it; a refusal exits non-zero", async () => {
    const file = path.join(folder, "question.eml");
    fs.writeFileSync(
      file,
      `From: Ada <ada@example.org>\r\nTo: support@${DOMAIN}\r\nSubject: A question\r\nMessage-ID: <cli-1@example.org>\r\n\r\nHello?\r\n`,
    );
    const sent = await cli(["inbound", "send", file, "--port", String(inbound.port)]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(/^Handed to 127\.0\.0\.1:\d+: 250 /);
    const rows = await (
      await getDb()
    )
      .select({ subject: inboundMessages.subject, from: inboundMessages.fromAddress })
      .from(inboundMessages)
      .where(
        and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.messageIdHeader, "<cli-1@example.org>")),
      );
    expect(rows).toEqual([{ subject: "A question", from: "ada@example.org" }]);

    const refused = await cli(["inbound", "send", file, "--to", `nobody@${DOMAIN}`, "--port", String(inbound.port)]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("5.1.1");
    const missing = await cli(["inbound", "send", path.join(folder, "absent.eml"), "--port", String(inbound.port)]);
    expect(missing.stderr).toContain("Cannot read");
  });
});
