import { assertSafeParams } from "@/lib/entry/api/input-guard";
import { errorReply, jsonResponse } from "@/lib/entry/api/respond";
import { readSignedInboundAttachment } from "@/lib/domain/inbound/read-signed-attachment";

type Context = { params: Promise<{ id: string; attachmentId: string }> };

// GET /v1/inbound_messages/:id/attachments/:attachmentId – a received file by the signed URL the message gave; always a download
export async function GET(request: Request, { params }: Context): Promise<Response> {
  try {
    const { id, attachmentId } = await params;
    const query = new URL(request.url).searchParams;
    assertSafeParams({ id, attachmentId }, query);
    const { file, bytes } = await readSignedInboundAttachment(id, attachmentId, query);
    const name = file.filename || file.id;
    const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
    return new Response(new Uint8Array(bytes), {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, no-store",
      },
    });
  } catch (error) {
    const reply = errorReply(error);
    const headers = { ...reply.headers };
    delete headers["www-authenticate"];
    return jsonResponse({ ...reply, headers });
  }
}
