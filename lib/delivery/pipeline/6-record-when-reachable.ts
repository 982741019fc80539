import "server-only";
import { databaseUnavailableCode } from "@/db/unavailable";
import { log } from "@/lib/foundation/log";

/**
 * How long a worker holds a provider's answer it could not record. SMTP has no idempotency key: if
 * the job failed instead, its retry would send the message again (docs/delivery.md "Crash safety").
 * The job stays in this worker's hands meanwhile, so what is held is bounded by the jobs it runs.
 */
const HOLD_MS = 15 * 60_000;
const FIRST_WAIT_MS = 50;
/** The longest pause between tries: the answer is recorded within about a second of the database's return. */
const MAX_WAIT_MS = 1_000;

/**
 * Runs `write` (the recording of an answer the provider already gave) until it succeeds, retrying
 * while the database is unavailable (db/unavailable.ts) for up to HOLD_MS. Any other error, or an
 * outage longer than that, is thrown as before.
 */
export async function recordWhenReachable<T>(messageId: string, write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + HOLD_MS;
  let wait = FIRST_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const done = await write();
      if (attempt > 1)
        log.info("provider answer recorded after the database came back", { messageId, attempts: attempt });
      return done;
    } catch (error) {
      const code = databaseUnavailableCode(error);
      if (!code || Date.now() + wait > deadline) throw error;
      if (attempt === 1)
        log.warn("database unavailable while recording a provider's answer; held in this worker until it is back", {
          messageId,
          code,
        });
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
  }
}
