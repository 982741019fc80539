import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getBatchDetail } from "@/lib/domain/batches/get-batch-detail";
import { serializeBatchDetail } from "@/lib/domain/batches/serialize";

// GET /v1/batches/:id – the batch with its messages counted by status
export const GET = withApiKey<{ id: string }>({ scope: "emails:read", body: "none" }, async ({ principal, params }) =>
  ok(serializeBatchDetail(await getBatchDetail(principal.workspaceId, params.id))),
);
