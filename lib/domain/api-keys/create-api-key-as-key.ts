import "server-only";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiKeys } from "@/db/schema";
import type { AuditActor } from "@/lib/records/audit/actor";
import { AppError, notFound } from "@/lib/foundation/errors";
import { createApiKey, normalizeRestrictions, type CreatedApiKey } from "./create-api-key";
import { ipAllowed, senderAllowed } from "./restrictions";
import type { ApiKeyGrant } from "./schemas";
import { covers } from "./scopes.shared";

type Creator = Pick<typeof apiKeys.$inferSelect, "scopes" | "allowedSenders" | "allowedIps" | "expiresAt">;

/**
 * A key never creates one that can do more than itself (docs/api.md#api-keys): unless it is an unrestricted `full` key,
 * the new scopes must be its own (or ones they imply: emails:send gives emails:sandbox) and its restrictions carry over
 * as bounds. A refusal is a 403 naming the field.
 */
export async function createApiKeyAsKey(input: {
  workspaceId: string;
  creatorKeyId: string;
  grant: ApiKeyGrant;
  actor: AuditActor;
}): Promise<CreatedApiKey> {
  const [creator] = await (
    await getDb()
  )
    .select({
      scopes: apiKeys.scopes,
      allowedSenders: apiKeys.allowedSenders,
      allowedIps: apiKeys.allowedIps,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, input.workspaceId), eq(apiKeys.id, input.creatorKeyId)));
  if (!creator) throw notFound(`API key ${input.creatorKeyId}`);
  const grant = normalizeRestrictions({ ...input.grant, expiresAt: input.grant.expiresAt ?? null });
  assertWithinCreator(creator, grant);
  return createApiKey({
    workspaceId: input.workspaceId,
    name: input.grant.name,
    actor: input.actor,
    ...grant,
    scopes: grant.scopes as ApiKeyGrant["scopes"],
  });
}

function assertWithinCreator(creator: Creator, grant: ReturnType<typeof normalizeRestrictions>): void {
  if (!creator.scopes.includes("full")) {
    const beyond = grant.scopes.filter((scope) => !covers(creator.scopes, scope));
    if (beyond.length > 0)
      refuse(
        "scopes",
        `This API key may grant only scopes it has (${creator.scopes.join(", ")}); not ${beyond.join(", ")}. Without scopes a key gets full.`,
      );
  }
  if (creator.allowedSenders.length > 0) {
    if (
      grant.allowedSenders.length === 0 ||
      grant.allowedSenders.some((rule) => !senderAllowed(creator.allowedSenders, rule))
    ) {
      refuse(
        "allowedSenders",
        `This API key may send only from ${creator.allowedSenders.join(", ")}: a key it creates needs allowedSenders within those.`,
      );
    }
  }
  if (creator.allowedIps.length > 0) {
    if (grant.allowedIps.length === 0 || grant.allowedIps.some((cidr) => !cidrWithin(creator.allowedIps, cidr))) {
      refuse(
        "allowedIps",
        `This API key is limited to ${creator.allowedIps.join(", ")}: a key it creates needs allowedIps within those ranges.`,
      );
    }
  }
  if (creator.expiresAt && (!grant.expiresAt || grant.expiresAt > creator.expiresAt)) {
    refuse(
      "expiresAt",
      `This API key expires at ${creator.expiresAt.toISOString()}: a key it creates must expire no later.`,
    );
  }
}

/** True when the CIDR lies inside one of the ranges: its address in the range, its prefix at least as long. */
function cidrWithin(ranges: readonly string[], cidr: string): boolean {
  const [address, prefix] = cidr.split("/");
  return ranges.some((range) => ipAllowed([range], address) && Number(prefix) >= Number(range.split("/")[1]));
}

function refuse(param: string, message: string): never {
  throw new AppError("FORBIDDEN", message, { param });
}
