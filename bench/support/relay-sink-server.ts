import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";

const TERMINATOR = "\r\n.\r\n";

/**
 * The relay bench:delivery delivers to (started by relay-sink.ts on a thread of its own): a minimal
 * ESMTP server (EHLO with PIPELINING, MAIL, RCPT, DATA, RSET, NOOP, QUIT) that answers every pipelined
 * command of a read in one write and keeps only each message's Message-ID. Counts go to the shared
 * array: [messages answered 250, Message-IDs seen twice, distinct Message-IDs].
 */
const counters = new Int32Array(workerData.counters as SharedArrayBuffer);
const seen = new Map<string, number>();
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
        const count = Atomics.add(counters, 0, 1) + 1;
        const messageId = /^Message-ID:\s*(\S+)/im.exec(message.slice(0, headerEnd(message)))?.[1] ?? `(none ${count})`;
        const times = (seen.get(messageId) ?? 0) + 1;
        seen.set(messageId, times);
        if (times === 1) Atomics.add(counters, 2, 1);
        if (times === 2) Atomics.add(counters, 1, 1);
        replies += `250 2.0.0 Ok: queued as Q${count}\r\n`;
        continue;
      }
      const lineEnd = input.indexOf("\r\n");
      if (lineEnd < 0) break;
      const line = input.slice(0, lineEnd);
      input = input.slice(lineEnd + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "EHLO")
        replies += "250-bench-relay\r\n250-PIPELINING\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 52428800\r\n";
      else if (verb === "HELO" || verb === "MAIL" || verb === "RCPT" || verb === "RSET" || verb === "NOOP")
        replies += "250 2.0.0 Ok\r\n";
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
server.listen(0, "127.0.0.1", () => parentPort!.postMessage({ port: (server.address() as net.AddressInfo).port }));

parentPort!.on("message", (command: string) => {
  if (command === "reset") {
    seen.clear();
    Atomics.store(counters, 0, 0);
    Atomics.store(counters, 1, 0);
    Atomics.store(counters, 2, 0);
    parentPort!.postMessage("reset");
  } else if (command === "close") {
    for (const socket of sockets) socket.destroy();
    server.close(() => process.exit(0));
  }
});

function headerEnd(message: string): number {
  const end = message.indexOf("\r\n\r\n");
  return end < 0 ? message.length : end;
}
