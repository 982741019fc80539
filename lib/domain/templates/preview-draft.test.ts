import { describe, expect, it } from "vitest";
import { previewDraft } from "./preview-draft";
import { renderTemplate } from "./render.shared";

describe("previewDraft", () => {
  it("renders exactly what the one renderer renders", () => {
    const draft = {
      subject: "Hi {{ user.name }}",
      bodyHtml: "<p>{{ user.name }} & {{ items | size }}</p>",
      fromAddress: "{{ team }} <a@b.test>",
      variables: { user: { name: "<Ada>" }, items: [1, 2], team: "Ops" },
    };
    const result = previewDraft(draft);
    expect(result.problems).toEqual([]);
    expect(result.rendered).toMatchObject({
      ...renderTemplate({ subject: draft.subject, bodyHtml: draft.bodyHtml, bodyText: null }, draft.variables),
      fromAddress: "Ops <a@b.test>",
    });
  });

  it("reports every field's Liquid error with its line and column", () => {
    const result = previewDraft({ subject: "{{ a | nope }}", bodyHtml: "<p>\n  {% if x %}\n</p>", variables: {} });
    expect(result.rendered).toBeNull();
    expect(result.problems).toEqual([
      expect.objectContaining({ field: "subject", message: expect.stringContaining("nope") }),
      expect.objectContaining({ field: "bodyHtml", line: 2, column: 3 }),
    ]);
  });

  it("lists the variables the sample data lacks, and refuses them in strict mode", () => {
    const draft = {
      subject: "{{ user.name }}",
      bodyHtml: "{% for i in items %}{{ i.title }}{% endfor %}{{ unsubscribeUrl }}",
      variables: { user: {} },
    };
    expect(previewDraft(draft).missingVariables).toEqual(["user.name", "items"]);
    const strict = previewDraft({ ...draft, strict: true });
    expect(strict.rendered).toBeNull();
    expect(strict.problems[0]).toMatchObject({ field: "subject" });
  });

  it("names a bad field of the request", () => {
    expect(() => previewDraft({ subject: 1, bodyHtml: "" })).toThrow(expect.objectContaining({ param: "subject" }));
  });
});
