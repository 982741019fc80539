import { connection } from "next/server";
import { MB, readJsonBody } from "@/lib/entry/api/read-json";
import { errorReply, jsonResponse, ok } from "@/lib/entry/api/respond";
import { previewDraft } from "@/lib/domain/templates/preview-draft";
import { requireDashboard } from "@/app/_lib/dashboard-context";

// POST /templates/preview – the editor's live preview: an unsaved draft and sample data through the one
// renderer. Session-authenticated; it reads no tenant data, so any member may call it.
export async function POST(request: Request) {
  await connection();
  await requireDashboard();
  try {
    return jsonResponse(ok(previewDraft(await readJsonBody(request, 2 * MB))));
  } catch (error) {
    return jsonResponse(errorReply(error));
  }
}
