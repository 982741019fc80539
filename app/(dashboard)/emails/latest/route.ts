import { connection } from "next/server";
import { jsonResponse, ok } from "@/lib/api/respond";
import { countNewerMessages } from "@/lib/messages/list-dashboard-messages";
import { requireDashboard } from "@/app/_lib/dashboard-context";

// GET /emails/latest?newest=em_…&<filters> – how many matching messages are newer than the top row.
// Session-authenticated and scoped to the current workspace; bad filters count nothing, never a 500.
export async function GET(request: Request) {
  await connection();
  const { workspace } = await requireDashboard();
  const params = new URL(request.url).searchParams;
  return jsonResponse(ok(await countNewerMessages(workspace.id, params, params.get("newest") || null)));
}
