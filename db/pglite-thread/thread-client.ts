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
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners = new Map<number, (payload: string) => void>();
  let stopped: Error | undefined;
  let nextId = 1;
  const opened = Promise.withResolvers<void>();

  const stop = (reason: string) => {
    // The database is gone for this process: every statement answers as a lost connection would (db/unavailable.ts).
    stopped ??= Object.assign(new Error(`The embedded database's thread stopped: ${reason}`), { code: "08006" });
    for (const { reject } of pending.values()) reject(stopped);
    pending.clear();
    opened.reject(stopped);
  };
  thread.on("error", (error) => stop(error.message));
  thread.on("exit", (code) => stop(`it exited with code ${code}`));
  thread.on("message", (reply) => {
    if (reply.kind === "ready") return opened.resolve();
    if (reply.kind === "opened-failed") return opened.reject(uncrossError(reply.error));
    if (reply.kind === "notify") return listeners.get(reply.listener)?.(reply.payload);
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error) waiting?.reject(uncrossError(reply.error));
    else waiting?.resolve(reply.value);
  });

  const call = <T>(request: Request): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        thread.postMessage({ ...request, id } as ThreadRequest);
      } catch (error) {
        // A parameter that cannot cross (a function, a class instance with private state): this statement fails.
        pending.delete(id);
        reject(error as Error);
      }
    });
  };

  const statements = (tx?: number) => ({
    query: (text: string, params?: unknown[], options?: { rowMode?: "array" | "object" }) =>
      call<Results>({ op: "query", tx, text, params, rowMode: options?.rowMode }),
    exec: (text: string) => call<Results[]>({ op: "exec", tx, text }),
    [RUN_NAMED]: ((text, params) => call<Results>({ op: "runNamed", tx, text, params })) as RunNamed,
  });

  const client = {
    ...statements(),
    transaction: async <T>(callback: (tx: ReturnType<typeof statements>) => Promise<T>): Promise<T> => {
      const tx = await call<number>({ op: "begin" });
      let result: T;
      try {
        result = await callback(statements(tx));
      } catch (error) {
        await call({ op: "end", tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    listen: async (channel: string, callback: (payload: string) => void) => {
      const listener = await call<number>({ op: "listen", channel });
      listeners.set(listener, callback);
      return async () => {
        listeners.delete(listener);
        await call({ op: "unlisten", listener });
      };
    },
    close: async () => {
      if (!stopped) await call({ op: "close" });
      stopped ??= Object.assign(new Error("The embedded database is closed"), { code: "08003" });
      await thread.terminate();
    },
  };

  try {
    await opened.promise;
  } catch (error) {
    await thread.terminate();
    throw error;
  }
  return client as unknown as EmbeddedClient;
}
