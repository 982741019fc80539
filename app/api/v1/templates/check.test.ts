import { describe, expect, it } from "vitest";
import { contentCheckResource } from "@/lib/entry/api/openapi/resources-deliverability";
import { saveTemplateScenario } from "@/lib/domain/templates/save-template-scenario";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { scopedAuthorization } from "@/lib/testing/management";
import { useSettings } from "@/lib/testing/settings";

type Finding = { rule: string; severity: string; message: string; locale?: string };
const rulesOf = (findings: Finding[]) => findings.map((finding) => [finding.rule, finding.severity, finding.locale]);

/** A template made to trip the rules that read its HTML, subject and variables. */
async function trippingTemplate() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    name: "Tripwire",
    subject: "Hello {{ name }}, this subject goes on and on well past what any inbox list shows",
    bodyHtml:
      '<p>Hi {{ name }} {{ plan }}</p><img src="https://acme.test/a.png"><a href="http://acme.test/x">x</a>' +
      '<a href="https://evil.example/login">www.bank.example</a><a href="https://bit.ly/abc">deal</a>',
  });
  await saveTemplateScenario({
    workspaceId: ws.workspace.id,
    templateId: template.id,
    name: "Ada",
    variables: { name: "Ada", plan: "" },
  });
  const check = (body?: unknown, authorization = ws.authorization) =>
    callApi(`/api/v1/templates/${template.id}/check`, { method: "POST", authorization, body });
  return { ws, template, check };
}

describe("POST /v1/templates/:id/check", () => {
  it("renders with the first scenario and answers each rule's finding, errors first; spamd not configured is a note", async () => {
    useSettings({ SPAMD_URL: undefined });
    const { check } = await trippingTemplate();
    const answer = await check();
    expect(answer.status).toBe(200);
    expect(answer.json.data.status).toBe("error");
    expect(answer.json.data.locales).toEqual(["en"]);
    expect(answer.json.data.spam).toEqual({ status: "not_checked", score: null, threshold: null, rules: [] });
    expect(rulesOf(answer.json.data.findings)).toEqual([
      ["link_text_mismatch", "error", undefined],
      ["image_alt", "warning", undefined],
      ["insecure_link", "warning", undefined],
      ["shortener", "warning", undefined],
      ["subject_length", "warning", undefined],
      ["empty_variables", "warning", undefined],
      ["spam_score", "info", undefined],
      ["text_part", "info", undefined],
      ["unsubscribe_link", "info", undefined],
    ]);
    // The OpenAPI document's ContentCheck, strict at the top: the answer has nothing it does not name.
    expect(() => contentCheckResource.strict().parse(answer.json.data)).not.toThrow();
    const empty = answer.json.data.findings.find((finding: Finding) => finding.rule === "empty_variables");
    expect(empty.message).toBe("Render empty with the sample data: plan.");
  });

  it("takes variables, one locale and groupMail; every locale of the template when none is named", async () => {
    const { check, ws, template } = await trippingTemplate();
    const group = await check({ variables: { name: "Bo", plan: "Pro" }, groupMail: true, locale: "EN" });
    expect(group.status).toBe(200);
    const rules = rulesOf(group.json.data.findings);
    expect(rules).toContainEqual(["unsubscribe_link", "error", undefined]);
    expect(rules.map(([rule]) => rule)).not.toContain("empty_variables");
    const put = await callApi(`/api/v1/templates/${template.id}/locales/fr`, {
      method: "PUT",
      authorization: ws.authorization,
      body: { subject: "Bonjour {{ name }}", sampleData: { name: "Zoé", plan: "Pro" } },
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    const both = await check();
    expect(both.json.data.locales).toEqual(["en", "fr"]);
    const subjects = both.json.data.findings.filter((finding: Finding) => finding.rule === "subject_length");
    expect(subjects.map((finding: Finding) => finding.locale)).toEqual(["en"]);
    const empties = both.json.data.findings.filter((finding: Finding) => finding.rule === "empty_variables");
    expect(empties.map((finding: Finding) => finding.locale)).toEqual(["en"]);
  });

  it("refuses bad input naming the field, another workspace's template (404) and a key without templates:read", async () => {
    const { check, ws, template } = await trippingTemplate();
    for (const [body, param] of [
      [{ variables: [] }, "variables"],
      [{ locale: "not a tag!" }, "locale"],
      [{ groupMail: "yes" }, "groupMail"],
      [{ unknown: 1 }, "unknown"],
    ] as const) {
      const answer = await check(body);
      expect([answer.status, answer.json.error?.param], JSON.stringify(body)).toEqual([400, param]);
    }
    const other = await createTestWorkspace();
    expect((await check(undefined, other.authorization)).status).toBe(404);
    const narrow = await scopedAuthorization(ws.workspace.id, ["emails:send"]);
    expect((await check(undefined, narrow)).status).toBe(403);
    expect(template.id).toMatch(/^tpl_/);
  });
});
