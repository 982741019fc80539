import "server-only";
import type { Executor } from "@/db/client";
import { now as clockNow } from "@/lib/foundation/clock";
import { AppError, notFound } from "@/lib/foundation/errors";
import { idTime } from "@/lib/foundation/ids";
import { cutoffOf, readRetentionWindows } from "@/lib/records/retention/windows";

/**
 * The answer for a message, inbound mail or thread id that is not there (docs/retention.md#the-answers): 410
 * MESSAGE_PURGED when its id was made before the workspace's metadata window (ids carry their creation time), so
 * a client tells "deleted by retention" from "never existed"; otherwise the usual 404. It says nothing of whether
 * such an id ever existed, in this workspace or another: every id that old gets the 410. Under a legal hold the
 * window counts back from when the hold began, since nothing was purged after that.
 */
export async function notFoundOrPurged(db: Executor, workspaceId: string, id: string, what: string): Promise<AppError> {
  const made = idTime(id);
  const windows = made ? await readRetentionWindows(db, workspaceId) : null;
  if (made && windows) {
    const since = windows.legalHold && windows.legalHoldAt ? windows.legalHoldAt : clockNow();
    if (made < cutoffOf(windows.metadataDays, since)) {
      return new AppError(
        "MESSAGE_PURGED",
        `${what} ${id} is older than this workspace's ${windows.metadataDays}-day retention window: it was purged.`,
        { param: "id" },
      );
    }
  }
  return notFound(`${what} ${id}`, "id");
}
