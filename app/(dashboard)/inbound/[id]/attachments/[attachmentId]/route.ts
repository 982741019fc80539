import { connection } from "next/server";
import { readInboundAttachmentForDashboard } from "@/lib/domain/inbound/dashboard-inbound-reads";
import { requireDashboard } from "@/app/_lib/dashboard-context";

type Context = { params: Promise<{ id: string; attachmentId: string }> };

// GET /inbound/<inm_…>/attachments/<inatt_…>: a received file, for the signed-in workspace only. Always a download,
// never rendered on this origin: a sender's HTML file must not run as the dashboard.
export async function GET(_request: Request, { params }: Context) {
  await connection();
  const { id, attachmentId } = await params;
  const { workspace } = await requireDashboard();
  const found = await readInboundAttachmentForDashboard(workspace.id, id, attachmentId);
  if (!found) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const name = found.file.filename || found.file.id;
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return new Response(new Uint8Array(found.bytes), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
