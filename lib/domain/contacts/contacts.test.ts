import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { groupUnsubscribes } from "@/db/schema";
import { newId } from "@/lib/foundation/ids";
import { addSuppression } from "@/lib/domain/suppressions/add-suppression";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { createUnsubscribeGroup } from "./create-unsubscribe-group";
import { getContactDetail } from "./get-contact-detail";
import { searchContacts } from "./search-contacts";
import { upsertContacts } from "./upsert-contacts";

async function seedContacts(workspaceId: string, people: Array<[string, string | null]>) {
  await upsertContacts(
    await getDb(),
    workspaceId,
    people.map(([address, name]) => ({ address, name })),
  );
}

describe("upserting contacts", () => {
  it("a display name sets the name, a bare address keeps it; addresses are lower-cased, one row each", async () => {
    const ws = await createTestWorkspace();
    await seedContacts(ws.workspace.id, [
      ["Ada@Example.org", "Ada"],
      ["bob@example.org", null],
      ["ada@example.org", null],
    ]);
    const namesOf = async () => (await searchContacts(ws.workspace.id, {})).items.map((c) => [c.email, c.name]);
    expect(await namesOf()).toEqual([
      ["ada@example.org", "Ada"],
      ["bob@example.org", null],
    ]);
    await seedContacts(ws.workspace.id, [
      ["ada@example.org", null],
      ["BOB@example.org", "Bob"],
      ["carol@example.org", "Carol \u{1F600}"],
    ]);
    expect(await namesOf()).toEqual([
      ["ada@example.org", "Ada"],
      ["bob@example.org", "Bob"],
      ["carol@example.org", "Carol \u{1F600}"],
    ]);
  });
});

describe("searching contacts", () => {
  it("pages alphabetically in both directions with stable cursors", async () => {
    const ws = await createTestWorkspace();
    const emails = Array.from({ length: 7 }, (_, index) => `person${index}@example.org`);
    await seedContacts(
      ws.workspace.id,
      emails.map((email) => [email, null]),
    );
    const first = await searchContacts(ws.workspace.id, { limit: 3 });
    expect(first.items.map((c) => c.email)).toEqual(emails.slice(0, 3));
    expect(first.previousBefore).toBeNull();
    const second = await searchContacts(ws.workspace.id, { limit: 3, after: first.nextAfter! });
    expect(second.items.map((c) => c.email)).toEqual(emails.slice(3, 6));
    const third = await searchContacts(ws.workspace.id, { limit: 3, after: second.nextAfter! });
    expect(third.items.map((c) => c.email)).toEqual(emails.slice(6));
    expect(third.nextAfter).toBeNull();
    const back = await searchContacts(ws.workspace.id, { limit: 3, before: third.previousBefore! });
    expect(back.items.map((c) => c.email)).toEqual(emails.slice(3, 6));
    expect(back.nextAfter).toBe(emails[5]);
    expect(back.previousBefore).toBe(emails[3]);
  });

  it("pages a name-or-address search in address order in both directions, the two matches merged", async () => {
    const ws = await createTestWorkspace();
    // By address: ann1, ann2; by name: b… and z… addresses named "Ann …"; c… matches neither.
    const rows: Array<[string, string | null]> = [
      ["ann1@example.org", null],
      ["ann2@example.org", "Someone"],
      ["b1@example.org", "Ann B"],
      ["c1@example.org", "Carl"],
      ["z1@example.org", "ann z"],
      ["z2@example.org", "Annika"],
    ];
    await seedContacts(ws.workspace.id, rows);
    const first = await searchContacts(ws.workspace.id, { query: "ANN", limit: 2 });
    expect(first.items.map((c) => c.email)).toEqual(["ann1@example.org", "ann2@example.org"]);
    const second = await searchContacts(ws.workspace.id, { query: "ann", limit: 2, after: first.nextAfter! });
    expect(second.items.map((c) => c.email)).toEqual(["b1@example.org", "z1@example.org"]);
    expect(second.previousBefore).toBe("b1@example.org");
    const third = await searchContacts(ws.workspace.id, { query: "ann", limit: 2, after: second.nextAfter! });
    expect(third.items.map((c) => c.email)).toEqual(["z2@example.org"]);
    expect(third.nextAfter).toBeNull();
    const back = await searchContacts(ws.workspace.id, { query: "ann", limit: 2, before: third.previousBefore! });
    expect(back.items.map((c) => c.email)).toEqual(["b1@example.org", "z1@example.org"]);
  });

  it("matches an address prefix, or without @ also a name prefix, case-insensitively; LIKE wildcards are literal", async () => {
    const ws = await createTestWorkspace();
    await seedContacts(ws.workspace.id, [
      ["ada@example.org", "Ada Lovelace"],
      ["adam@example.org", null],
      ["zed@example.org", "Adalbert Stifter"],
      ["a_z@example.org", null],
      ["bob@example.net", "Bob"],
    ]);
    const emailsOf = async (query: string) =>
      (await searchContacts(ws.workspace.id, { query })).items.map((c) => c.email);
    expect(await emailsOf("ADA")).toEqual(["ada@example.org", "adam@example.org", "zed@example.org"]);
    expect(await emailsOf("ada@")).toEqual(["ada@example.org"]);
    expect(await emailsOf("a_")).toEqual(["a_z@example.org"]);
    expect(await emailsOf("bob@example.n")).toEqual(["bob@example.net"]);
    expect(await emailsOf("z")).toEqual(["zed@example.org"]);
    expect(await emailsOf("nobody")).toEqual([]);
  });

  it("never shows another workspace's contacts", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await seedContacts(other.workspace.id, [["secret@example.org", "Secret"]]);
    expect((await searchContacts(ws.workspace.id, { query: "secret" })).items).toEqual([]);
  });
});

describe("a contact's detail", () => {
  it("shows its messages (to_addresses), unsubscribe state per group and suppression", async () => {
    const ws = await createTestWorkspace();
    await seedContacts(ws.workspace.id, [["ada@example.org", "Ada"]]);
    const [contact] = (await searchContacts(ws.workspace.id, { query: "ada@" })).items;
    const news = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "news", name: "Newsletter" });
    const receipts = await createUnsubscribeGroup({ workspaceId: ws.workspace.id, key: "receipts", name: "Receipts" });
    await (
      await getDb()
    )
      .insert(groupUnsubscribes)
      .values({ id: newId("unsubscribe"), workspaceId: ws.workspace.id, groupId: news.id, email: "ada@example.org" });
    const older = await insertTestMessage(ws.workspace.id, {
      subject: "First",
      createdAt: new Date(Date.now() - 60_000),
    });
    const newer = await insertTestMessage(ws.workspace.id, { subject: "Second" });
    await insertTestMessage(ws.workspace.id, {
      subject: "To someone else",
      to: ["bob@example.org"],
      toAddresses: ["bob@example.org"],
    });
    const elsewhere = await createTestWorkspace();
    await insertTestMessage(elsewhere.workspace.id, { subject: "Other tenant" });
    await addSuppression({
      workspaceId: ws.workspace.id,
      email: "ada@example.org",
      reason: "HARD_BOUNCE",
      detail: "550 gone",
    });

    const detail = await getContactDetail(ws.workspace.id, contact.id);
    expect(detail!.contact).toMatchObject({ email: "ada@example.org", name: "Ada" });
    expect(detail!.messages.map((m) => m.id)).toEqual([newer, older]);
    expect(detail!.groups.map((g) => [g.key, g.unsubscribedAt !== null])).toEqual([
      ["news", true],
      ["receipts", false],
    ]);
    expect(detail!.groups[1].id).toBe(receipts.id);
    expect(detail!.suppression).toMatchObject({ reason: "HARD_BOUNCE", detail: "550 gone" });
  });

  it("is null for another workspace's contact id and for an unknown id", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    await seedContacts(ws.workspace.id, [["ada@example.org", null]]);
    const [contact] = (await searchContacts(ws.workspace.id, {})).items;
    expect(await getContactDetail(other.workspace.id, contact.id)).toBeNull();
    expect(await getContactDetail(ws.workspace.id, "contact_0000000000000000")).toBeNull();
  });
});
