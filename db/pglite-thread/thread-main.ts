/**
 * The embedded database's own thread: it opens PGlite and answers the server thread's requests
 * (remote-pglite.ts) through PGlite's public query, exec, transaction and listen, so PostgreSQL's
 * work (the WASM, the wire protocol, the result parsing) leaves the thread that serves HTTP
 * (docs/architecture.md#the-embedded-database-in-its-own-thread). Run by Node as plain TypeScript
 * (type stripping), or from dist/ in the artefact: relative imports with their extension only.
 */
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { asStandaloneQuery, carryDrizzleParsers, namedStatementRunner } from "../../internals/pglite.ts";
import type { Event, Reply, Request, ThreadError, ThreadOptions } from "./protocol.ts";

interface OpenTransaction {
  tx: Transaction;
  commit(): void;
  rollback(reason: unknown): void;
  /** PGlite's transaction: settles once it has committed or rolled back. */
  done: Promise<unknown>;
}

const ROLLED_BACK = Symbol("rolled back on request");
const port = parentPort!;
const options = workerData as ThreadOptions;
const transactions = new Map<number, OpenTransaction>();
const listening = new Map<string, () => Promise<void>>();
let nextTransaction = 0;

function errorOf(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === "function") continue;
    fields[key] = typeof value === "object" && value !== null ? String(value) : value;
  }
  return { name: error.name, message: error.message, fields };
}

async function open(): Promise<PGlite> {
  if (!options.dataDir.startsWith("memory://")) fs.mkdirSync(options.dataDir, { recursive: true });
  const loadDataDir = options.loadDataDir ? new Blob([options.loadDataDir]) : undefined;
  // PGlite ships pg_trgm (the subject search's index) as a bundle loaded at every open, before any migration.
  const pglite = await PGlite.create({ dataDir: options.dataDir, loadDataDir, extensions: { pg_trgm } });
  carryDrizzleParsers(pglite);
  return pglite;
}

/** Opens a transaction that stays open, across messages, until its commit or rollback arrives. */
function begin(pglite: PGlite): Promise<number> {
  const id = ++nextTransaction;
  return new Promise((began, failed) => {
    let entry: OpenTransaction | undefined;
    const done = pglite.transaction(async (tx) => {
      const ending = new Promise<void>((commit, rollback) => {
        entry = { tx, commit, rollback, done };
      });
      transactions.set(id, entry!);
      began(id);
      await ending;
    });
    done.catch(failed).finally(() => transactions.delete(id));
  });
}

function transaction(id: number): OpenTransaction {
  const open = transactions.get(id);
  if (!open) throw new Error(`transaction ${id} is not open`);
  return open;
}

async function end(id: number, commit: boolean): Promise<null> {
  const open = transaction(id);
  if (commit) open.commit();
  else open.rollback(ROLLED_BACK);
  await open.done.catch((error: unknown) => {
    if (error !== ROLLED_BACK) throw error;
  });
  return null;
}

async function answer(pglite: PGlite, runNamed: ReturnType<typeof namedStatementRunner>, request: Request) {
  switch (request.op) {
    case "query": {
      const on = request.tx === undefined ? pglite : transaction(request.tx).tx;
      return on.query(request.text, request.params, request.rowMode ? { rowMode: request.rowMode } : undefined);
    }
    case "exec":
      return (request.tx === undefined ? pglite : transaction(request.tx).tx).exec(request.text);
    case "runNamed":
      // In a transaction the statement runs inside it; outside, as PGlite runs its own standalone query.
      if (request.tx === undefined) return asStandaloneQuery(pglite, () => runNamed(request.text, request.params));
      transaction(request.tx); // throws unless it is open
      return runNamed(request.text, request.params);
    case "begin":
      return begin(pglite);
    case "commit":
    case "rollback":
      return end(request.tx, request.op === "commit");
    case "listen":
      if (!listening.has(request.channel)) {
        const notify = (payload: string) =>
          port.postMessage({ event: "notify", channel: request.channel, payload } satisfies Event);
        listening.set(request.channel, await pglite.listen(request.channel, notify));
      }
      return null;
    case "unlisten":
      await listening.get(request.channel)?.();
      listening.delete(request.channel);
      return null;
    case "dump":
      return (await pglite.dumpDataDir(request.compression)).arrayBuffer();
    case "close":
      await pglite.close();
      return null;
  }
}

async function main() {
  let pglite: PGlite;
  try {
    pglite = await open();
  } catch (error) {
    port.postMessage({ event: "failed", error: errorOf(error) } satisfies Event);
    return;
  }
  const runNamed = namedStatementRunner(pglite);
  port.on("message", ({ id, request }: { id: number; request: Request }) => {
    answer(pglite, runNamed, request).then(
      (result) => {
        const transfer = result instanceof ArrayBuffer ? [result] : [];
        port.postMessage({ id, ok: true, result } satisfies Reply, transfer);
        if (request.op === "close") port.close();
      },
      (error: unknown) => port.postMessage({ id, ok: false, error: errorOf(error) } satisfies Reply),
    );
  });
  port.postMessage({ event: "ready" } satisfies Event);
}

void main();
