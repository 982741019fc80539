import fs from "node:fs";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { describe, expect } from "vitest";
import { addedLines, itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { ENCRYPTION_REQUIRED, SMTP_SERVER } from "./smtp-server";

/** Each reply's last line, in order, to the commands written one at a time. */
async function converse(port: number, commands: string[]): Promise<string[]> {
  const socket = net.connect(port, "127.0.0.1");
  socket.setEncoding("utf8");
  const replies: string[] = [];
  let buffer = "";
  let waiting: (() => void) | null = null;
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (/^\d{3} /.test(line)) {
        replies.push(line);
        waiting?.();
      }
    }
  });
  const next = (count: number) =>
    new Promise<void>((resolve) => {
      waiting = () => replies.length >= count && resolve();
      waiting();
    });
  try {
    await next(1);
    for (const command of commands) {
      socket.write(`${command}\r\n`);
      await next(replies.length + 1);
    }
    return replies.slice(1);
  } finally {
    socket.destroy();
  }
}

describe("smtp-server canary: the patch is applied", () => {
  itIsTheVersionWrittenFor(SMTP_SERVER);

  itStillHolds(SMTP_SERVER, "every line the patch adds is in node_modules/smtp-server", () => {
    const files = addedLines(fs.readFileSync(path.join(process.cwd(), SMTP_SERVER.patch), "utf8"));
    expect([...files.keys()].sort()).toEqual(
      ["dist/cjs/smtp-connection.js", "dist/esm/smtp-connection.js"].map((file) => `node_modules/smtp-server/${file}`),
    );
    for (const [file, lines] of files) {
      const installed = fs.readFileSync(path.join(process.cwd(), file), "utf8").split("\n");
      const missing = lines.filter((line) => !installed.includes(line));
      expect(
        missing,
        `${file} lacks lines of ${SMTP_SERVER.patch}: run \`npx patch-package --patch-dir internals/patches\``,
      ).toEqual([]);
    }
  });

  itStillHolds(
    SMTP_SERVER,
    "a server offering STARTTLS refuses AUTH before it with 538 5.7.11, before asking for a password",
    async () => {
      const server = new SMTPServer({
        authMethods: ["PLAIN", "LOGIN"],
        logger: false,
        onAuth: (_auth, _session, done) => done(null, { user: "x" }),
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      try {
        const { port } = server.server.address() as AddressInfo;
        const replies = await converse(port, ["EHLO canary.test", "AUTH LOGIN", "AUTH PLAIN AGEAYg=="]);
        expect(replies[0]).toMatch(/^250 /);
        expect(replies.slice(1)).toEqual([`538 ${ENCRYPTION_REQUIRED}`, `538 ${ENCRYPTION_REQUIRED}`]);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );
});
