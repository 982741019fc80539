import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listWorkflows } from "@/lib/flows/workflows/list-workflows";
import { createWorkflowWorkspace } from "@/lib/flows/workflows/testing";
import { COMMANDS } from "../run-cli";
import { workflowCommands } from "./workflow";
import { cli } from "../testing";

// Registered in run-cli.ts's COMMANDS by the lead; until then the test adds them itself.
for (const [name, command] of Object.entries(workflowCommands)) COMMANDS[name] ??= command;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "postwerk-cli-workflow-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const target = path.join(tmp, name);
  fs.writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  return target;
}

describe("workflow create", () => {
  it("creates a workflow from a valid file and prints it (--json, and human lines)", async () => {
    const ws = await createWorkflowWorkspace();
    const definition = {
      name: "Onboarding",
      key: "user.signed_up",
      steps: [
        { type: "sendEmail", templateId: ws.template.id, to: "{{ user.name }} <{{ user.email }}>" },
        { type: "wait", seconds: 86400 },
        { type: "sendEmail", templateId: ws.template.id, to: "{{ user.email }}", bcc: "audit@example.com" },
      ],
    };
    const result = await cli([
      "workflow",
      "create",
      "--workspace",
      ws.workspace.id,
      "--file",
      file("onboarding.json", definition),
      "--json",
    ]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const printed = result.json();
    expect(printed).toMatchObject({
      type: "Workflow",
      name: "Onboarding",
      key: "user.signed_up",
      enabled: true,
      steps: definition.steps,
    });
    expect(printed.id).toMatch(/^wf_[0-9A-Za-z]{16}$/);
    expect((await listWorkflows(ws.workspace.id)).map((w) => w.id)).toEqual([printed.id]);

    const human = await cli([
      "workflow",
      "create",
      "--workspace",
      ws.workspace.name,
      "--file",
      file("plain.json", { ...definition, key: undefined, enabled: false }),
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toBe(
      [
        `Created workflow "Onboarding" (${(await listWorkflows(ws.workspace.id))[1].id}) in "${ws.workspace.name}" (${ws.workspace.id}).`,
        "no key (trigger it by id), disabled, 3 steps:",
        `  1. sendEmail ${ws.template.id} to {{ user.name }} <{{ user.email }}>`,
        "  2. wait 1 day",
        `  3. sendEmail ${ws.template.id} to {{ user.email }}`,
      ].join("\n"),
    );
    const list = await cli(["workflow", "list", "--workspace", ws.workspace.id, "--json"]);
    expect(list.json().map((w: { name: string; enabled: boolean }) => w.enabled)).toEqual([true, false]);
  });

  it("an invalid file: a clear error naming the file and field, exit 1, nothing created", async () => {
    const ws = await createWorkflowWorkspace();
    const send = { type: "sendEmail", templateId: ws.template.id, to: "a@example.org" };
    const cases: Array<[string, unknown, string]> = [
      ["bad-json.json", "{ name: ", "is not valid JSON"],
      [
        "bad-wait.json",
        { name: "W", steps: [{ type: "wait", seconds: 0 }, send] },
        "Invalid steps[0].seconds: must be at least 1 second.",
      ],
      [
        "bad-template.json",
        { name: "W", steps: [{ ...send, templateId: "tpl_0000000000000000" }] },
        "Template tpl_0000000000000000 (step 1) not found.",
      ],
    ];
    for (const [name, content, message] of cases) {
      const target = file(name, content);
      const result = await cli(["workflow", "create", "--workspace", ws.workspace.id, "--file", target]);
      expect(result.code, name).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(`Error: ${target}`);
      expect(result.stderr).toContain(message);
    }
    const json = await cli([
      "workflow",
      "create",
      "--workspace",
      ws.workspace.id,
      "--file",
      file("bad-key.json", { name: "W", key: "a b", steps: [send] }),
      "--json",
    ]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR",
      param: "key",
    });
    expect(await listWorkflows(ws.workspace.id)).toEqual([]);
  });

  it("misuse: a missing file or flag is exit 2 with the usage line", async () => {
    const ws = await createWorkflowWorkspace();
    const missing = await cli([
      "workflow",
      "create",
      "--workspace",
      ws.workspace.id,
      "--file",
      path.join(tmp, "nope.json"),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /Cannot read --file .*nope\.json: no such file\.\nUsage: npm run cli -- workflow create --workspace ID\|NAME --file FILE \[--json\]/,
    );
    expect((await cli(["workflow", "create", "--file", "x.json"])).code).toBe(2);
  });
});
