/**
 * The outside world of `npm run bench:inbound`, in a process of its own so the listener's CPU is measured apart: the
 * customers' DNS (lib/testing/dns-server.ts holding their SPF, DKIM and DMARC records, as a resolver near the MX would)
 * and their MTAs (one pooled nodemailer client, several connections). Driven over IPC:
 *   → { dnsPort }                       once started
 *   ← { build: { from, count } }        → { built: count, bytes }   (signed before the clock starts)
 *   ← { send: { port, connections } }   → { sent, refused, cpuMs }  (every mail built and not yet sent; this process's CPU)
 */
import nodemailer from "nodemailer";
import { startDnsServer } from "@/lib/testing/dns-server";
import { buildBenchMails, newSenderKey, senderDnsRecords, type BenchMail } from "./inbound-mail";

type Command = { build: { from: number; count: number } } | { send: { port: number; connections: number } };

async function main(): Promise<void> {
  const dns = await startDnsServer();
  const key = newSenderKey();
  for (const [name, records] of senderDnsRecords(key)) dns.setTxt(name, records);
  let pending: BenchMail[] = [];
  process.on("message", (command: Command) => {
    const done =
      "build" in command
        ? buildBenchMails(key, command.build.from, command.build.count).then((mails) => {
            pending = mails;
            return { built: mails.length, bytes: mails.reduce((sum, mail) => sum + mail.raw.length, 0) };
          })
        : sendAll(pending, command.send.port, command.send.connections);
    done.then(
      (reply) => process.send!(reply),
      (error: Error) => process.send!({ error: error.stack ?? error.message }),
    );
  });
  process.on("disconnect", () => void dns.close().then(() => process.exit(0)));
  process.send!({ dnsPort: dns.port });
}

/** All at once through one pool, as an MTA with a queue for the MX would; a refusal is counted, not retried. */
async function sendAll(mails: BenchMail[], port: number, connections: number) {
  const client = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: connections,
    maxMessages: Infinity,
  });
  let refused = 0;
  const cpu = process.cpuUsage();
  try {
    await Promise.all(
      mails.map((mail) =>
        client.sendMail({ envelope: mail.envelope, raw: mail.raw }).catch(() => {
          refused += 1;
        }),
      ),
    );
  } finally {
    client.close();
  }
  const used = process.cpuUsage(cpu);
  return { sent: mails.length - refused, refused, cpuMs: (used.user + used.system) / 1000 };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
