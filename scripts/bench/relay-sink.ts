import net from "node:net";

/** What the benchmark's stand-in relay saw. */
export interface RelaySink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Messages answered 250 since the last reset. */
  received(): number;
  /** Message-IDs seen more than once since the last reset (each delivered twice or more). */
  duplicates(): number;
  reset(): void;
  waitForMessages(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const TERMINATOR = "\r\n.\r\n";

/**
 * The relay bench:delivery delivers to: a minimal ESMTP server (EHLO with PIPELINING, MAIL, RCPT, DATA,
 * RSET, NOOP, QUIT) that answers every pipelined command of a read in one write and keeps only each
 * message's Message-ID. Why not the tests' smtp-server sink: on the benchmark's 2 shared cores it costs
 * about 0.4 ms of CPU per message (a reply write per command, streams per message), time a real relay
 * spends on its own machine; the tests keep smtp-server, which checks far more of the protocol.
 */
export async function startRelaySink(): Promise<RelaySink> {
  const seen = new Map<string, number>();
  let count = 0;
  let duplicates = 0;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.setEncoding("latin1");
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    let input = "";
    let inData = false;
    socket.write("220 bench-relay ESMTP\r\n");
    socket.on("data", (chunk: string) => {
      input += chunk;
      let replies = "";
      for (;;) {
        if (inData) {
          // "\r\n" in front so a message whose DATA is empty still ends at ".\r\n".
          const end = `\r\n${input}`.indexOf(TERMINATOR);
          if (end < 0) break;
          const message = input.slice(0, Math.max(0, end - 2));
          input = input.slice(end + TERMINATOR.length - 2);
          inData = false;
          count++;
          const messageId = /^Message-ID:\s*(\S+)/im.exec(message.slice(0, headerEnd(message)))?.[1] ?? `(none ${count})`;
          const times = (seen.get(messageId) ?? 0) + 1;
          seen.set(messageId, times);
          if (times === 2) duplicates++;
          replies += `250 2.0.0 Ok: queued as Q${count}\r\n`;
          continue;
        }
        const lineEnd = input.indexOf("\r\n");
        if (lineEnd < 0) break;
        const line = input.slice(0, lineEnd);
        input = input.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") replies += "250-bench-relay\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 52428800\r\n";
        else if (verb === "HELO" || verb === "MAIL" || verb === "RCPT" || verb === "RSET" || verb === "NOOP") replies += "250 2.0.0 Ok\r\n";
        else if (verb === "DATA") {
          replies += "354 End data with <CR><LF>.<CR><LF>\r\n";
          inData = true;
        } else if (verb === "QUIT") {
          socket.end(`${replies}221 2.0.0 Bye\r\n`);
          return;
        } else replies += "502 5.5.2 Command not implemented\r\n";
      }
      if (replies) socket.write(replies);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => count,
    duplicates: () => duplicates,
    reset() {
      count = 0;
      duplicates = 0;
      seen.clear();
    },
    async waitForMessages(wanted, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (count < wanted) {
        if (Date.now() > deadline) throw new Error(`the relay sink got ${count} of ${wanted} messages in time`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function headerEnd(message: string): number {
  const end = message.indexOf("\r\n\r\n");
  return end < 0 ? message.length : end;
}
