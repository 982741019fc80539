import { withApiKey } from "@/lib/entry/api/with-api-key";
import { getInboundMessageRaw } from "@/lib/domain/inbound/get-inbound-message";

// GET /v1/inbound_messages/:id/raw – the original RFC 5322 bytes as received
export const GET = withApiKey<{ id: string }>(
  { scope: "inbound:read", body: "none" },
  async ({ principal, params }) => {
    const raw = await getInboundMessageRaw(principal.workspaceId, params.id);
    return new Response(new Uint8Array(raw), {
      status: 200,
      headers: {
        "content-type": "message/rfc822",
        "content-disposition": `attachment; filename="${params.id}.eml"`,
        "x-content-type-options": "nosniff",
      },
    });
  },
);
