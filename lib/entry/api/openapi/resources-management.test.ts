import { describe, expect, it } from "vitest";
import { z } from "zod";
import { listApiKeys } from "@/lib/domain/api-keys/list-api-keys";
import { serializeApiKey, serializeCreatedApiKey } from "@/lib/domain/api-keys/serialize";
import { newGroupSummary, serializeContact, serializeContactDetail, serializeGroup } from "@/lib/domain/contacts/api";
import { createUnsubscribeGroup } from "@/lib/domain/contacts/create-unsubscribe-group";
import { getContactDetail } from "@/lib/domain/contacts/get-contact-detail";
import { getUnsubscribeGroup } from "@/lib/domain/contacts/get-unsubscribe-group";
import { searchContacts } from "@/lib/domain/contacts/search-contacts";
import { upsertContacts } from "@/lib/domain/contacts/upsert-contacts";
import { getDb } from "@/db/client";
import { describeDomain } from "@/lib/domain/domains/describe-domain";
import { listDomains } from "@/lib/domain/domains/list-domains";
import { serializeDomain, serializeDomainSummary } from "@/lib/domain/domains/serialize";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import { serializeSuppression } from "@/lib/domain/suppressions/api";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { serializeWorkspace } from "@/lib/domain/workspaces/api";
import { readWorkspace } from "@/lib/domain/workspaces/read-workspace";
import * as management from "./resources-management";

/** Strict at the top level: a field the serializer adds but the document lacks fails here. */
const conforms = (schema: z.ZodObject, value: unknown) => expect(() => schema.strict().parse(value)).not.toThrow();

describe("OpenAPI management resources match their serializers", () => {
  it("Domain (with and without a return path), DomainSummary, Suppression", async () => {
    const ws = await createTestWorkspace();
    conforms(management.domainResource, serializeDomain(describeDomain(ws.domain)));
    useSettings({ BOUNCE_DOMAIN: "bounces.example.com" });
    conforms(management.domainResource, serializeDomain(describeDomain(ws.domain)));
    useSettings({ BOUNCE_DOMAIN: undefined });
    for (const domain of await listDomains(ws.workspace.id))
      conforms(management.domainSummaryResource, serializeDomainSummary(domain));
    const row = await addSuppression({ workspaceId: ws.workspace.id, email: "ann@example.org", reason: "MANUAL" });
    conforms(management.suppressionResource, serializeSuppression(row));
    conforms(management.removedSuppression, { ...serializeSuppression(row), deleted: true });
  });

  it("ApiKey (and with its secret once), Workspace", async () => {
    const ws = await createTestWorkspace();
    conforms(management.createdApiKeyResource, serializeCreatedApiKey(ws.key));
    for (const key of await listApiKeys(ws.workspace.id)) conforms(management.apiKeyResource, serializeApiKey(key));
    const { settings, sending } = await readWorkspace(ws.workspace.id);
    conforms(management.workspaceResource, serializeWorkspace(settings, sending));
    conforms(management.resumedWorkspace, { ...serializeWorkspace(settings, sending), resumed: 0 });
  });

  it("Contact, ContactDetail (with a message, a group left and a suppression), UnsubscribeGroup", async () => {
    const ws = await createTestWorkspace();
    await upsertContacts(await getDb(), ws.workspace.id, [{ address: "ann@example.org", name: "Ann" }]);
    const group = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "News" });
    conforms(management.unsubscribeGroupResource, serializeGroup(newGroupSummary(group)));
    const summary = await getUnsubscribeGroup(ws.workspace.id, group.id);
    conforms(management.unsubscribeGroupResource, { ...serializeGroup(summary!), keyLocked: summary!.keyLocked });
    await insertTestMessage(ws.workspace.id, { to: ["ann@example.org"], toAddresses: ["ann@example.org"] });
    await addSuppression({ workspaceId: ws.workspace.id, email: "ann@example.org", reason: "MANUAL" });
    const [contact] = (await searchContacts(ws.workspace.id, {})).items;
    conforms(management.contactResource, serializeContact(contact));
    const detail = serializeContactDetail((await getContactDetail(ws.workspace.id, contact.id))!);
    expect(detail.messages).toHaveLength(1);
    conforms(management.contactDetailResource, detail);
  });
});
