import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer } from "node:net";
import { waitFor } from "./wait-for";

/** Debian's spamd (package spamassassin), when installed. */
export const SPAMD_BINARY = ["/usr/sbin/spamd", "/usr/bin/spamd"].find((path) => existsSync(path));

export interface RealSpamd {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts SpamAssassin's spamd on a free loopback port, local tests only (no DNS), one child, and resolves
 * once it has answered a PING. Its port accepts connections while spamd is still loading its rules, before
 * anything answers: a check sent then would wait out its timeout on a slow machine, so a connection is no
 * sign of readiness; the PONG is. A separate module, so a test file using it imports no process API itself.
 */
export async function startRealSpamd(binary: string): Promise<RealSpamd> {
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const spamd = spawn(
    binary,
    [
      `--listen=127.0.0.1:${port}`,
      "--allowed-ips=127.0.0.1",
      "--nouser-config",
      "--max-children=1",
      "--local", // no DNS-based tests: the verdict depends on the mail only
      "--syslog=stderr",
      ...(asRoot ? ["-u", "nobody"] : []),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  spamd.stdout?.on("data", (chunk) => (output += chunk));
  spamd.stderr?.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    if (spamd.exitCode !== null || spamd.signalCode !== null) return;
    const exited = new Promise((resolve) => spamd.once("exit", resolve));
    spamd.kill("SIGTERM");
    await exited;
  };
  try {
    await waitFor(
      async () => {
        if (spamd.exitCode !== null) throw new Error(`spamd exited (${spamd.exitCode}): ${output.slice(-2000)}`);
        return pongs(port);
      },
      { what: `spamd answering PING on 127.0.0.1:${port}`, timeout: 90_000, every: 100 },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `spamd://127.0.0.1:${port}`, stop };
}

/** One PING of the spamc protocol: true on spamd's PONG, false on a refused or closed connection. */
function pongs(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = "";
    const socket = connect({ host: "127.0.0.1", port }, () => socket.end("PING SPAMC/1.5\r\n\r\n"));
    // Unanswered for a while (still loading its rules): asked again, so waitFor's deadline holds.
    socket.setTimeout(5_000, () => socket.destroy());
    socket.on("data", (chunk) => (reply += chunk.toString("latin1")));
    socket.once("close", () => resolve(/ PONG\r?\n/.test(reply)));
    socket.once("error", () => resolve(false));
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
