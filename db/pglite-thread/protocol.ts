/**
 * The messages between the embedded database's thread (thread-main.ts) and its client in the server's
 * thread (remote-pglite.ts). Types only: thread-main.ts runs as plain TypeScript under Node, so it
 * imports nothing that needs a bundler.
 */

/** What the client asks; `tx` names an open transaction of the thread (absent: outside any). */
export type Request =
  | { op: "query"; text: string; params?: unknown[]; rowMode?: "array" | "object"; tx?: number }
  | { op: "exec"; text: string; tx?: number }
  | { op: "runNamed"; text: string; params: unknown[]; tx?: number }
  | { op: "begin" }
  | { op: "commit"; tx: number }
  | { op: "rollback"; tx: number }
  | { op: "listen"; channel: string }
  | { op: "unlisten"; channel: string }
  | { op: "dump"; compression?: "none" | "gzip" | "auto" }
  | { op: "close" };

/** An error as it crosses the thread: its message and name, and every field PostgreSQL gave it (code, detail, …). */
export interface ThreadError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: ThreadError };

/** Sent by the thread on its own: a notification, or that the database is open (or failed to open). */
export type Event =
  { event: "notify"; channel: string; payload: string } | { event: "ready" } | { event: "failed"; error: ThreadError };

export interface ThreadOptions {
  dataDir: string;
  /** A data directory's dump to start from (tests), as bytes. */
  loadDataDir?: ArrayBuffer;
}
