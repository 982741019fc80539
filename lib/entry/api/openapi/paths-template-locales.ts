import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId } from "./operation";

// /v1/templates/{id}/locales and below (docs/api.md#template-locales): read with templates:read, change with
// templates:write; every change is the template's next version.
const tag = "Templates";
const templateId = pathId("template", "tpl_");
const locale: JsonObject = {
  name: "locale",
  in: "path",
  required: true,
  description: "A BCP 47 tag, canonicalised (`fr_ca` is `fr-CA`); one that is not well formed → 400 naming `locale`.",
  schema: { type: "string" },
};
const ifMatch: JsonObject = {
  name: "If-Match",
  in: "header",
  required: false,
  description: 'The template version the change was made from ("3"); another save since → 409 CONFLICT.',
  schema: { type: "string" },
};
const etag = { ETag: { description: 'The template\'s version ("3"), for If-Match.', schema: { type: "string" } } };
const lint =
  ' A table lacking a key the locale\'s effective content uses (`{% t "key" %}`, `{{ "key" | t }}`) is refused with 422 TEMPLATE_MISSING_TRANSLATIONS naming `messages`, one detail per key (`messages["cart.title"]`), unless the variant has fallsBackForMissingKeys.';
const saved = {
  status: "200" as const,
  description: "The locale, at the template's new version.",
  data: "TemplateLocale",
  headers: etag,
};

export const templateLocalePaths: Record<string, JsonObject> = {
  "/v1/templates/{id}/locales": {
    get: operation({
      operationId: "listTemplateLocales",
      summary: "A template's locales: the default, then each variant with what it overrides and lacks",
      tag,
      scope: "templates:read",
      parameters: [templateId],
      success: [
        {
          status: "200",
          description: "Every locale.",
          list: { meta: "TemplateLocaleListMeta", item: "TemplateLocaleSummary" },
        },
      ],
      errors: ["404"],
    }),
  },
  "/v1/templates/{id}/locales/{locale}": {
    get: operation({
      operationId: "getTemplateLocale",
      summary: "Retrieve a locale with its content and message table",
      description:
        "The default locale answers even before it has a message table; another locale without a variant is 404 naming `locale`.",
      tag,
      scope: "templates:read",
      parameters: [templateId, locale],
      success: [{ status: "200", description: "The locale.", data: "TemplateLocale", headers: etag }],
      errors: ["400", "404"],
    }),
    put: operation({
      operationId: "putTemplateLocale",
      summary: "Add or replace a locale variant, saved as the template's next version",
      description: `The whole variant: a content field left out is inherited along the chain. The default locale takes only messages, sampleData and fallsBackForMissingKeys (its content is the template's own: 400 naming the field).${lint}`,
      tag,
      scope: "templates:write",
      parameters: [templateId, locale, ifMatch],
      body: { schema: "PutTemplateLocaleRequest" },
      success: [saved],
      errors: [...JSON_BODY_ERRORS, "404", "409", "422"],
    }),
    delete: operation({
      operationId: "deleteTemplateLocale",
      summary: "Delete a locale variant, as the template's next version",
      description: "The default locale's: 409 CONFLICT naming `locale` (make another the default first).",
      tag,
      scope: "templates:write",
      parameters: [templateId, locale, ifMatch],
      success: [{ status: "200", description: "Deleted.", data: "DeletedTemplateLocale", headers: etag }],
      errors: ["400", "404", "409"],
    }),
  },
  "/v1/templates/{id}/locales/{locale}/messages": {
    get: operation({
      operationId: "exportTemplateMessages",
      summary: "Export a locale's message table as a translators' JSON file",
      description:
        "The bare table (no `data` envelope), keys sorted, as an attachment named `<template>-<locale>.json`.",
      tag,
      scope: "templates:read",
      parameters: [templateId, locale],
      success: [
        {
          status: "200",
          description: "The table.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/MessageTable" } } },
          headers: {
            ...etag,
            "Content-Disposition": {
              description: 'attachment; filename="<template>-<locale>.json"',
              schema: { type: "string" },
            },
          },
        },
      ],
      errors: ["400", "404"],
    }),
    put: operation({
      operationId: "importTemplateMessages",
      summary: "Import a locale's message table (the body IS the table), as the template's next version",
      description: `Replaces the locale's table; a locale without a variant gets one holding only the table. Keys are 1 to 128 of A–Z a–z 0–9 _ . -; each value a text that parses as an ICU message, else 400 naming \`messages["key"]\`.${lint}`,
      tag,
      scope: "templates:write",
      parameters: [templateId, locale, ifMatch],
      body: { schema: "MessageTable" },
      success: [saved],
      errors: [...JSON_BODY_ERRORS, "404", "409", "422"],
    }),
  },
};
