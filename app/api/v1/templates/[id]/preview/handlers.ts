import { withApiKey } from "@/lib/entry/api/with-api-key";
import { previewTemplateById } from "@/lib/domain/templates/preview-template-by-id";

// POST /v1/templates/:id/preview?locale= – the body IS the variables; the answer is the HTML document in that locale
export const POST = withApiKey<{ id: string }>(
  { scope: "templates:read", body: "optional" },
  async ({ principal, request, params, body }) => {
    const locale = new URL(request.url).searchParams.get("locale");
    const { rendered, unwrapped, usedLocale, requestedLocale } = await previewTemplateById(
      principal.workspaceId,
      params.id,
      body,
      locale,
    );
    return new Response(rendered.bodyHtml, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        // Rendered user HTML: never run its scripts or let it reach this origin if opened directly.
        "content-security-policy":
          "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline' *; font-src * data:",
        "x-content-type-options": "nosniff",
        // The variant rendered, and the request it answered (docs/templates.md#localisation).
        "content-language": usedLocale,
        ...(requestedLocale ? { "x-postwerk-requested-locale": requestedLocale } : {}),
        ...(unwrapped ? { "x-postwerk-note": "rendered body.variables as the variables" } : {}),
      },
    });
  },
);
