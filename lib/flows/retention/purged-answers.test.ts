import { afterEach, describe, expect, it } from "vitest";
import { purgeMessageContent } from "@/lib/domain/messages/purge-message-content";
import { setClock } from "@/lib/foundation/clock";
import { newId } from "@/lib/foundation/ids";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { callApi } from "@/lib/testing/http";
import { purgeExpiredMetadata } from "./purge-expired-metadata";
import { seedMail, setRetention } from "./testing";

const DAY = 24 * 3600 * 1000;

afterEach(() => setClock(null));

async function purgeAfter(days: number) {
  const later = new Date(Date.now() + days * DAY);
  setClock(() => later);
  await purgeExpiredMetadata();
  await purgeMessageContent();
}

describe("answers for purged mail (docs/retention.md#the-answers)", () => {
  it("a message, its events, an inbound mail and a thread past the metadata window answer 410 MESSAGE_PURGED", async () => {
    const short = await createTestWorkspace();
    await setRetention(short.workspace.id, { bodyRetentionDays: 3, metadataRetentionDays: 7 });
    const mail = await seedMail(short.workspace.id);
    await purgeAfter(8);

    for (const path of [
      `/v1/email_messages/${mail.sent}`,
      `/v1/email_messages/${mail.sent}/events`,
      `/v1/inbound_messages/${mail.inbound}`,
      `/v1/inbound_messages/${mail.inbound}/raw`,
      `/v1/threads/${mail.threadId}`,
    ]) {
      const res = await callApi(path, { authorization: short.authorization });
      expect([path, res.status]).toEqual([path, 410]);
      expect(res.json.error).toMatchObject({ code: "MESSAGE_PURGED", param: "id" });
      expect(res.json.error.message).toMatch(/7-day retention window/);
    }
    const cancel = await callApi(`/v1/email_messages/${mail.sent}/cancel`, {
      method: "POST",
      authorization: short.authorization,
    });
    expect([cancel.status, cancel.json.error.code]).toEqual([410, "MESSAGE_PURGED"]);
    // Waiting mail is never purged: still there, whatever its age.
    expect((await callApi(`/v1/email_messages/${mail.waiting}`, { authorization: short.authorization })).status).toBe(
      200,
    );
    // An id made inside the window that does not exist is the usual 404.
    const inWindow = newId("message", new Date(Date.now() + 2 * DAY));
    const fresh = await callApi(`/v1/email_messages/${inWindow}`, { authorization: short.authorization });
    expect([fresh.status, fresh.json.error.code]).toEqual([404, "NOT_FOUND"]);
  }, 120_000); // the file's first API calls load every route module: slow on a busy machine, never a timing claim

  it("another workspace's message of the same age answers as it does for anyone: 200 for its owner, 404 or 410 for others", async () => {
    const owner = await createTestWorkspace();
    const other = await createTestWorkspace();
    await setRetention(owner.workspace.id, { metadataRetentionDays: 90 });
    await setRetention(other.workspace.id, { bodyRetentionDays: 1, metadataRetentionDays: 7 });
    const mail = await seedMail(owner.workspace.id);
    await purgeAfter(8);
    expect((await callApi(`/v1/email_messages/${mail.sent}`, { authorization: owner.authorization })).status).toBe(200);
    // To the other workspace it is an id older than its window: the same answer as for any id that old.
    const res = await callApi(`/v1/email_messages/${mail.sent}`, { authorization: other.authorization });
    expect([res.status, res.json.error.code]).toEqual([410, "MESSAGE_PURGED"]);
  });

  it("a message whose bodies were purged but whose metadata is kept answers 200 as before, its variables emptied", async () => {
    const ws = await createTestWorkspace();
    await setRetention(ws.workspace.id, { bodyRetentionDays: 3, metadataRetentionDays: 30 });
    const mail = await seedMail(ws.workspace.id);
    await purgeAfter(4);
    const res = await callApi(`/v1/email_messages/${mail.sent}`, { authorization: ws.authorization });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: mail.sent, status: "SUCCEEDED", subject: "Hello", variables: {} });
  });

  it("under a legal hold, the window counts back from when the hold began: nothing held is answered 410", async () => {
    const ws = await createTestWorkspace();
    await setRetention(ws.workspace.id, { bodyRetentionDays: 3, metadataRetentionDays: 7, legalHold: true });
    const mail = await seedMail(ws.workspace.id);
    await purgeAfter(30);
    expect((await callApi(`/v1/email_messages/${mail.sent}`, { authorization: ws.authorization })).status).toBe(200);
    const gone = await callApi(`/v1/email_messages/${newId("message", new Date(Date.now() - 8 * DAY))}`, {
      authorization: ws.authorization,
    });
    expect([gone.status, gone.json.error.code]).toEqual([410, "MESSAGE_PURGED"]);
  });
});
