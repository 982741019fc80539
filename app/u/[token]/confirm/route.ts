import { AppError } from "@/lib/foundation/errors";
import { unsubscribeContact } from "@/lib/domain/unsubscribe/unsubscribe-contact";

type Context = { params: Promise<{ token: string }> };

// POST /u/<token>/confirm – the unsubscribe page's button; back to the page, which then says it is done
export async function POST(_request: Request, { params }: Context): Promise<Response> {
  const { token } = await params;
  try {
    await unsubscribeContact(token, "PAGE");
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return notFoundPage();
    throw error;
  }
  // 303: the browser follows with a GET, so a reload does not post again.
  return new Response(null, {
    status: 303,
    headers: { location: `/u/${encodeURIComponent(token)}`, "cache-control": "no-store" },
  });
}

function notFoundPage(): Response {
  const html = `<!doctype html><meta charset="utf-8"><title>Not found</title><h1>This unsubscribe link is not valid</h1><p>It may be incomplete: copy the whole link from the email.</p>`;
  return new Response(html, {
    status: 404,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  });
}
