import "server-only";
import { cookies } from "next/headers";
import { env } from "@/lib/foundation/env";
import { WORKSPACE_COOKIE } from "./dashboard-context";

/**
 * Opens `workspaceId` in the dashboard: the switcher, an accepted invitation and the first run all
 * land the user in the workspace they just chose, joined or named. requireDashboard still checks the
 * membership on every request, so callers set it only for a workspace the user belongs to.
 */
export async function openWorkspace(workspaceId: string): Promise<void> {
  (await cookies()).set(WORKSPACE_COOKIE, workspaceId, {
    httpOnly: true,
    sameSite: "lax",
    secure: env().APP_URL.startsWith("https://"),
    path: "/",
    maxAge: 365 * 24 * 3600,
  });
}
