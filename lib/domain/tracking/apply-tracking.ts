import "server-only";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { workspaces } from "@/db/schema";
import { env } from "@/lib/foundation/env";
import { rewriteHtmlForTracking } from "./rewrite-html";
import { clickUrl, MAX_TRACKED_URL_LENGTH, openPixelUrl } from "./token";

export interface TrackedMessage {
  id: string;
  workspaceId: string;
  sandbox: boolean;
}

/**
 * Tracked links and pixel when live with tracking on, at delivery time: the stored message keeps the rendered HTML, and
 * turning tracking off affects every message not yet delivered.
 */
export async function applyTracking(db: Executor, message: TrackedMessage, html: string): Promise<string> {
  if (message.sandbox || !html.trim()) return html;
  return trackedHtml(message, html, await isTrackingEnabled(db, message.workspaceId));
}

/** applyTracking for a caller that already read the workspace's tracking flag (the batch delivery path). */
export function trackedHtml(message: TrackedMessage, html: string, trackingEnabled: boolean): string {
  if (message.sandbox || !html.trim() || !trackingEnabled) return html;
  return rewriteHtmlForTracking(html, {
    appUrl: env().APP_URL,
    clickUrl: (index, url) => clickUrl(message.id, index, url),
    pixelUrl: openPixelUrl(message.id),
    maxUrlLength: MAX_TRACKED_URL_LENGTH,
  });
}

export async function isTrackingEnabled(db: Executor, workspaceId: string): Promise<boolean> {
  const [row] = await db
    .select({ enabled: workspaces.trackingEnabled })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  return row?.enabled ?? false;
}
