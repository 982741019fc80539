import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

const tag = "Templates";
const templateId = pathId("template", "tpl_");
const versionParam: JsonObject = {
  name: "version",
  in: "path",
  required: true,
  description: "A version number (1, 2, …).",
  schema: { type: "integer", minimum: 1 },
};
const scenarioId: JsonObject = {
  name: "scenarioId",
  in: "path",
  required: true,
  description: "The scenario id (tpls_…).",
  schema: { type: "string" },
};
const ifMatch: JsonObject = {
  name: "If-Match",
  in: "header",
  required: false,
  description:
    'The version the change was made from, as GET answered it in ETag ("3"); another save since → 409 CONFLICT.',
  schema: { type: "string" },
};
const etag = { ETag: { description: 'The template\'s version ("3"), for If-Match.', schema: { type: "string" } } };
const template = (status: "200" | "201", description: string) => ({
  status,
  description,
  data: "Template",
  headers: etag,
});

/** /v1/templates and below: read with templates:read, change with templates:write (docs/api.md#templates). */
export const templatePaths: Record<string, JsonObject> = {
  "/v1/templates": {
    get: operation({
      operationId: "listTemplates",
      summary: "List the workspace's templates, newest first (beyond the published API)",
      description: "Raw templates (Liquid source), 100 a page at most, with the same keyset cursors as messages.",
      tag,
      scope: "templates:read",
      parameters: [
        queryParam("limit", { type: "integer", minimum: 1, maximum: 100, default: 100 }, "Templates per page."),
        queryParam("cursor.after", { type: "string" }, "A template id: the page after it (older)."),
        queryParam("cursor.before", { type: "string" }, "A template id: the page before it (newer)."),
      ],
      success: [
        { status: "200", description: "One page of templates.", list: { meta: "MessageListMeta", item: "Template" } },
      ],
      errors: ["400"],
    }),
    post: operation({
      operationId: "createTemplate",
      summary: "Create a template (version 1)",
      description:
        "Liquid that does not parse is refused with 422 TEMPLATE_RENDER_ERROR naming the field, line and column. A blocks template sends its block document in `blocks` and the Liquid HTML compiled from it in `bodyHtml`.",
      tag,
      scope: "templates:write",
      body: { schema: "CreateTemplateRequest" },
      success: [template("201", "The template.")],
      errors: [...JSON_BODY_ERRORS, "422"],
    }),
  },
  "/v1/templates/validate": {
    post: operation({
      operationId: "validateTemplate",
      summary: "Render a draft without saving it: every Liquid error with its line and column",
      description: "200 whether or not the draft is valid: `valid`, `problems` and, when valid, `rendered`.",
      tag,
      scope: "templates:read",
      body: { schema: "ValidateTemplateRequest" },
      success: [{ status: "200", description: "The verdict.", data: "TemplateValidation" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/templates/{id}": {
    get: operation({
      operationId: "getTemplate",
      summary: "Retrieve a template",
      tag,
      scope: "templates:read",
      parameters: [templateId],
      success: [template("200", "The template.")],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateTemplate",
      summary: "Change any fields of a template, saved as its next version",
      description:
        "Optimistic concurrency: send the version you read as `version` or If-Match; a save made since answers 409 CONFLICT and changes nothing. Without either, the last write wins. `defaultLocale` (canonicalised) moves the template's own content to that locale: refused with 409 naming it when a variant of that locale has content of its own.",
      tag,
      scope: "templates:write",
      parameters: [templateId, ifMatch],
      body: { schema: "UpdateTemplateRequest" },
      success: [template("200", "The template, at its new version.")],
      errors: [...JSON_BODY_ERRORS, "404", "409", "422"],
    }),
    delete: operation({
      operationId: "deleteTemplate",
      summary: "Delete a template with its versions and scenarios",
      description: "409 CONFLICT naming the workflows while any workflow step sends it.",
      tag,
      scope: "templates:write",
      parameters: [templateId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404", "409"],
    }),
  },
  "/v1/templates/{id}/versions": {
    get: operation({
      operationId: "listTemplateVersions",
      summary: "A template's history, newest first",
      tag,
      scope: "templates:read",
      parameters: [templateId],
      success: [
        {
          status: "200",
          description: "Every version.",
          list: { meta: "TemplateVersionListMeta", item: "TemplateVersionSummary" },
        },
      ],
      errors: ["404"],
    }),
  },
  "/v1/templates/{id}/versions/{version}": {
    get: operation({
      operationId: "getTemplateVersion",
      summary: "Retrieve one version with its content",
      tag,
      scope: "templates:read",
      parameters: [templateId, versionParam],
      success: [{ status: "200", description: "The version.", data: "TemplateVersion" }],
      errors: ["404"],
    }),
  },
  "/v1/templates/{id}/versions/{version}/restore": {
    post: operation({
      operationId: "restoreTemplateVersion",
      summary: "Make a version's content current again, as a new version",
      description:
        "Nothing is lost: the versions in between stay. With If-Match, refused (409) when the template was saved since.",
      tag,
      scope: "templates:write",
      parameters: [templateId, versionParam, ifMatch],
      success: [template("200", "The template, at its new version.")],
      errors: [...JSON_BODY_ERRORS, "404", "409"],
    }),
  },
  "/v1/templates/{id}/scenarios": {
    get: operation({
      operationId: "listTemplateScenarios",
      summary: "A template's sample-data scenarios, by name",
      tag,
      scope: "templates:read",
      parameters: [templateId],
      success: [
        { status: "200", description: "Every scenario.", list: { meta: "CountMeta", item: "TemplateScenario" } },
      ],
      errors: ["404"],
    }),
    post: operation({
      operationId: "saveTemplateScenario",
      summary: "Save a scenario: created, or its variables replaced when the template has one of that name",
      description: "At most 50 per template (400 naming `name`); variables at most 256 KB as JSON.",
      tag,
      scope: "templates:write",
      parameters: [templateId],
      body: { schema: "TemplateScenarioRequest" },
      success: [{ status: "200", description: "The scenario.", data: "TemplateScenario" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
  "/v1/templates/{id}/scenarios/{scenarioId}": {
    get: operation({
      operationId: "getTemplateScenario",
      summary: "Retrieve a scenario",
      tag,
      scope: "templates:read",
      parameters: [templateId, scenarioId],
      success: [{ status: "200", description: "The scenario.", data: "TemplateScenario" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateTemplateScenario",
      summary: "Rename a scenario or replace its variables",
      description: "A name another scenario of the template has: 409.",
      tag,
      scope: "templates:write",
      parameters: [templateId, scenarioId],
      body: { schema: "UpdateTemplateScenarioRequest" },
      success: [{ status: "200", description: "The scenario.", data: "TemplateScenario" }],
      errors: [...JSON_BODY_ERRORS, "404", "409"],
    }),
    delete: operation({
      operationId: "deleteTemplateScenario",
      summary: "Delete a scenario",
      tag,
      scope: "templates:write",
      parameters: [templateId, scenarioId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404"],
    }),
  },
  "/v1/templates/{id}/check": {
    post: operation({
      operationId: "checkTemplateContent",
      summary: "Check a template's content before it ships",
      description:
        "The current version rendered in each locale (or the one named) with `variables`, else each locale's sample data, else the first scenario; findings for Gmail's 102 KB clipping, the text part, images without alt, http:// links, links showing another domain, shorteners, the unsubscribe link (an error with groupMail), the subject's length, variables that render empty, and SpamAssassin's score when SPAMD_URL is set. Reads only. docs/deliverability.md#content-checks.",
      tag,
      scope: "templates:read",
      parameters: [templateId],
      body: { schema: "CheckTemplateContentRequest", optional: true },
      success: [{ status: "200", description: "The findings, errors first.", data: "ContentCheck" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
};
