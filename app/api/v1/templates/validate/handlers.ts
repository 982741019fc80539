import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { previewDraft } from "@/lib/domain/templates/preview-draft";
import { serializeValidation } from "@/lib/domain/templates/serialize";

// POST /v1/templates/validate – a draft rendered as the editor's preview renders it, nothing saved:
// every field's Liquid error with its line and column
export const POST = withApiKey({ scope: "templates:read", body: "json", maxBytes: 2 * 1024 * 1024 }, async ({ body }) =>
  ok(serializeValidation(previewDraft(body))),
);
