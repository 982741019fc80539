import { sendScope } from "@/lib/domain/api-keys/scopes.shared";
import { MB } from "@/lib/entry/api/read-json";
import { created, ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { sendBatch } from "@/lib/sending/send-batch";
import { serializeBatch } from "@/lib/domain/batches/serialize";

/** Shared by POST /v1/batches, /v1/sandbox/batches and the older /v1/(sandbox/)email_messages_batch. */
export function sendBatchHandler({ sandbox }: { sandbox: boolean }) {
  return withApiKey(
    { scope: sendScope(sandbox), body: "json", maxBytes: 10 * MB, sandbox },
    async ({ principal, body }) => {
      const { batch, emailMessageIds, replayed } = await sendBatch({
        workspaceId: principal.workspaceId,
        sandbox,
        body,
        allowedSenders: principal.allowedSenders,
      });
      const data = serializeBatch(batch, emailMessageIds);
      return replayed ? ok(data, { "idempotent-replayed": "true" }) : created(data);
    },
  );
}
