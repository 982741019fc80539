import "server-only";
import { databaseUnavailableCode } from "@/db/unavailable";
import { log } from "@/lib/foundation/log";

// An answer the database could not take is held: failing the job would send again (SMTP has no idempotency key).
const HOLD_MS = 15 * 60_000;
const FIRST_WAIT_MS = 50;
const MAX_WAIT_MS = 1_000;

/** Retries `write` while the database is unavailable, up to HOLD_MS; any other error is thrown. */
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
