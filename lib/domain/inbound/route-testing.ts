import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { addInboundDomain } from "./add-inbound-domain";
import { createInboundRoute } from "./create-inbound-route";

/** Tests only: a verified inbound domain of the workspace, and routes on it by pattern (`support@<name>`, `*@<name>`). */
export async function addTestInboundDomain(workspaceId: string, name: string, options: { verified?: boolean } = {}) {
  const domain = await addInboundDomain({ workspaceId, name, verified: options.verified ?? true });
  return {
    domain,
    route: (body: Record<string, unknown>) => createInboundRoute(workspaceId, body, AUDIT_SYSTEM_ACTOR),
  };
}
