import { connection } from "next/server";
import { jsonResponse, ok } from "@/lib/entry/api/respond";
import { parseEmailListSearch } from "@/lib/domain/messages/email-list-search";
import { countNewerMessages } from "@/lib/domain/messages/list-dashboard-messages";
import { requireDashboard } from "@/app/_lib/dashboard-context";

// GET /emails/latest?newest=em_…&<filters> – how many matching messages are newer than the top row.
// Session-authenticated and scoped to the current workspace; bad filters count nothing, never a 500.
export async function GET(request: Request) {
  await connection();
  const { workspace } = await requireDashboard();
  const params = new URL(request.url).searchParams;
  const filters = parseEmailListSearch(params, { pages: false });
  return jsonResponse(
    ok(
      filters.ok
        ? await countNewerMessages(workspace.id, filters.query, params.get("newest") || null)
        : { count: 0, more: false },
    ),
  );
}
