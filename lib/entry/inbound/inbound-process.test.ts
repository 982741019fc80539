import net from "node:net";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/foundation/env";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { fixtureReport, inboundClient, insertSentMessage, startInboundProcess } from "./testing";

/**
 * `npm run inbound` as its own process: it needs DATABASE_URL (the embedded database has one owner,
 * the server), records what it receives into the shared database, and stops cleanly on SIGTERM.
 */
describe("npm run inbound", () => {
  it("refuses to start without DATABASE_URL, saying why", async () => {
    const inbound = startInboundProcess({ DATABASE_URL: "" });
    await expect(inbound.port).rejects.toThrow(/needs DATABASE_URL/);
    expect(await inbound.stop()).toBe(1);
  });

  it.skipIf(!process.env.DATABASE_URL)(
    "records a bounce received over SMTP and exits 0 on SIGTERM",
    { timeout: 60_000 },
    async () => {
      const healthPort = await freePort();
      const inbound = startInboundProcess({
        DATABASE_URL: process.env.DATABASE_URL,
        AUTH_SECRET: env().AUTH_SECRET,
        INBOUND_HEALTH_PORT: String(healthPort),
      });
      try {
        const port = await inbound.port;
        expect((await fetch(`http://127.0.0.1:${healthPort}/health/ready`)).status).toBe(200);
        const { workspace } = await createTestWorkspace();
        const sent = await insertSentMessage(workspace.id);
        const raw = fixtureReport("gmail-dsn.eml", {
          to: sent.returnPath,
          returnPath: sent.returnPath,
          recipient: "ada@example.org",
          messageId: sent.messageIdHeader,
        });
        const client = inboundClient(port);
        const info = await client.sendMail({ envelope: { from: "", to: [sent.returnPath] }, raw });
        client.close();
        expect(info.response).toMatch(/^250 /);
        expect((await readMessageState(sent.id)).codes.at(-1)).toBe("EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT");
      } finally {
        expect(await inbound.stop()).toBe(0);
      }
    },
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
