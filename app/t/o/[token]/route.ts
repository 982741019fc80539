import { clientFromHeaders } from "@/lib/domain/tracking/client-info";
import { PIXEL_HEADERS, TRANSPARENT_GIF } from "@/lib/domain/tracking/pixel";
import { trackOpen } from "@/lib/domain/tracking/record-open";

type Context = { params: Promise<{ token: string }> };

export const dynamic = "force-dynamic";

// GET /t/o/<token> – the open pixel: always the 1×1 GIF; records the open when the token is ours
export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  await trackOpen(token, clientFromHeaders(request.headers));
  return new Response(new Uint8Array(TRANSPARENT_GIF), { status: 200, headers: PIXEL_HEADERS });
}

// HEAD /t/o/<token> – a link checker, not a display: the same answer, nothing recorded
export async function HEAD(): Promise<Response> {
  return new Response(null, { status: 200, headers: PIXEL_HEADERS });
}
