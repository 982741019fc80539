import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { emailMessages, idempotencyKeys } from "@/db/schema/index";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { batchRejected } from "./prepare-batch";
import { sendBatch } from "./send-batch";

const raw = (i: number, metaId?: string) => ({
  from: "hello@example.com",
  to: `u${i}@example.org`,
  subject: `S ${i}`,
  bodyHtml: `<p>${i}</p>`,
  metaId,
});

describe("sendBatch", () => {
  it("element keys last 24 hours: an expired one is taken over by a new message", async () => {
    const ws = await createTestWorkspace();
    const send = (body: unknown) => sendBatch({ workspaceId: ws.workspace.id, sandbox: true, body });
    const first = await send({ emailMessages: [raw(0, "k"), raw(1)] });
    const replay = await send({ emailMessages: [raw(0, "k"), raw(2)] });
    expect(replay.replayed).toBe(false);
    expect(replay.emailMessageIds[0]).toBe(first.emailMessageIds[0]);

    const db = await getDb();
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(idempotencyKeys.workspaceId, ws.workspace.id), eq(idempotencyKeys.scope, "batches:sandbox")));
    const later = await send({ emailMessages: [raw(0, "k"), raw(3)] });
    expect(later.emailMessageIds[0]).not.toBe(first.emailMessageIds[0]);
    const [row] = await db.select().from(emailMessages).where(eq(emailMessages.id, later.emailMessageIds[0]));
    expect(row).toMatchObject({ batchId: later.batch.id, batchIndex: 0, metaId: "k", source: "SANDBOX_BATCH" });
  });

  it("an element metaId with a lone surrogate is keyed as stored (U+FFFD): created, then replayed (found by fuzz-post.test.ts)", async () => {
    const ws = await createTestWorkspace();
    const body = { emailMessages: [raw(0, "k\ud800"), raw(1, "k\uFFFD")] };
    const first = await sendBatch({ workspaceId: ws.workspace.id, sandbox: true, body });
    expect(first.replayed).toBe(false);
    const again = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: true,
      body: JSON.parse(JSON.stringify(body)),
    });
    expect(again).toMatchObject({ replayed: true, emailMessageIds: first.emailMessageIds });
  });

  it("an element metaId starting with U+FEFF is claimed, then replayed (PGlite reads it back without it; found by fuzz-post.test.ts)", async () => {
    const ws = await createTestWorkspace();
    const body = { emailMessages: [raw(0), raw(1, "\ufeffbom")] };
    const first = await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body });
    expect(first.replayed).toBe(false);
    const again = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: JSON.parse(JSON.stringify(body)),
    });
    expect(again.emailMessageIds[1]).toBe(first.emailMessageIds[1]);
    expect(again.emailMessageIds[0]).not.toBe(first.emailMessageIds[0]);
    const whole = { emailMessages: [raw(2, "\ufeffa"), raw(3, "\ufeffb")] };
    const batch = await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body: whole });
    expect(await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body: whole })).toMatchObject({
      replayed: true,
      emailMessageIds: batch.emailMessageIds,
    });
  });

  it("a whole-batch replay keeps request positions, including repeated elements", async () => {
    const ws = await createTestWorkspace();
    const body = { emailMessages: [raw(0, "a"), raw(1, "b"), raw(0, "a"), raw(1, "b")] };
    const first = await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body });
    const again = await sendBatch({
      workspaceId: ws.workspace.id,
      sandbox: false,
      body: JSON.parse(JSON.stringify(body)),
    });
    expect(again).toMatchObject({ replayed: true, emailMessageIds: first.emailMessageIds });
    expect(again.batch.id).toBe(first.batch.id);
    const [a, b] = first.emailMessageIds;
    expect(first.emailMessageIds).toEqual([a, b, a, b]);
  });

  it("stores a lone surrogate as U+FFFD (JSON PostgreSQL would refuse), and well-formed pairs as they are", async () => {
    const ws = await createTestWorkspace();
    const body = {
      emailMessages: [
        { ...raw(0), subject: "Broken \uD800 end" },
        { ...raw(1), subject: "Smile \u{1F600}" },
      ],
    };
    const { batch, emailMessageIds } = await sendBatch({ workspaceId: ws.workspace.id, sandbox: false, body });
    const db = await getDb();
    const rows = await db
      .select({ id: emailMessages.id, subject: emailMessages.subject })
      .from(emailMessages)
      .where(eq(emailMessages.batchId, batch.id));
    expect(new Map(rows.map((row) => [row.id, row.subject]))).toEqual(
      new Map([
        [emailMessageIds[0], "Broken \uFFFD end"],
        [emailMessageIds[1], "Smile \u{1F600}"],
      ]),
    );
  });
});

describe("batchRejected", () => {
  const detail = (index: number, code: AppError["code"]) => ({
    index,
    param: `emailMessages[${index}].x`,
    code,
    message: `bad ${index}`,
  });

  it("keeps a code all failures share, else the generic 400 code; param is the first failure's", () => {
    const shared = batchRejected([detail(2, "NOT_FOUND"), detail(5, "NOT_FOUND")], 9);
    expect([shared.code, shared.param, shared.details!.length]).toEqual(["NOT_FOUND", "emailMessages[2].x", 2]);
    expect(shared.message).toBe(
      "2 of 9 messages (indexes 2, 5) of the batch are invalid, so nothing was sent; see details. First: bad 2",
    );
    const mixed = batchRejected(
      [detail(0, "TEMPLATE_RENDER_ERROR"), detail(1, "EMAIL_MESSAGE_EMPTY_RECIPIENTS_ERROR")],
      2,
    );
    expect(mixed.code).toBe("EMAIL_MESSAGE_INVALID_PARAMETER_ERROR");
    expect(batchRejected([detail(7, "TEMPLATE_RENDER_ERROR")], 8).message).toMatch(
      /^Message 7 of the batch is invalid/,
    );
  });
});
