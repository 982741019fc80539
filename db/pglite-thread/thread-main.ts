/**
 * The thread that holds the embedded database (docs/architecture.md#the-embedded-database-on-its-own-thread).
 * PGlite runs its WASM on the thread that calls it: on the main thread, a burst of sends and the delivery
 * of its backlog took the thread that answers requests (57 % of it in a profile). Here the database has its own
 * core; the main thread only posts statements and receives rows. Bundled into dist/pglite-thread.mjs
 * (scripts/build-processes.mjs) and started by the production server (server/server.mjs), which is plain Node:
 * a `new Worker` in code Next.js compiles would have its tracer take in the whole project.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { carryDrizzleParsers, type RunNamed } from "@/internals/pglite";
import { drizzleClient, RUN_NAMED } from "../pglite-client";
import { crossError, type ThreadOptions, type ThreadReply, type ThreadRequest } from "./protocol";

interface Statements {
  query: (text: string, params?: unknown[], options?: { rowMode?: "array" | "object" }) => Promise<unknown>;
  exec: (text: string) => Promise<unknown>;
  [RUN_NAMED]: RunNamed;
}

interface OpenTransaction {
  tx: Statements;
  end: (commit: boolean) => void;
}

/** Thrown into a transaction's callback to roll it back; never seen outside this file. */
const ROLL_BACK = Symbol("roll back");

const port = parentPort!;
const post = (reply: ThreadReply) => port.postMessage(reply);

async function main(): Promise<void> {
  const { dataDir } = workerData as ThreadOptions;
  let pglite: PGlite;
  try {
    pglite = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  } catch (error) {
    post({ kind: "opened-failed", error: crossError(error) });
    return;
  }
  carryDrizzleParsers(pglite);
  const client = drizzleClient(pglite) as unknown as Statements & PGlite;
  const transactions = new Map<number, OpenTransaction>();
  const listeners = new Map<number, () => Promise<void>>();
  let nextListener = 1;

  const statementsOf = (tx: number | undefined): Statements => {
    if (tx === undefined) return client;
    const open = transactions.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  type Handled = Exclude<ThreadRequest["op"], "end">;
  const handlers: { [Op in Handled]: (request: Extract<ThreadRequest, { op: Op }>) => unknown } = {
    query: ({ tx, text, params, rowMode }) => statementsOf(tx).query(text, params, rowMode ? { rowMode } : undefined),
    // Drizzle's client has no exec: pg-boss's comes to PGlite itself.
    exec: ({ tx, text }) => (tx === undefined ? pglite.exec(text) : statementsOf(tx).exec(text)),
    runNamed: ({ tx, text, params }) => statementsOf(tx)[RUN_NAMED](text, params),
    begin: ({ id }) => begin(id),
    listen: async ({ channel }) => {
      const listener = nextListener++;
      listeners.set(listener, await pglite.listen(channel, (payload) => post({ kind: "notify", listener, payload })));
      return listener;
    },
    unlisten: async ({ listener }) => {
      const unlisten = listeners.get(listener);
      listeners.delete(listener);
      await unlisten?.();
    },
    close: async () => {
      await pglite.close();
    },
  };

  /** The transaction's own id is its begin request's; the reply to `begin` comes once PGlite has opened it. */
  const begin = (id: number): Promise<number> =>
    new Promise<number>((opened, failedToOpen) => {
      let isOpen = false;
      client
        .transaction(async (tx: Transaction) => {
          const ended = new Promise<void>((commit, rollBack) => {
            const statements = tx as unknown as Statements;
            transactions.set(id, { tx: statements, end: (ok) => (ok ? commit() : rollBack(ROLL_BACK)) });
          });
          isOpen = true;
          opened(id);
          await ended;
        })
        .then(
          () => settleEnd(id, undefined),
          (error: unknown) => {
            transactions.delete(id);
            if (!isOpen) failedToOpen(error);
            else settleEnd(id, error === ROLL_BACK ? undefined : error);
          },
        );
    });

  // An `end` is answered when PGlite has committed or rolled back, not when it was asked.
  const waitingEnds = new Map<number, number>();
  const end = ({ id, tx, commit }: Extract<ThreadRequest, { op: "end" }>) => {
    const open = transactions.get(tx);
    if (!open) return post({ kind: "reply", id, error: crossError(new Error(`transaction ${tx} is not open`)) });
    transactions.delete(tx);
    waitingEnds.set(tx, id);
    open.end(commit);
  };
  const settleEnd = (tx: number, error: unknown) => {
    const endId = waitingEnds.get(tx);
    waitingEnds.delete(tx);
    if (endId === undefined) return;
    post(error ? { kind: "reply", id: endId, error: crossError(error) } : { kind: "reply", id: endId });
  };

  port.on("message", (request: ThreadRequest) => {
    if (request.op === "end") return end(request);
    let result: unknown;
    try {
      result = (handlers[request.op] as (request: ThreadRequest) => unknown)(request);
    } catch (error) {
      return post({ kind: "reply", id: request.id, error: crossError(error) });
    }
    Promise.resolve(result).then(
      (value) => post({ kind: "reply", id: request.id, value }),
      (error: unknown) => post({ kind: "reply", id: request.id, error: crossError(error) }),
    );
  });
  post({ kind: "ready" });
}

void main();
