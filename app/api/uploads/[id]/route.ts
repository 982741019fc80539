import { errorReply, jsonResponse, ok } from "@/lib/entry/api/respond";
import { methodNotAllowed } from "@/lib/entry/api/router";
import { receiveUpload } from "@/lib/domain/attachments/receive-upload";
import { serializeAttachment } from "@/lib/domain/attachments/serialize";

// The signed URL is the only credential, so any origin may use it (a browser uploading directly).
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "PUT",
  "access-control-allow-headers": "content-type",
};

// PUT /api/uploads/:id?expires&credential&signature – the raw bytes of an attachment (≤ 40 MB)
export async function PUT(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { attachment, uploadUrl } = await receiveUpload({
      attachmentId: (await params).id,
      query: new URL(request.url).searchParams,
      contentType: request.headers.get("content-type"),
      contentLength: request.headers.get("content-length"),
      body: request.body,
    });
    return jsonResponse(ok(serializeAttachment(attachment, uploadUrl), CORS));
  } catch (error) {
    const reply = errorReply(error);
    // A signature, not HTTP Basic, authorises this URL: a Basic challenge would make browsers prompt.
    const challenge: Record<string, string> =
      reply.status === 401 ? { "www-authenticate": 'Signature realm="upload"' } : {};
    return jsonResponse({ ...reply, headers: { ...reply.headers, ...challenge, ...CORS } });
  }
}

// OPTIONS – CORS preflight for browser uploads
export async function OPTIONS(): Promise<Response> {
  return new Response(null, { status: 204, headers: { ...CORS, "access-control-max-age": "3600" } });
}

const notAllowed = async () => methodNotAllowed("PUT");
export const GET = notAllowed;
export const POST = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
