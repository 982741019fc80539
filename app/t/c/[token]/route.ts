import { clientFromHeaders } from "@/lib/domain/tracking/client-info";
import { clickTarget, trackClick } from "@/lib/domain/tracking/record-click";

type Context = { params: Promise<{ token: string }> };

export const dynamic = "force-dynamic";

// GET /t/c/<token> – a tracked link: records the click, then 302 to the link signed into the token
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  const url = await trackClick(token, clientFromHeaders(request.headers));
  return url ? redirect(url) : invalidLink();
}

// HEAD /t/c/<token> – scanners check links with HEAD; no reader does: the same answer, nothing recorded
export async function HEAD(_request: Request, { params }: Context): Promise<Response> {
  const url = clickTarget((await params).token);
  return url ? redirect(url) : invalidLink();
}

function redirect(url: string): Response {
  // no-store: every follow must reach us; no-referrer: the link's site does not learn the token.
  return new Response(null, {
    status: 302,
    headers: { location: url, "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

function invalidLink(): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>Link not valid</title><h1>This link is not valid</h1><p>It may be incomplete: copy the whole link from the email.</p>`;
  return new Response(html, {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
