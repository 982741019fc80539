import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { contacts, emailMessages } from "@/db/schema";
import { getMessageDetail } from "@/lib/domain/messages/get-message-detail";
import { localeWords } from "@/lib/domain/messages/locale-words.shared";
import { createWorkflow } from "@/lib/flows/workflows/create-workflow";
import { runWorkflowStep } from "@/lib/flows/workflows/run-workflow-step";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";

// The workspace's default locale in the send path (docs/templates.md#where-the-locale-comes-from): the send's
// locale, else the first `to` contact's, else the workspace's default, else the template's default; the request then
// walks the fallback chain. The default is never learnt by a contact.

async function setUp() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    subject: "Hello",
    locales: {
      defaultLocale: "en",
      variants: [
        { locale: "fr", subject: "Bonjour" },
        { locale: "fr-CA", subject: "Allô" },
        { locale: "de", subject: "Hallo" },
      ],
    },
  });
  const api = (path: string, body: unknown, method = "POST") =>
    callApi(path, { method, authorization: ws.authorization, body });
  const setDefault = async (defaultLocale: string | null) => {
    const res = await api("/v1/workspace", { defaultLocale }, "PATCH");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
  };
  const sent: string[] = [];
  const send = async (to: string, extra: Record<string, unknown> = {}) => {
    const res = await api("/v1/email_messages", { templateId: template.id, to, ...extra });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    sent.push(res.json.data.id);
    return [res.json.data.subject, res.json.data.locale, res.json.data.requestedLocale];
  };
  const contactLocale = async (email: string) => {
    const [row] = await (
      await getDb()
    )
      .select({ locale: contacts.locale })
      .from(contacts)
      .where(and(eq(contacts.workspaceId, ws.workspace.id), eq(contacts.email, email)));
    return row?.locale;
  };
  return { ws, template, api, setDefault, send, sent, contactLocale };
}

describe("the workspace's default locale", () => {
  it("comes after the send's and the contact's, before the template's default, and walks the chain", async () => {
    const { ws, api, setDefault, send, sent, contactLocale } = await setUp();
    // de@ learns de from a raw send that names it.
    await api("/v1/email_messages", {
      from: "hello@example.com",
      to: "de@example.org",
      subject: "x",
      bodyHtml: "<p>x</p>",
      locale: "de",
    });
    expect(await send("new@example.org")).toEqual(["Hello", "en", null]);
    await setDefault("fr_be");
    // Nothing on the send, no contact locale: the workspace's fr-BE, which falls back to fr.
    expect(await send("new@example.org")).toEqual(["Bonjour", "fr", "fr-BE"]);
    // The dashboard's message page says both.
    const detail = await getMessageDetail(ws.workspace.id, sent.at(-1)!);
    expect(localeWords(detail!.message)).toBe("fr (requested fr-BE)");
    // The contact's locale beats the workspace's default.
    expect(await send("de@example.org")).toEqual(["Hallo", "de", "de"]);
    // The send's beats both.
    expect(await send("de@example.org", { locale: "fr-CA" })).toEqual(["Allô", "fr-CA", "fr-CA"]);
    expect(await send("new@example.org", { locale: "en" })).toEqual(["Hello", "en", "en"]);
    // A default no variant has falls back to the template's default, and both are shown.
    await setDefault("pt-BR");
    expect(await send("other@example.org")).toEqual(["Hello", "en", "pt-BR"]);
    // Cleared: the template's default again, nothing requested.
    await setDefault(null);
    expect(await send("other@example.org")).toEqual(["Hello", "en", null]);
    // A contact learns only a locale a send names, never the workspace's default.
    expect(await contactLocale("other@example.org")).toBeNull();
    expect(await contactLocale("new@example.org")).toBe("en");
  });

  it("a template without variants records only what the send asked for", async () => {
    const { ws, api, setDefault } = await setUp();
    const plain = await ws.createTemplate({ subject: "Plain" });
    await setDefault("fr");
    const res = await api("/v1/email_messages", { templateId: plain.id, to: "ann@example.org" });
    expect(res.json.data).toMatchObject({ subject: "Plain", locale: "en", requestedLocale: null });
  });

  it("applies to batch elements, sandbox sends and workflow steps that name none", async () => {
    const { ws, template, api, setDefault } = await setUp();
    await setDefault("de");
    const element = (to: string, extra: Record<string, unknown> = {}) => ({ templateId: template.id, to, ...extra });
    const batch = await api("/v1/batches", {
      emailMessages: [element("a@example.org"), element("b@example.org", { locale: "fr" })],
    });
    expect(batch.status, JSON.stringify(batch.json)).toBe(201);
    const rows = await Promise.all(
      (batch.json.data.emailMessageIds as string[]).map(
        async (id) => (await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, id)))[0],
      ),
    );
    expect(rows.map((row) => [row.locale, row.requestedLocale])).toEqual([
      ["de", "de"],
      ["fr", "fr"],
    ]);
    const withDefault = await api("/v1/batches", { locale: "fr-CA", emailMessages: [element("c@example.org")] });
    const [id] = withDefault.json.data.emailMessageIds as string[];
    expect((await (await getDb()).select().from(emailMessages).where(eq(emailMessages.id, id)))[0].locale).toBe(
      "fr-CA",
    );

    const sandbox = await api("/v1/sandbox/email_messages", element("d@example.org"));
    expect(sandbox.json.data, JSON.stringify(sandbox.json)).toMatchObject({ locale: "de", requestedLocale: "de" });

    const workflow = await createWorkflow({
      workspaceId: ws.workspace.id,
      definition: { name: "Default", steps: [{ type: "sendEmail", templateId: template.id, to: "{{ email }}" }] },
    });
    const run = await api("/v1/workflow_runs", { workflowId: workflow.id, variables: { email: "e@example.org" } });
    expect(run.status, JSON.stringify(run.json)).toBe(201);
    await runWorkflowStep({ workspaceId: ws.workspace.id, runId: run.json.data.id, step: 0 });
    const [sent] = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(eq(emailMessages.workflowRunId, run.json.data.id));
    expect([sent.subject, sent.locale, sent.requestedLocale]).toEqual(["Hallo", "de", "de"]);
  });
});
