import { errorReply, jsonResponse, ok } from "@/lib/entry/api/respond";
import { unsubscribeContact } from "@/lib/domain/unsubscribe/unsubscribe-contact";

type Context = { params: Promise<{ token: string }> };

// POST /api/unsubscribe/<token> – RFC 8058 one-click unsubscribe: the URL of group mail's List-Unsubscribe
// header. Mail clients post `List-Unsubscribe=One-Click`; the signed token is the authority, so the body
// is not required (an unsubscribe is never refused over its form).
export async function POST(_request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  try {
    const target = await unsubscribeContact(token, "ONE_CLICK");
    return jsonResponse(
      ok({ unsubscribed: true, email: target.email, group: { key: target.group.key, name: target.group.name } }),
    );
  } catch (error) {
    return jsonResponse(errorReply(error));
  }
}

// GET /api/unsubscribe/<token> – a person who opens the header's URL gets the confirm page; GET changes nothing
export async function GET(_request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  return new Response(null, {
    status: 303,
    headers: { location: `/u/${encodeURIComponent(token)}`, "cache-control": "no-store" },
  });
}
