import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceiverMode = "ok" | "fail" | "timeout" | "close" | "redirect";

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** How the next requests are answered (a function decides per request). */
  mode: ReceiverMode | ((request: ReceivedWebhook) => ReceiverMode);
  /** Milliseconds to wait before answering (to hold requests in flight). */
  delayMs: number;
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** A real HTTP server standing in for a customer's webhook receiver: answers 200, 500, never, closes the socket, or redirects. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const sockets = new Set<import("node:net").Socket>();
  const receiver: WebhookReceiver = {
    url: "",
    received: [],
    mode: "ok",
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const entry: ReceivedWebhook = {
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      };
      receiver.received.push(entry);
      receiver.inFlight++;
      receiver.maxInFlight = Math.max(receiver.maxInFlight, receiver.inFlight);
      const mode = typeof receiver.mode === "function" ? receiver.mode(entry) : receiver.mode;
      if (receiver.delayMs) await new Promise((resolve) => setTimeout(resolve, receiver.delayMs));
      receiver.inFlight--;
      if (mode === "timeout") return;
      if (mode === "close") return request.socket.destroy();
      if (mode === "redirect") return response.writeHead(302, { location: "http://127.0.0.1:1/elsewhere" }).end();
      response
        .writeHead(mode === "ok" ? 200 : 500, { "content-type": "text/plain" })
        .end(mode === "ok" ? "thanks" : "x".repeat(10_000));
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
