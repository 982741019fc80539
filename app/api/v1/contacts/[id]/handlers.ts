import { apiActor } from "@/lib/entry/api/api-actor";
import { ok } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { serializeContactDetail, updateContactApiSchema } from "@/lib/domain/contacts/api";
import { getContactDetail } from "@/lib/domain/contacts/get-contact-detail";
import { setContactLocale } from "@/lib/domain/contacts/set-contact-locale";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { notFound } from "@/lib/foundation/errors";
import { parseBody } from "@/lib/foundation/validation.shared";

// GET /v1/contacts/:id – with every group (and whether it left it), its newest messages and its suppression
export const GET = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "none" },
  async ({ principal, params }) => {
    const detail = await getContactDetail(principal.workspaceId, params.id);
    if (!detail) throw notFound(`Contact ${params.id}`, "id");
    return ok(serializeContactDetail(detail));
  },
);

// PATCH /v1/contacts/:id – the contact's locale (null clears it); the only field that can change
export const PATCH = withApiKey<{ id: string }>(
  { scope: "contacts:write", body: "json", maxBytes: 4 * 1024 },
  async ({ principal, request, params, body }) => {
    const { locale } = parseBody(updateContactApiSchema, body);
    const canonical = locale === null ? null : canonicalLocaleOrThrow(locale, "locale");
    await setContactLocale(principal.workspaceId, params.id, canonical, apiActor(principal, request));
    const detail = await getContactDetail(principal.workspaceId, params.id);
    if (!detail) throw notFound(`Contact ${params.id}`, "id");
    return ok(serializeContactDetail(detail));
  },
);
