import net from "node:net";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { env } from "@/lib/foundation/env";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { waitFor } from "@/lib/testing/wait-for";
import { inboundClient, startInboundProcess } from "./testing";

/**
 * Nothing accepted is lost, nothing is stored twice: the listener process is SIGKILLed after the mail was committed
 * and before its 250 reached the sender (a proxy holds the reply back and kills the process when it sees it). The
 * sender saw no 250, so it retries, to a fresh process: the mail is stored exactly once.
 */
const DOMAIN = "in.kill.example.com";

describe("the inbound listener killed between DATA and its 250", () => {
  it.skipIf(!process.env.DATABASE_URL)(
    "leaves the committed mail, and the sender's retry stores nothing twice",
    { timeout: 90_000 },
    async () => {
      const ws = await createTestWorkspace();
      const domain = await addTestInboundDomain(ws.workspace.id, DOMAIN);
      await domain.route({ pattern: `support@${DOMAIN}`, actions: [{ type: "webhook" }] });
      const childEnv = { DATABASE_URL: process.env.DATABASE_URL, AUTH_SECRET: env().AUTH_SECRET, BOUNCE_DOMAIN: "" };
      const first = startInboundProcess(childEnv);
      const firstPort = await first.port;
      const proxy = await killingProxy(firstPort, () => first.child.kill("SIGKILL"));
      const raw = `From: ada@example.org\r\nTo: support@${DOMAIN}\r\nSubject: Once\r\nMessage-ID: <kill-1@example.org>\r\n\r\nStore me once.\r\n`;
      const envelope = { from: "ada@example.org", to: [`support@${DOMAIN}`] };
      const client = inboundClient(proxy.port);
      const attempt = await client.sendMail({ envelope, raw }).then(
        () => "250",
        (error: Error) => error.message,
      );
      client.close();
      expect(attempt).not.toBe("250");
      await waitFor(() => first.child.exitCode !== null || first.child.signalCode !== null, {
        what: "the killed listener to exit",
      });
      expect(await storedCopies(ws.workspace.id)).toBe(1);

      const second = startInboundProcess(childEnv);
      try {
        const retry = inboundClient(await second.port);
        const info = await retry.sendMail({ envelope, raw });
        retry.close();
        expect(info.response).toMatch(/^250 .*0 stored, 1 already stored/);
        expect(await storedCopies(ws.workspace.id)).toBe(1);
      } finally {
        await second.stop();
        proxy.server.close();
      }
    },
  );
});

async function storedCopies(workspaceId: string): Promise<number> {
  const rows = await (
    await getDb()
  )
    .select({ id: inboundMessages.id })
    .from(inboundMessages)
    .where(
      and(eq(inboundMessages.workspaceId, workspaceId), eq(inboundMessages.messageIdHeader, "<kill-1@example.org>")),
    );
  return rows.length;
}

/** Forwards SMTP both ways until the listener's final 250 for a mail: then kills the listener and drops the sender. */
async function killingProxy(targetPort: number, kill: () => void): Promise<{ port: number; server: net.Server }> {
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    client.pipe(upstream);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    upstream.on("data", (chunk: Buffer) => {
      if (/^250 2\.0\.0 Mail received/m.test(chunk.toString("latin1"))) {
        kill();
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as net.AddressInfo).port, server };
}
