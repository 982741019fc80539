import "server-only";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { workspaces } from "@/db/schema";
import { auditActorOf } from "@/lib/records/audit/actor";
import { recordAudit } from "@/lib/records/audit/record-audit";
import { invalidParameter, notFound } from "@/lib/foundation/errors";
import { assertActorRole, type Actor } from "@/lib/foundation/access/actor";
import { parseInput } from "@/lib/foundation/validation.shared";
import { updateWorkspaceSettingsSchema, type UpdateWorkspaceSettingsInput } from "./schemas";
import { isSystemWorkspace } from "./system-workspace";
import { invalidateShortLivedCaches } from "@/lib/foundation/short-lived-cache";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { now as clockNow } from "@/lib/foundation/clock";
import { retentionChanges, retentionView } from "./retention-settings";

export interface WorkspaceSettings {
  id: string;
  name: string;
  testMode: boolean;
  trackingEnabled: boolean;
  /** Where a send's locale comes from when neither the send nor its contact names one; null: none. */
  defaultLocale: string | null;
  /** docs/retention.md: days bodies and metadata are kept (null: the instance default) and the legal hold. */
  bodyRetentionDays: number | null;
  metadataRetentionDays: number | null;
  legalHold: boolean;
  legalHoldAt: Date | null;
}

const columns = {
  id: workspaces.id,
  name: workspaces.name,
  testMode: workspaces.testMode,
  trackingEnabled: workspaces.trackingEnabled,
  defaultLocale: workspaces.defaultLocale,
  bodyRetentionDays: workspaces.bodyRetentionDays,
  metadataRetentionDays: workspaces.metadataRetentionDays,
  legalHold: workspaces.legalHold,
  legalHoldAt: workspaces.legalHoldAt,
};

/**
 * ADMIN+, the actor's own workspace. System mail must stay live (test mode would block new addresses) and untracked
 * (tracking would put sign-in links behind redirects). Retention windows and the legal hold are checked against the
 * stored values under the row lock (docs/retention.md#windows), audited with the rest as workspace.update.
 */
export async function updateWorkspaceSettings(
  actor: Actor,
  input: UpdateWorkspaceSettingsInput,
): Promise<WorkspaceSettings> {
  assertActorRole(actor, "ADMIN", "change workspace settings");
  const changes = checkedChanges(actor.workspaceId, input);
  const settings = await (
    await getDb()
  ).transaction(async (tx) => {
    const [before] = await tx
      .select(columns)
      .from(workspaces)
      .where(eq(workspaces.id, actor.workspaceId))
      .for("update");
    if (!before) throw notFound(`Workspace ${actor.workspaceId}`);
    const { bodyRetentionDays, metadataRetentionDays, legalHold, ...rest } = changes;
    const retention = retentionChanges(before, { bodyRetentionDays, metadataRetentionDays, legalHold }, clockNow());
    const [updated] = await tx
      .update(workspaces)
      .set({ ...rest, ...retention, updatedAt: new Date() })
      .where(eq(workspaces.id, actor.workspaceId))
      .returning(columns);
    if (JSON.stringify(before) !== JSON.stringify(updated)) {
      await recordAudit(tx, {
        workspaceId: updated.id,
        actor: auditActorOf(actor),
        action: "workspace.update",
        target: { type: "workspace", id: updated.id },
        before,
        after: updated,
      });
    }
    return updated;
  });
  invalidateShortLivedCaches();
  return settings;
}

/** The input parsed, the System mail workspace's rules applied, a default locale canonicalised (`fr_ca` → `fr-CA`). */
function checkedChanges(workspaceId: string, input: UpdateWorkspaceSettingsInput) {
  const changes = parseInput(updateWorkspaceSettingsSchema, input);
  if (isSystemWorkspace(workspaceId)) {
    if (changes.testMode)
      throw invalidParameter("testMode", "System mail always sends live: test mode cannot be turned on here.");
    if (changes.trackingEnabled)
      throw invalidParameter(
        "trackingEnabled",
        "System mail is never tracked: sign-in links must not pass through redirects.",
      );
  }
  if (typeof changes.defaultLocale === "string")
    changes.defaultLocale = canonicalLocaleOrThrow(changes.defaultLocale, "defaultLocale");
  return changes;
}

export type WorkspaceSettingsView = WorkspaceSettings & {
  system: boolean;
  /** The windows the purges follow and the instance's defaults and ceilings (docs/retention.md#windows). */
  retention: ReturnType<typeof retentionView>;
};

/** What the settings page shows: everyone in the workspace may read it. */
export async function getWorkspaceSettings(workspaceId: string): Promise<WorkspaceSettingsView> {
  const db = await getDb();
  const [workspace] = await db.select(columns).from(workspaces).where(eq(workspaces.id, workspaceId));
  if (!workspace) throw notFound(`Workspace ${workspaceId}`);
  return { ...workspace, system: isSystemWorkspace(workspaceId), retention: retentionView(workspace) };
}
