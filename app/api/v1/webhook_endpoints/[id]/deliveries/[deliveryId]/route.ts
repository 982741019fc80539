import { ok } from "@/lib/entry/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/entry/api/with-api-key";
import { getDeliveryDetail } from "@/lib/flows/webhooks/list-deliveries";

// GET /v1/webhook_endpoints/:id/deliveries/:deliveryId – one delivery with every attempt and the payload it sends
export const GET = withApiKey<{ id: string; deliveryId: string }>({ scope: "webhooks:write", body: "none" }, async ({ principal, params }) =>
  ok(await getDeliveryDetail(principal.workspaceId, params.id, params.deliveryId)),
);

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
