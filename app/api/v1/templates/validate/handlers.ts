import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { previewDraft, previewDraftSchema } from "@/lib/domain/templates/preview-draft";
import { assertKnownKeys } from "@/lib/foundation/validation.shared";
import { serializeValidation } from "@/lib/domain/templates/serialize";

// POST /v1/templates/validate – a draft rendered as the editor's preview renders it, nothing saved:
// every field's Liquid error with its line and column
export const POST = withApiKey(
  { scope: "templates:read", body: "json", maxBytes: 2 * 1024 * 1024 },
  async ({ body }) => {
    assertKnownKeys(body, previewDraftSchema);
    return ok(serializeValidation(previewDraft(body)));
  },
);
