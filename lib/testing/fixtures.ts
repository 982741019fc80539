import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { getDb } from "@/db/client";
import { asc, eq } from "drizzle-orm";
import { emailMessageLogs, emailMessages, localInbox, workspaces } from "@/db/schema";
import { addDomain } from "@/lib/domain/domains/add-domain";
import { basicAuthHeader, createApiKey } from "@/lib/domain/api-keys/create-api-key";
import { createTemplate, type CreateTemplateInput } from "@/lib/domain/templates/create-template";
import { newId } from "@/lib/foundation/ids";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";

/**
 * A fresh workspace per test: tests on the shared PostgreSQL database never see each other's rows.
 * Test mode is off unless asked (most tests send to arbitrary addresses); example.com is verified.
 * Open and click tracking is off unless asked (on by default in production): most delivery tests
 * assert on the exact HTML a provider gets; app/t/tracking.test.ts covers tracking.
 */
export async function createTestWorkspace(options: { testMode?: boolean; name?: string; tracking?: boolean } = {}) {
  const created = await createWorkspace({
    name: options.name ?? "Test workspace",
    testMode: options.testMode ?? false,
  });
  const trackingEnabled = options.tracking ?? false;
  const db = await getDb();
  const [workspace] = await db
    .update(workspaces)
    .set({ trackingEnabled })
    .where(eq(workspaces.id, created.id))
    .returning();
  const domain = await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
  const key = await createApiKey({ workspaceId: workspace.id, name: "test key", actor: AUDIT_SYSTEM_ACTOR });
  return {
    workspace,
    domain,
    key,
    authorization: basicAuthHeader(key.id, key.password),
    createTemplate: (input: Partial<CreateTemplateInput> = {}) =>
      createTemplate({
        workspaceId: workspace.id,
        name: "Welcome",
        subject: "Welcome, {{ name }}",
        bodyHtml: '<p>Hello {{ name }}, <a href="https://example.com/start">get started</a>.</p>',
        fromAddress: "Acme <hello@example.com>",
        ...input,
      }),
  };
}

/** A live PENDING message row written directly (for tests of reads and of the timeline). */
export async function insertTestMessage(
  workspaceId: string,
  overrides: Partial<typeof emailMessages.$inferInsert> = {},
) {
  const createdAt = overrides.createdAt ?? new Date();
  const id = overrides.id ?? newId("message", createdAt);
  await (await getDb()).insert(emailMessages).values({
    id,
    workspaceId,
    source: "API",
    sandbox: false,
    status: "PENDING",
    to: ["Ada <ada@example.org>"],
    toAddresses: ["ada@example.org"],
    from: "hello@example.com",
    subject: "Hello",
    bodyHtml: "<p>x</p>",
    bodyText: "x",
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  });
  return id;
}

/** A message, its timeline in order, and what the local inbox holds for it: what delivery tests assert on. */
export async function readMessageState(messageId: string) {
  const db = await getDb();
  const [message] = await db.select().from(emailMessages).where(eq(emailMessages.id, messageId));
  const events = await db
    .select()
    .from(emailMessageLogs)
    .where(eq(emailMessageLogs.emailMessageId, messageId))
    .orderBy(asc(emailMessageLogs.createdAt), asc(emailMessageLogs.id));
  const inbox = await db.select().from(localInbox).where(eq(localInbox.emailMessageId, messageId));
  return { message, events, codes: events.map((event) => event.code), inbox };
}
