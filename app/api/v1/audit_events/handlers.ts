import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { listAuditEvents, parseAuditListQuery, serializeAuditEvent } from "@/lib/records/audit/list-audit-events";

// GET /v1/audit_events – who changed what in the workspace, newest first, keyset cursors; a `full` key only
export const GET = withApiKey({ scope: "full", body: "none" }, async ({ principal, url }) => {
  const { items, meta } = await listAuditEvents(principal.workspaceId, parseAuditListQuery(url.searchParams));
  return list(meta, items.map(serializeAuditEvent));
});
