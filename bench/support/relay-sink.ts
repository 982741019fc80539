import { Worker } from "node:worker_threads";

/** What the benchmark's stand-in relay saw. */
export interface RelaySink {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Messages answered 250 since the last reset. */
  received(): number;
  /** Message-IDs seen more than once since the last reset (each delivered twice or more). */
  duplicates(): number;
  /** Distinct Message-IDs since the last reset: received() minus this is the extra copies. */
  distinct(): number;
  reset(): Promise<void>;
  waitForMessages(count: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the stand-in relay (relay-sink-server.ts) on a thread of its own. Why not the tests'
 * smtp-server sink: on the benchmark's 2 shared cores it costs about 0.4 ms of CPU per message (a reply
 * write per command, streams per message), time a real relay spends on its own machine. Why a thread:
 * on the benchmark's event loop, every sendBatch call would hold the relay's answers back and the
 * workers' SMTP sessions with them, which a relay elsewhere never does. The tests keep smtp-server,
 * which checks far more of the protocol.
 */
export async function startRelaySink(): Promise<RelaySink> {
  const counters = new Int32Array(new SharedArrayBuffer(12));
  // A thread gets no loader hooks of its own: it registers tsx's before importing the TypeScript file.
  const bootstrap = `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(
    new URL("./relay-sink-server.ts", import.meta.url).href,
  )}); });`;
  const thread = new Worker(bootstrap, { eval: true, workerData: { counters: counters.buffer } });
  const port = await new Promise<number>((resolve, reject) => {
    thread.once("error", reject);
    thread.once("message", (message: { port: number }) => resolve(message.port));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    received: () => Atomics.load(counters, 0),
    duplicates: () => Atomics.load(counters, 1),
    distinct: () => Atomics.load(counters, 2),
    reset: () =>
      new Promise<void>((resolve) => {
        thread.once("message", () => resolve());
        thread.postMessage("reset");
      }),
    async waitForMessages(wanted, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (Atomics.load(counters, 0) < wanted) {
        if (Date.now() > deadline)
          throw new Error(`the relay sink got ${Atomics.load(counters, 0)} of ${wanted} messages in time`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        thread.once("exit", () => resolve());
        thread.postMessage("close");
      }),
  };
}
