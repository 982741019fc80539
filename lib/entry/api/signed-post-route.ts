import { errorReply, jsonResponse, ok } from "@/lib/entry/api/respond";
import { AppError } from "@/lib/foundation/errors";

/**
 * The route of a door an outside service posts signed events to (Resend's Svix deliveries, SNS
 * notifications of SES events). The signature inside the request is the credential, so a refusal
 * carries no Basic challenge; the body is capped before it is read in full.
 */
export function signedPostRoute(options: {
  /** The largest body a genuine event can have. */
  maxBytes: number;
  /** What one body is, for the 413 sentence ("A Resend event", "An SNS message"). */
  bodyName: string;
  ingest: (body: string, headers: Headers) => Promise<unknown>;
}) {
  const { maxBytes, bodyName, ingest } = options;
  const tooLarge = () => new AppError("PAYLOAD_TOO_LARGE", `${bodyName} is at most ${maxBytes / 1024} KB.`);

  async function POST(request: Request): Promise<Response> {
    try {
      if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
      const body = await request.text();
      if (body.length > maxBytes) throw tooLarge();
      return jsonResponse(ok(await ingest(body, request.headers)));
    } catch (error) {
      const reply = errorReply(error);
      const headers = { ...reply.headers };
      delete headers["www-authenticate"];
      return jsonResponse({ ...reply, headers });
    }
  }

  return { POST };
}
