/**
 * The thread that holds the embedded database (docs/architecture.md#the-embedded-database-on-its-own-thread).
 * PGlite runs its WASM on the thread that calls it: on the main thread, a burst of sends and the delivery
 * of its backlog took the thread that answers requests (57 % of it in a profile). Here the database has its own
 * core; the main thread only posts statements and receives rows. Bundled into dist/pglite-thread.mjs
 * (scripts/build-processes.mjs) and started by the production server (server/server.mjs), which is plain Node:
 * a `new Worker` in code Next.js compiles would have its tracer take in the whole project.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { carryDrizzleParsers } from "@/internals/pglite";
import { drizzleClient, RUN_NAMED } from "../pglite-client";
import { OpenTransactions, type Statements } from "./open-transactions";
import { crossError, type ThreadOptions, type ThreadReply, type ThreadRequest } from "./protocol";

const port = parentPort!;
const post = (reply: ThreadReply) => port.postMessage(reply);

type Handled = Exclude<ThreadRequest["op"], "end">;
type Handlers = { [Op in Handled]: (request: Extract<ThreadRequest, { op: Op }>) => unknown };

/** What each request does on the open database; `end` is the transactions' own (answered when PGlite has ended). */
function handlersFor(pglite: PGlite, client: Statements, transactions: OpenTransactions): Handlers {
  const statementsOf = (tx: number | undefined) => (tx === undefined ? client : transactions.statements(tx));
  const listeners = new Map<number, () => Promise<void>>();
  let nextListener = 1;
  return {
    query: ({ tx, text, params, rowMode }) => statementsOf(tx).query(text, params, rowMode ? { rowMode } : undefined),
    // Drizzle's client has no exec: pg-boss's comes to PGlite itself.
    exec: ({ tx, text }) => (tx === undefined ? pglite.exec(text) : statementsOf(tx).exec(text)),
    runNamed: ({ tx, text, params }) => statementsOf(tx)[RUN_NAMED](text, params),
    begin: ({ id }) => transactions.begin(id),
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
    close: () => pglite.close(),
  };
}

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
  // The same client as in-process (db/client.ts): named prepared statements, standalone ones after any transaction.
  // One per instance: its runner names prepared statements in turn, and a second would reuse the names.
  const client = drizzleClient(pglite);
  const transactions = new OpenTransactions(client, post);
  const handlers = handlersFor(pglite, client as unknown as Statements, transactions);
  port.on("message", (request: ThreadRequest) => {
    if (request.op === "end") return transactions.end(request.id, request.tx, request.commit);
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
