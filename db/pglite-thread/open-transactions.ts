import type { Transaction } from "@electric-sql/pglite";
import type { RunNamed } from "@/internals/pglite";
import { RUN_NAMED } from "../pglite-client";
import { crossError, type ThreadReply } from "./protocol";

/** What a statement runs on in the thread: the instance's client, or an open transaction of it. */
export interface Statements {
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

/**
 * The transactions the main thread has open on the thread's database, each by the id of the request that began it.
 * PGlite keeps one open at a time: a begin waits for the one before to end, as in-process.
 */
export class OpenTransactions {
  private readonly open = new Map<number, OpenTransaction>();
  /** An end is answered when PGlite has committed or rolled back, not when it was asked: its request's id. */
  private readonly waitingEnds = new Map<number, number>();

  constructor(
    private readonly client: { transaction: <T>(callback: (tx: Transaction) => Promise<T>) => Promise<T> },
    private readonly post: (reply: ThreadReply) => void,
  ) {}

  /** Resolves with `id` once PGlite has opened the transaction; rejects if it could not. */
  begin(id: number): Promise<number> {
    return new Promise<number>((opened, failedToOpen) => {
      let isOpen = false;
      this.client
        .transaction(async (tx) => {
          const ended = new Promise<void>((commit, rollBack) => {
            this.open.set(id, { tx: tx as unknown as Statements, end: (ok) => (ok ? commit() : rollBack(ROLL_BACK)) });
          });
          isOpen = true;
          opened(id);
          await ended;
        })
        .then(
          () => this.settle(id, undefined),
          (error: unknown) => {
            this.open.delete(id);
            if (!isOpen) failedToOpen(error);
            else this.settle(id, error === ROLL_BACK ? undefined : error);
          },
        );
    });
  }

  /** The open transaction `tx`'s statements. */
  statements(tx: number): Statements {
    const open = this.open.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  }

  /** Commits or rolls back `tx`; request `id` is answered once PGlite has. */
  end(id: number, tx: number, commit: boolean): void {
    const open = this.open.get(tx);
    if (!open) return this.post({ kind: "reply", id, error: crossError(new Error(`transaction ${tx} is not open`)) });
    this.open.delete(tx);
    this.waitingEnds.set(tx, id);
    open.end(commit);
  }

  private settle(tx: number, error: unknown): void {
    const endId = this.waitingEnds.get(tx);
    this.waitingEnds.delete(tx);
    if (endId === undefined) return;
    this.post(error ? { kind: "reply", id: endId, error: crossError(error) } : { kind: "reply", id: endId });
  }
}
