import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { providerConnections } from "@/db/schema";
import { notFound } from "@/lib/foundation/errors";
import { openPreviousSecrets, openSecrets } from "./connection-secrets";

const ID = /^pcon_[0-9A-Za-z]{16}$/;

/**
 * The connection a provider posts events for, by the id in its events path (the signature or topic is the credential,
 * not an API key): its workspace, its webhook secrets (the current one, then the one before a rotation while honoured)
 * and its SNS topics. An unknown id, or one of another kind, is NOT_FOUND.
 */
export async function eventsConnectionOrThrow(id: string, kind: "resend" | "ses") {
  const [row] = ID.test(id)
    ? await (await getDb()).select().from(providerConnections).where(eq(providerConnections.id, id))
    : [];
  if (!row || row.kind !== kind) throw notFound(`A ${kind} connection ${id}`, "id");
  const secrets = [openSecrets(row).webhookSecret, openPreviousSecrets(row).webhookSecret];
  return {
    workspaceId: row.workspaceId,
    secrets: secrets.filter((secret): secret is string => secret !== undefined),
    topicArns: row.settings.snsTopicArns ?? [],
  };
}
