import "server-only";
import { errorFields, log } from "@/lib/foundation/log";
import { processSingleton } from "@/lib/foundation/process-singleton";
import { fanOutWebhookEvents, requeueStrandedDeliveries } from "./fan-out";

const IDLE_MS = 200;
/** After a failure (the database unreachable) wait longer, so an outage is not a log line every turn. */
const AFTER_ERROR_MS = 5_000;
const SWEEP_EVERY_MS = 30_000;
const FAN_OUT_BATCH = 1000;

/** Runs one fan-out turn; the worker passes its mail-first gate, so fan-out waits while mail goes out. */
type TurnRunner = <T>(turn: () => Promise<T>) => Promise<T>;

const current = processSingleton<{ pump?: { stop: () => Promise<void> } }>("webhooks.pump", () => ({}));

/**
 * Each worker's fan-out loop (one process at a time gets the dispatch row): every IDLE_MS when idle, back to back
 * through a backlog, plus the stranded-delivery sweep. `runTurn` lets the worker put mail first.
 */
export function startWebhookPump(options: { runTurn?: TurnRunner } = {}): void {
  const runTurn: TurnRunner = options.runTurn ?? ((turn) => turn());
  if (current.pump) return;
  let running = true;
  let wake: (() => void) | undefined;
  let lastSweep = 0;
  const loop = (async () => {
    while (running) {
      let read = 0;
      let pause = IDLE_MS;
      try {
        read = await runTurn(() => fanOutWebhookEvents(FAN_OUT_BATCH));
        if (Date.now() - lastSweep > SWEEP_EVERY_MS) {
          lastSweep = Date.now();
          await requeueStrandedDeliveries();
        }
      } catch (error) {
        log.warn("webhook fan-out failed; retrying in 5 s", errorFields(error));
        pause = AFTER_ERROR_MS;
      }
      if (read < FAN_OUT_BATCH && running) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, pause);
        });
      }
    }
  })();
  current.pump = {
    stop: async () => {
      running = false;
      wake?.();
      await loop;
    },
  };
}

export async function stopWebhookPump(): Promise<void> {
  const pump = current.pump;
  current.pump = undefined;
  await pump?.stop();
}
