import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listDeliveries, parseDeliveryListQuery } from "@/lib/flows/webhooks/list-deliveries";
import { serializeDelivery } from "@/lib/flows/webhooks/serialize";

// GET /v1/webhook_endpoints/:id/deliveries – newest first; filters status, eventType, emailMessageId
export const GET = withApiKey<{ id: string }>(
  { scope: "webhooks:write", body: "none" },
  async ({ principal, params, url }) => {
    const { items, meta } = await listDeliveries(
      principal.workspaceId,
      params.id,
      parseDeliveryListQuery(url.searchParams),
    );
    return list(meta, items.map(serializeDelivery));
  },
);
