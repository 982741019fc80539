import { connection } from "next/server";
import { MB, readJsonBody } from "@/lib/entry/api/read-json";
import { errorReply, jsonResponse, ok } from "@/lib/entry/api/respond";
import { checkDraftContent } from "@/lib/flows/content/check-draft-content";
import { requireDashboard } from "@/app/_lib/dashboard-context";

// POST /templates/check – the studio's content check of an unsaved draft (the preview's body, plus groupMail):
// the findings, or null when the draft does not render. Session-authenticated; it reads no tenant data.
export async function POST(request: Request) {
  await connection();
  await requireDashboard();
  try {
    return jsonResponse(ok(await checkDraftContent(await readJsonBody(request, 2 * MB))));
  } catch (error) {
    return jsonResponse(errorReply(error));
  }
}
