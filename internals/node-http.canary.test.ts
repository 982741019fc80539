import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect } from "vitest";
import { itIsTheVersionWrittenFor, itStillHolds } from "./canary";
import { NODE_HTTP, responseOnSocket } from "./node-http";

describe("node:http canary: the response in progress on a socket", () => {
  itIsTheVersionWrittenFor(NODE_HTTP);

  itStillHolds(NODE_HTTP, "a request's socket holds its ServerResponse, and that response its request", async () => {
    const seen: Array<{ same: boolean; req: boolean }> = [];
    const server = http.createServer((req, res) => {
      const inProgress = responseOnSocket(req.socket);
      seen.push({ same: inProgress === res, req: inProgress?.req === req });
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("ok");
      expect(seen).toEqual([{ same: true, req: true }]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
