import { AUDIT_CLI_ACTOR } from "@/lib/records/audit/actor";
import { describe, expect, it } from "vitest";
import { runCli } from "@/lib/entry/cli/run-cli";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { deliver, messageState, sendLive } from "@/lib/domain/unsubscribe/testing";
import { addSuppression } from "./add-suppression";
import { listSuppressions } from "./list-suppressions";

const raw = { from: "Acme <hello@example.com>", subject: "Your receipt", bodyHtml: "<p>Thanks!</p>" };

async function cli(argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(argv, { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

describe("the suppression list", () => {
  it("suppresses a listed address for any live send, and after `suppression remove` it goes again", async () => {
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    const added = await cli([
      "suppression",
      "add",
      "--workspace",
      ws.workspace.id,
      "--email",
      "Ada <ADA@example.org>",
      "--json",
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({
      email: "ada@example.org",
      reason: "MANUAL",
      emailMessageId: null,
    });
    const listed = await cli(["suppression", "list", "--workspace", ws.workspace.id]);
    expect(listed.stdout).toMatch(/^ada@example\.org\tMANUAL\t\d{4}-/);

    // No group: transactional mail is still suppressed by the list.
    const id = await sendLive(ws.workspace.id, { ...raw, to: "ada@example.org" });
    await deliver(ws.workspace.id, id);
    const suppressed = await messageState(id);
    expect(suppressed.message).toMatchObject({ status: "SUCCEEDED", sentAt: null });
    expect(suppressed.message.lastSuppressedAt).not.toBeNull();
    expect(suppressed.inbox).toBeNull();
    expect(suppressed.events.at(-1)).toMatchObject({
      code: "EMAIL_MESSAGE_SUPPRESSED",
      message: "Not sent: every recipient is suppressed: ada@example.org (on the suppression list (added by hand)).",
      details: { suppressed: [{ email: "ada@example.org", reason: "MANUAL" }] },
    });

    // Another workspace's list does not apply.
    const elsewhere = await sendLive(other.workspace.id, { ...raw, to: "ada@example.org" });
    await deliver(other.workspace.id, elsewhere);
    expect((await messageState(elsewhere)).inbox).not.toBeNull();

    const removed = await cli(["suppression", "remove", "--workspace", ws.workspace.id, "--email", "ada@example.org"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toBe('Removed ada@example.org from the suppression list of "Test workspace".');
    expect(await listSuppressions(ws.workspace.id)).toEqual([]);
    const again = await sendLive(ws.workspace.id, { ...raw, to: "ada@example.org" });
    await deliver(ws.workspace.id, again);
    const sent = await messageState(again);
    expect(sent.message.sentAt).not.toBeNull();
    expect(sent.inbox!.envelopeTo).toEqual(["ada@example.org"]);
    expect(sent.message.lastSuppressedAt).toBeNull();
  });

  it("partial suppression: sent to the other recipients only, the event names who was left out", async () => {
    const ws = await createTestWorkspace();
    await addSuppression({
      workspaceId: ws.workspace.id,
      email: "bob@example.org",
      reason: "HARD_BOUNCE",
      detail: "550 no such user",
    });
    const id = await sendLive(ws.workspace.id, {
      ...raw,
      to: "Ada <ada@example.org>, Bob <Bob@example.org>",
      cc: "carol@example.org",
    });
    await deliver(ws.workspace.id, id);
    const { message, codes, events, inbox, parsed } = await messageState(id);
    expect(message.status).toBe("SUCCEEDED");
    expect(message.sentAt).not.toBeNull();
    expect(inbox!.envelopeTo).toEqual(["ada@example.org", "carol@example.org"]);
    expect(parsed!.to).toMatchObject({ value: [{ name: "Ada", address: "ada@example.org" }] });
    expect(inbox!.mime).not.toContain("bob@example.org");
    expect(codes).toEqual([
      "EMAIL_MESSAGE_CREATED",
      "EMAIL_MESSAGE_RENDERED",
      "EMAIL_MESSAGE_SUPPRESSED",
      "EMAIL_MESSAGE_SENT_PROVIDER_EVENT",
      "EMAIL_MESSAGE_DELIVERED_PROVIDER_EVENT",
    ]);
    const event = events[2];
    expect(event.message).toBe(
      "Not sent to bob@example.org (on the suppression list after a hard bounce); sent to the other recipients.",
    );
    expect(event.details).toEqual({ suppressed: [{ email: "bob@example.org", reason: "HARD_BOUNCE" }] });
    expect(message.lastSuppressedAt!.getTime()).toBe(event.createdAt.getTime());
    expect(event.createdAt.getTime()).toBeLessThan(message.sentAt!.getTime());
    // The stored message keeps every recipient as asked.
    expect(message.to).toEqual(["Ada <ada@example.org>", "Bob <Bob@example.org>"]);
  });

  it("addSuppression is an idempotent upsert; the CLI refuses bad input", async () => {
    const ws = await createTestWorkspace();
    const first = await addSuppression({
      workspaceId: ws.workspace.id,
      email: "dan@example.org",
      reason: "HARD_BOUNCE",
      emailMessageId: "em_1",
    });
    const second = await addSuppression({
      workspaceId: ws.workspace.id,
      email: "DAN@example.org",
      reason: "COMPLAINT",
      emailMessageId: "em_2",
    });
    expect(second).toMatchObject({
      id: first.id,
      email: "dan@example.org",
      reason: "COMPLAINT",
      emailMessageId: "em_2",
    });
    expect(await listSuppressions(ws.workspace.id)).toHaveLength(1);

    const badReason = await cli([
      "suppression",
      "add",
      "--workspace",
      ws.workspace.id,
      "--email",
      "x@example.org",
      "--reason",
      "BORED",
    ]);
    expect(badReason.code).toBe(1);
    expect(badReason.stderr).toContain("reason must be one of HARD_BOUNCE, COMPLAINT, MANUAL");
    expect((await cli(["suppression", "add", "--workspace", ws.workspace.id, "--email", "not an address"])).code).toBe(
      1,
    );
    expect((await cli(["suppression", "add", "--workspace", ws.workspace.id])).code).toBe(2);
    const unknown = await cli([
      "suppression",
      "remove",
      "--workspace",
      ws.workspace.id,
      "--email",
      "nobody@example.org",
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("Error: nobody@example.org on the suppression list not found.");
    const empty = await cli([
      "suppression",
      "list",
      "--workspace",
      (await createTestWorkspace()).workspace.id,
      "--json",
    ]);
    expect(JSON.parse(empty.stdout)).toEqual([]);
  });
});

describe("the suppression list page", () => {
  it("pages alphabetically, filters by prefix, and stays inside the workspace; removal by another workspace changes nothing", async () => {
    const { listSuppressionsPage } = await import("./list-suppressions-page");
    const { removeSuppressionOrThrow } = await import("./remove-suppression");
    const ws = await createTestWorkspace();
    const other = await createTestWorkspace();
    for (const email of ["carol@example.org", "ada@example.org", "bob@example.org"]) {
      await addSuppression({ workspaceId: ws.workspace.id, email, reason: "MANUAL" });
    }
    const first = await listSuppressionsPage(ws.workspace.id, { limit: 2 });
    expect(first.items.map((s) => s.email)).toEqual(["ada@example.org", "bob@example.org"]);
    const next = await listSuppressionsPage(ws.workspace.id, { limit: 2, after: first.nextAfter! });
    expect(next.items.map((s) => s.email)).toEqual(["carol@example.org"]);
    expect(next.previousBefore).toBe("carol@example.org");
    expect((await listSuppressionsPage(ws.workspace.id, { prefix: "B" })).items.map((s) => s.email)).toEqual([
      "bob@example.org",
    ]);
    expect((await listSuppressionsPage(other.workspace.id, {})).items).toEqual([]);

    await expect(
      removeSuppressionOrThrow(other.workspace.id, "bob@example.org", AUDIT_CLI_ACTOR),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await listSuppressionsPage(ws.workspace.id, {})).items).toHaveLength(3);
    await removeSuppressionOrThrow(ws.workspace.id, "bob@example.org", AUDIT_CLI_ACTOR);
    expect((await listSuppressionsPage(ws.workspace.id, {})).items.map((s) => s.email)).toEqual([
      "ada@example.org",
      "carol@example.org",
    ]);
  });
});
