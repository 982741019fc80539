import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { callApi } from "@/lib/testing/http";

/**
 * The upgrade fixture's dataset, written the way users write it: the workspace, its domain and first
 * key through the use cases the CLI calls (a key cannot create a workspace), everything else through
 * the public API. Small on purpose: a row or two of each kind.
 */
export interface FixtureCredentials {
  /** The API key created first (scope full): the upgraded release is called with it. */
  apiKey: { id: string; secret: string };
  /** A second key, created through the API with one scope. */
  sendingKey: { id: string; secret: string };
  /** Each webhook endpoint's signing secret as its create answer showed it (stored sealed with AUTH_SECRET). */
  webhookSecrets: Record<string, string>;
}

export interface WrittenData {
  workspaceId: string;
  authorization: string;
  credentials: FixtureCredentials;
  /** Messages the worker must finish before the snapshot (every live one except the scheduled). */
  deliveredMessageIds: string[];
}

async function post(authorization: string, path: string, body: unknown, method = "POST") {
  const answer = await callApi(path, { authorization, body, method });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${answer.text}`);
  return answer.json.data;
}

export async function writeFixtureData(receiverUrl: string): Promise<WrittenData> {
  const workspace = await createWorkspace({ name: "Upgrade fixture", testMode: false });
  await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
  const key = await createApiKey({ workspaceId: workspace.id, name: "fixture key", actor: AUDIT_SYSTEM_ACTOR });
  const authorization = basicAuthHeader(key.id, key.password);
  const call = (path: string, body: unknown, method?: string) => post(authorization, path, body, method);

  const template = await call("/v1/templates", {
    name: "Welcome",
    subject: "Welcome, {{ name }}",
    bodyHtml: '<p>Hello {{ name }}, <a href="https://example.com/start">get started</a>.</p>',
    fromAddress: "Acme <hello@example.com>",
  });
  await call(`/v1/templates/${template.id}`, { subject: "Welcome aboard, {{ name }}", version: 1 }, "PATCH");
  await call(`/v1/templates/${template.id}/scenarios`, { name: "Ada", variables: { name: "Ada" } });
  await call("/v1/templates", { name: "Receipt", subject: "Your receipt", bodyHtml: "<p>Paid: {{ total }}</p>" });

  const group = await call("/v1/unsubscribe_groups", { key: "news", name: "News" });
  const endpoint = await call("/v1/webhook_endpoints", { url: receiverUrl, description: "fixture receiver" });
  const sending = await call("/v1/api_keys", { name: "sending only", scopes: ["emails:send"] });
  await call("/v1/suppressions", { email: "blocked@example.org", detail: "asked by phone" });

  const from = "Acme <hello@example.com>";
  const sent = [
    await call("/v1/email_messages", { from, to: "Ada <ada@example.org>", subject: "Plain", bodyHtml: "<p>Hi</p>" }),
    await call("/v1/email_messages", {
      to: "Grace <grace@example.org>",
      templateId: template.id,
      variables: { name: "Grace" },
      metadata: { order: 42 },
      groupId: group.id,
    }),
    await call("/v1/email_messages", {
      from,
      to: "delivered@simulator.postwerk.test",
      subject: "Delivered",
      bodyHtml: "<p>x</p>",
    }),
    await call("/v1/email_messages", {
      from,
      to: "bounced@simulator.postwerk.test",
      subject: "Bounced",
      bodyHtml: "<p>x</p>",
    }),
  ];
  const batch = await call("/v1/batches", {
    emailMessages: [
      { from, to: "linus@example.org", subject: "Batch one", bodyText: "one", bodyHtml: "<p>one</p>" },
      { from, to: "margaret@example.org", subject: "Batch two", bodyHtml: "<p>two</p>" },
    ],
  });
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString();
  await call("/v1/email_messages", {
    from,
    to: "ada@example.org",
    subject: "Later",
    bodyHtml: "<p>later</p>",
    scheduledAt: inAWeek,
  });

  return {
    workspaceId: workspace.id,
    authorization,
    credentials: {
      apiKey: { id: key.id, secret: key.password },
      sendingKey: { id: sending.id, secret: sending.secret },
      webhookSecrets: { [endpoint.id]: endpoint.secret },
    },
    deliveredMessageIds: [...sent.map((message: { id: string }) => message.id), ...batch.emailMessageIds],
  };
}
