import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { QueryOptions, Results } from "@electric-sql/pglite";
import type { RunNamed } from "@/internals/pglite";
import type { Event, Reply, Request, ThreadError, ThreadOptions } from "./protocol";

/** An error that crossed from the database's thread: PostgreSQL's fields (`code`, `detail`, …) as they were. */
export class ThreadDatabaseError extends Error {
  [field: string]: unknown;
  constructor(error: ThreadError) {
    super(error.message);
    Object.assign(this, error.fields);
    this.name = error.name;
  }
}

/** The thread is gone (closed, or it died): "connection failure", which the API answers with 503 (db/unavailable.ts). */
function goneError(reason: string): ThreadDatabaseError {
  return new ThreadDatabaseError({
    name: "Error",
    message: `The embedded database's thread ${reason}.`,
    fields: { code: "08006" },
  });
}

/** A transaction open in the database's thread, as PGlite's `Transaction` is used here: statements in it, or a rollback. */
export interface RemoteTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<Array<Results>>;
  runNamed: RunNamed;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** thread-main.ts from the repository (Node strips its types), or its bundle in the artefact (scripts/build-processes.mjs). */
function threadEntry(): string {
  const source = path.join(process.cwd(), "db", "pglite-thread", "thread-main.ts");
  return fs.existsSync(source) ? source : path.join(process.cwd(), "dist", "pglite-thread.mjs");
}

/**
 * The embedded database, run in a thread of its own (thread-main.ts) and reached by messages: the
 * server's thread keeps serving HTTP while PostgreSQL works. The same calls as PGlite's, for what
 * the service uses: queries, exec, transactions held open across calls, LISTEN, a dump, close.
 */
export class RemotePglite {
  readonly #worker: Worker;
  readonly #calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #next = 0;
  #gone: Error | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  static open(dataDir: string, loadDataDir?: ArrayBuffer): Promise<RemotePglite> {
    const workerData: ThreadOptions = { dataDir, loadDataDir };
    const remote = new RemotePglite(new Worker(threadEntry(), { workerData, stderr: false }));
    return remote.#started();
  }

  #started(): Promise<RemotePglite> {
    return new Promise((resolve, reject) => {
      this.#worker.on("message", (message: Reply | Event) => {
        if ("id" in message) return this.#settle(message);
        if (message.event === "ready") return resolve(this);
        if (message.event === "failed") {
          void this.#worker.terminate();
          return reject(new ThreadDatabaseError(message.error));
        }
        for (const listener of this.#listeners.get(message.channel) ?? []) listener(message.payload);
      });
      this.#worker.on("error", (error) => this.#fail(goneError(`failed: ${error.message}`), reject));
      this.#worker.on("exit", (code) => this.#fail(goneError(`exited (code ${code})`), reject));
    });
  }

  #settle(reply: Reply): void {
    const call = this.#calls.get(reply.id);
    this.#calls.delete(reply.id);
    // Idle, the thread does not keep the process alive (a CLI command ends when its work does).
    if (this.#calls.size === 0) this.#worker.unref();
    if (reply.ok) call?.resolve(reply.result);
    else call?.reject(new ThreadDatabaseError(reply.error));
  }

  #fail(error: Error, rejectOpen: (error: Error) => void): void {
    this.#gone ??= error;
    rejectOpen(error);
    for (const call of this.#calls.values()) call.reject(error);
    this.#calls.clear();
  }

  call<T>(request: Request): Promise<T> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = ++this.#next;
    this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, request });
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.call({ op: "query", text, params, rowMode: options?.rowMode });
  }

  exec(text: string): Promise<Array<Results>> {
    return this.call({ op: "exec", text });
  }

  /** Outside a transaction: waits for any open one, as PGlite's own standalone query does. */
  runNamed: RunNamed = (text, params) => this.call({ op: "runNamed", text, params });

  /** Commits what `callback` did, or rolls it back when it throws (and throws that). */
  async transaction<T>(callback: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const id = await this.call<number>({ op: "begin" });
    let closed = false;
    const end = async (op: "commit" | "rollback") => {
      if (closed) return;
      closed = true;
      await this.call({ op, tx: id });
    };
    const tx: RemoteTransaction = {
      query: (text, params, options) => this.call({ op: "query", text, params, rowMode: options?.rowMode, tx: id }),
      exec: (text) => this.call({ op: "exec", text, tx: id }),
      runNamed: (text, params) => this.call({ op: "runNamed", text, params, tx: id }),
      rollback: () => end("rollback"),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await end("rollback").catch(() => {});
      throw error;
    }
    await end("commit");
    return result;
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listeners = this.#listeners.get(channel) ?? new Set();
    this.#listeners.set(channel, listeners);
    listeners.add(callback);
    if (listeners.size === 1) await this.call({ op: "listen", channel });
    return async () => {
      listeners.delete(callback);
      if (listeners.size === 0) await this.call({ op: "unlisten", channel });
    };
  }

  async dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob> {
    return new Blob([await this.call<ArrayBuffer>({ op: "dump", compression })]);
  }

  /** Ends the thread without closing PGlite: what a crash leaves behind (tests). */
  async abandon(): Promise<void> {
    await this.#worker.terminate();
    this.#fail(goneError("was ended"), () => {});
  }

  /** Closes PGlite in its thread (it writes what it holds), then ends the thread. Idempotent. */
  async close(): Promise<void> {
    if (this.#gone) return;
    await this.call({ op: "close" });
    this.#gone = goneError("was closed");
    await this.#worker.terminate();
  }
}
