import type { PGlite, Results } from "@electric-sql/pglite";
import type { RunNamed } from "@/internals/pglite";
import { RUN_NAMED } from "../pglite-client";
import { uncrossError, type ThreadOptions, type ThreadReply, type ThreadRequest } from "./protocol";

/** The part of PGlite's API the process uses: Drizzle's client, pg-boss's adapter and the tests' listeners. */
export type EmbeddedClient = Pick<PGlite, "query" | "exec" | "transaction" | "listen" | "close">;

/** What server/server.mjs hands over: a started thread (a `worker_threads` Worker) running dist/pglite-thread.mjs. */
export interface DatabaseThread {
  postMessage(message: ThreadRequest): void;
  on(event: "message", listener: (reply: ThreadReply) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "exit", listener: (code: number) => void): unknown;
  terminate(): Promise<number>;
}

export type StartDatabaseThread = (options: ThreadOptions) => DatabaseThread;

type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

/** Opens the embedded database on its thread; resolves once PGlite is open there, rejects if it cannot open. */
export async function connectDatabaseThread(thread: DatabaseThread): Promise<EmbeddedClient> {
  const calls = new ThreadCalls(thread);
  try {
    await calls.opened;
  } catch (error) {
    await thread.terminate();
    throw error;
  }
  return clientOver(calls, thread) as unknown as EmbeddedClient;
}

/** Requests to the thread, each answered by its reply; notifications to their listeners. */
class ThreadCalls {
  readonly listeners = new Map<number, (payload: string) => void>();
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly open = Promise.withResolvers<void>();
  private nextId = 1;
  stopped: Error | undefined;

  constructor(private readonly thread: DatabaseThread) {
    const stopped = "The embedded database's thread stopped";
    thread.on("error", (error) => this.stop(`${stopped}: ${error.message}`));
    thread.on("exit", (code) => this.stop(`${stopped}: it exited with code ${code}`));
    thread.on("message", (reply) => this.receive(reply));
  }

  get opened(): Promise<void> {
    return this.open.promise;
  }

  call<T>(request: Request): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        this.thread.postMessage({ ...request, id } as ThreadRequest);
      } catch (error) {
        // A parameter that cannot cross (a function, a class instance with private state): this statement fails.
        this.pending.delete(id);
        reject(error as Error);
      }
    });
  }

  /** The database is gone for this process: every statement answers as a lost connection would (db/unavailable.ts). */
  stop(reason: string, code = "08006"): void {
    this.stopped ??= Object.assign(new Error(reason), { code });
    for (const { reject } of this.pending.values()) reject(this.stopped);
    this.pending.clear();
    this.open.reject(this.stopped);
  }

  private receive(reply: ThreadReply): void {
    if (reply.kind === "ready") return this.open.resolve();
    if (reply.kind === "opened-failed") return this.open.reject(uncrossError(reply.error));
    if (reply.kind === "notify") return this.listeners.get(reply.listener)?.(reply.payload);
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.error) waiting?.reject(uncrossError(reply.error));
    else waiting?.resolve(reply.value);
  }
}

/** PGlite's API as Drizzle's driver and pg-boss's adapter use it, each call a request to the thread. */
function clientOver(calls: ThreadCalls, thread: DatabaseThread) {
  const statements = (tx?: number) => ({
    query: (text: string, params?: unknown[], options?: { rowMode?: "array" | "object" }) =>
      calls.call<Results>({ op: "query", tx, text, params, rowMode: options?.rowMode }),
    exec: (text: string) => calls.call<Results[]>({ op: "exec", tx, text }),
    [RUN_NAMED]: ((text, params) => calls.call<Results>({ op: "runNamed", tx, text, params })) as RunNamed,
  });
  return {
    ...statements(),
    transaction: async <T>(callback: (tx: ReturnType<typeof statements>) => Promise<T>): Promise<T> => {
      const tx = await calls.call<number>({ op: "begin" });
      let result: T;
      try {
        result = await callback(statements(tx));
      } catch (error) {
        await calls.call({ op: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await calls.call({ op: "end", tx, commit: true });
      return result;
    },
    listen: async (channel: string, callback: (payload: string) => void) => {
      const listener = await calls.call<number>({ op: "listen", channel });
      calls.listeners.set(listener, callback);
      return async () => {
        calls.listeners.delete(listener);
        await calls.call({ op: "unlisten", listener });
      };
    },
    close: async () => {
      if (!calls.stopped) await calls.call({ op: "close" });
      calls.stop("The embedded database is closed", "08003");
      await thread.terminate();
    },
  };
}
