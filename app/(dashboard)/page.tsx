import type { Metadata } from "next";
import { connection } from "next/server";
import { MessageTable } from "@/components/messages/message-table";
import { CodeBlock } from "@/components/ui/code-block";
import { env } from "@/lib/env";
import { listRecentMessages, RECENT_MESSAGES_MAX } from "@/lib/messages/list-recent-messages";
import { requireDashboard } from "@/app/_lib/dashboard-context";

export const metadata: Metadata = { title: "Messages" };

// The latest messages of the current workspace.
export default async function HomePage() {
  await connection();
  const { workspace } = await requireDashboard();
  const messages = await listRecentMessages(workspace.id);

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-xl font-semibold tracking-tight">Messages</h1>
        <p className="text-sm text-slate-500">
          {messages.length === 0
            ? "No messages yet"
            : messages.length === RECENT_MESSAGES_MAX
              ? `The latest ${RECENT_MESSAGES_MAX}, newest first`
              : `${messages.length} ${messages.length === 1 ? "message" : "messages"}, newest first`}
        </p>
      </div>
      {messages.length === 0 ? <EmptyState /> : <MessageTable messages={messages} />}
    </div>
  );
}

function EmptyState() {
  const command = [
    `curl ${env().APP_URL}/v1/email_messages \\`,
    `  -u 'key_…:YOUR_API_KEY_PASSWORD' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{`,
    `    "from": "Demo <hello@example.com>",`,
    `    "to": "Ada <ada@example.org>",`,
    `    "subject": "Hello from Postwerk",`,
    `    "bodyHtml": "<p>It works. <a href=\\"https://example.org\\">A link</a></p>"`,
    `  }'`,
  ].join("\n");
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-5 shadow-sm sm:p-6">
      <h2 className="font-semibold text-slate-900">Send your first email</h2>
      <p className="mt-1 text-sm text-slate-600">
        Nothing has been sent from this workspace yet. Send a message through the API with one of the workspace&apos;s API keys; the sender&apos;s domain must be verified in the workspace. It shows up here with its delivery
        timeline.
      </p>
      <div className="mt-4">
        <CodeBlock label="Example request">{command}</CodeBlock>
      </div>
      <p className="mt-3 text-xs text-slate-500">
        The answer is <code className="font-mono">201</code> with <code className="font-mono">{"{ data: EmailMessage }"}</code>
        ; reload this page to follow it.
      </p>
    </div>
  );
}
