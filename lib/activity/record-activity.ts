import "server-only";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { newId } from "@/lib/ids";
import { log } from "@/lib/log";

export interface ActivityEntry {
  workspaceId: string;
  apiKeyId: string | null;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  sandbox: boolean;
  errorCode: string | null;
  resourceId: string | null;
  requestBody: unknown;
  responseBody: unknown;
}

const MAX_STRING = 2_000;

/**
 * The workspace's API request log (sandbox input and output live here). Attachment contents
 * (`contentBlob`) become "[base64, N bytes]"; other long strings (big HTML) are shortened. A failure
 * to log never fails the request.
 */
export async function recordActivity(entry: ActivityEntry): Promise<void> {
  try {
    const db = await getDb();
    await db.insert(activityLogs).values({
      id: newId("activity"),
      ...entry,
      requestBody: shorten(entry.requestBody) ?? null,
      responseBody: shorten(entry.responseBody) ?? null,
    });
  } catch (error) {
    log.warn("activity log write failed", { error: String(error) });
  }
}

function shorten(value: unknown, depth = 0, key = ""): unknown {
  // Attachment contents (at any depth: a batch nests them) are logged as their decoded size only.
  if (key === "contentBlob" && typeof value === "string") return `[base64, ${Buffer.byteLength(value.replace(/\s+/g, ""), "base64")} bytes]`;
  if (typeof value === "string") {
    return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… [${value.length - MAX_STRING} more characters]` : value;
  }
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 1000).map((item) => shorten(item, depth + 1));
  return Object.fromEntries(Object.entries(value).slice(0, 200).map(([key, inner]) => [key, shorten(inner, depth + 1, key)]));
}
