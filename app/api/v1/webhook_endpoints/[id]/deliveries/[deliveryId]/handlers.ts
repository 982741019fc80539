import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getDeliveryDetail } from "@/lib/flows/webhooks/list-deliveries";

// GET /v1/webhook_endpoints/:id/deliveries/:deliveryId – one delivery with every attempt and the payload it sends
export const GET = withApiKey<{ id: string; deliveryId: string }>(
  { scope: "webhooks:write", body: "none" },
  async ({ principal, params }) => ok(await getDeliveryDetail(principal.workspaceId, params.id, params.deliveryId)),
);
