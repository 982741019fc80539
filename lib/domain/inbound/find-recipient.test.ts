import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inboundRoutes } from "@/db/schema";
import { SHORT_LIVED_CACHE_MS } from "@/lib/foundation/short-lived-cache";
import { getDb } from "@/db/client";
import { AUDIT_SYSTEM_ACTOR } from "@/lib/records/audit/actor";
import { replyLocalPart } from "@/lib/foundation/crypto/bounce-token";
import { createTestWorkspace, insertTestMessage } from "@/lib/testing/fixtures";
import { useSettings } from "@/lib/testing/settings";
import { findInboundRecipient, isInboundDomain } from "./find-recipient";
import { addTestInboundDomain } from "./route-testing";
import { updateInboundRoute } from "./update-inbound-route";

const BOUNCE = "bounces.h2find.test";
beforeAll(() => useSettings({ BOUNCE_DOMAIN: BOUNCE, DOMAIN_VERIFICATION: undefined }));
afterAll(() => useSettings({ BOUNCE_DOMAIN: undefined }));

const find = async (address: string) => findInboundRecipient(await getDb(), address);

describe("findInboundRecipient: who a RCPT TO address is", () => {
  it("matches exact, plus (hash captured, case kept) and catch-all, most specific first, case-insensitively", async () => {
    const ws = await createTestWorkspace();
    const { domain, route } = await addTestInboundDomain(ws.workspace.id, "in.prec.test");
    const catchAll = await route({ pattern: "*@in.prec.test", actions: [{ type: "webhook" }] });
    const plus = await route({ pattern: "support+{hash}@in.prec.test" });
    const exact = await route({ pattern: "Support@In.Prec.Test" });
    const exactPlus = await route({ pattern: "support+vip@in.prec.test" });

    const exactHit = await find("SUPPORT@in.PREC.test.");
    expect(exactHit).toEqual({
      ok: true,
      recipient: {
        address: "support@in.prec.test",
        workspaceId: ws.workspace.id,
        inboundDomainId: domain.id,
        route: expect.objectContaining({ id: exact.id }),
        mailboxHash: null,
        replyToMessageId: null,
      },
    });
    const hashed = await find("<support+Ticket-42@in.prec.test>");
    expect(hashed).toMatchObject({ ok: true, recipient: { route: { id: plus.id }, mailboxHash: "Ticket-42" } });
    expect(hashed.ok && hashed.recipient.address).toBe("support+ticket-42@in.prec.test");
    // An exact route naming a plus address beats the plus route; a hash after several + keeps them.
    expect(await find("support+vip@in.prec.test")).toMatchObject({ recipient: { route: { id: exactPlus.id } } });
    expect(await find("support+a+b@in.prec.test")).toMatchObject({ recipient: { mailboxHash: "a+b" } });
    // Plus routes match only addresses with a +; anything else falls to the catch-all.
    expect(await find("sales@in.prec.test")).toMatchObject({
      recipient: { route: { id: catchAll.id }, mailboxHash: null },
    });
    expect(await find("sales+x@in.prec.test")).toMatchObject({ recipient: { route: { id: catchAll.id } } });
  });

  it("skips disabled routes (the next one takes the mail) and refuses what nothing takes with 550 5.1.1", async () => {
    const ws = await createTestWorkspace();
    const { route } = await addTestInboundDomain(ws.workspace.id, "in.disabled.test");
    const exact = await route({ pattern: "help@in.disabled.test" });
    expect(await find("help@in.disabled.test")).toMatchObject({ ok: true, recipient: { route: { id: exact.id } } });
    await updateInboundRoute(ws.workspace.id, exact.id, { enabled: false }, AUDIT_SYSTEM_ACTOR);
    expect(await find("help@in.disabled.test")).toEqual({
      ok: false,
      code: 550,
      message: "5.1.1 <help@in.disabled.test>: No such recipient here.",
    });
    const catchAll = await route({ pattern: "*@in.disabled.test" });
    expect(await find("help@in.disabled.test")).toMatchObject({ recipient: { route: { id: catchAll.id } } });
    expect(await find("not an address")).toMatchObject({ ok: false, code: 550 });
  });

  it("answers a reject route with its own code and words; unknown and unverified domains are relay attempts (5.7.1)", async () => {
    const ws = await createTestWorkspace();
    const { route } = await addTestInboundDomain(ws.workspace.id, "in.reject.test");
    await route({
      pattern: "old@in.reject.test",
      actions: [{ type: "reject", code: 550, message: "This address is gone" }],
    });
    await route({
      pattern: "busy@in.reject.test",
      actions: [{ type: "reject", code: 451, message: "4.3.2 Try later" }],
    });
    expect(await find("old@in.reject.test")).toEqual({ ok: false, code: 550, message: "5.7.1 This address is gone" });
    expect(await find("busy@in.reject.test")).toEqual({ ok: false, code: 451, message: "4.3.2 Try later" });

    await addTestInboundDomain(ws.workspace.id, "in.pending.test", { verified: false });
    for (const address of ["a@in.pending.test", "a@elsewhere.example.org"]) {
      const answer = await find(address);
      expect(answer).toMatchObject({ ok: false, code: 550 });
      expect(!answer.ok && answer.message).toMatch(/^5\.7\.1 .*Relay access denied/);
    }
    const db = await getDb();
    expect(await isInboundDomain(db, "IN.REJECT.TEST.")).toBe(true);
    expect(await isInboundDomain(db, "in.pending.test")).toBe(false);
    expect(await isInboundDomain(db, "elsewhere.example.org")).toBe(false);
  });

  it("links a reply token to its message: at the workspace's domain (routed if a route matches) and at BOUNCE_DOMAIN", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const { domain, route } = await addTestInboundDomain(ws.workspace.id, "in.reply.test");
    const messageId = await insertTestMessage(ws.workspace.id);
    const foreignId = await insertTestMessage(other.workspace.id);
    const local = replyLocalPart(messageId);

    // No route matches r-…: stored with no route, linked.
    expect(await find(`${local}@in.reply.test`)).toEqual({
      ok: true,
      recipient: {
        address: `${local}@in.reply.test`,
        workspaceId: ws.workspace.id,
        inboundDomainId: domain.id,
        route: null,
        mailboxHash: null,
        replyToMessageId: messageId,
      },
    });
    // Relays may upper-case a local part: the token is read case-insensitively.
    expect(await find(`${local.toUpperCase()}@IN.REPLY.TEST`)).toMatchObject({
      recipient: { replyToMessageId: messageId },
    });
    expect(await find(`${local}@${BOUNCE}`)).toEqual({
      ok: true,
      recipient: {
        address: `${local}@${BOUNCE}`,
        workspaceId: ws.workspace.id,
        inboundDomainId: null,
        route: null,
        mailboxHash: null,
        replyToMessageId: messageId,
      },
    });

    // A forged token (one letter changed) and another workspace's message link nothing: without a catch-all, 5.1.1.
    const forged = `${local.slice(0, -1)}${local.endsWith("a") ? "b" : "a"}`;
    const foreign = replyLocalPart(foreignId);
    for (const address of [`${forged}@in.reply.test`, `${foreign}@in.reply.test`, `${forged}@${BOUNCE}`])
      expect(await find(address), address).toMatchObject({ ok: false, code: 550 });
    // A token for a message that does not exist (never sent, or erased) at BOUNCE_DOMAIN is unknown too.
    expect(await find(`${replyLocalPart("em_0000000000000000")}@${BOUNCE}`)).toMatchObject({ ok: false });

    // With a catch-all, the reply is routed by it; the foreign token is then just an address, unlinked.
    const catchAll = await route({ pattern: "*@in.reply.test", actions: [{ type: "webhook" }] });
    expect(await find(`${local}@in.reply.test`)).toMatchObject({
      recipient: { route: { id: catchAll.id }, replyToMessageId: messageId },
    });
    expect(await find(`${foreign}@in.reply.test`)).toMatchObject({
      recipient: { route: { id: catchAll.id }, replyToMessageId: null, workspaceId: ws.workspace.id },
    });
  });

  it("keeps a domain's routes at most a second: a change another process made shows once the entry expires", async () => {
    const ws = await createTestWorkspace();
    const { route } = await addTestInboundDomain(ws.workspace.id, "in.cache.test");
    const exact = await route({ pattern: "desk@in.cache.test" });
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      expect(await find("desk@in.cache.test")).toMatchObject({ ok: true });
      // Written behind the use cases' back, as another process would: this process's cache is not cleared.
      await (await getDb()).update(inboundRoutes).set({ enabled: false }).where(eq(inboundRoutes.id, exact.id));
      expect(await find("desk@in.cache.test")).toMatchObject({ ok: true });
      vi.advanceTimersByTime(SHORT_LIVED_CACHE_MS + 1);
      expect(await find("desk@in.cache.test")).toMatchObject({ ok: false, code: 550 });
    } finally {
      vi.useRealTimers();
    }
  });
});
