import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { activityLogs } from "@/db/schema";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { flushActivityLog, recordActivity } from "./record-activity";

describe("recordActivity", () => {
  it("logs attachment contents as their decoded size, at any depth, and shortens other long strings", async () => {
    const { workspace } = await createTestWorkspace();
    const blob = Buffer.alloc(12345, 7).toString("base64");
    await recordActivity({
      workspaceId: workspace.id,
      apiKeyId: null,
      method: "POST",
      path: "/api/v1/batches",
      status: 201,
      durationMs: 3,
      sandbox: false,
      errorCode: null,
      resourceId: null,
      requestBody: {
        attachments: [{ name: "a.bin", contentBlob: blob }],
        emailMessages: [{ bodyHtml: "x".repeat(2500), attachments: [{ name: "b", contentBlob: "aGk=\n" }] }],
      },
      responseBody: { data: { contentBlob: 5 } },
    });
    await flushActivityLog();
    const [row] = await (await getDb()).select().from(activityLogs).where(eq(activityLogs.workspaceId, workspace.id));
    expect(row.requestBody).toEqual({
      attachments: [{ name: "a.bin", contentBlob: "[base64, 12345 bytes]" }],
      emailMessages: [
        {
          bodyHtml: `${"x".repeat(2000)}… [500 more characters]`,
          attachments: [{ name: "b", contentBlob: "[base64, 2 bytes]" }],
        },
      ],
    });
    expect(row.responseBody).toEqual({ data: { contentBlob: 5 } });
  });
});
