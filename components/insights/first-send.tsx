import { CodeBlock } from "@/components/ui/code-block";

/** The Overview of a workspace with no messages yet: how to send the first one. */
export function FirstSend({ appUrl }: { appUrl: string }) {
  const command = [
    `curl ${appUrl}/v1/email_messages \\`,
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
    <div
      className="rounded-lg border border-dashed border-slate-300 bg-white p-5 shadow-sm sm:p-6"
      data-testid="overview-empty"
    >
      <h2 className="font-semibold text-slate-900">Send your first email</h2>
      <p className="mt-1 text-sm text-slate-600">
        Nothing has been sent from this workspace in the last 14 days. Send a message through the API with one of the
        workspace&apos;s API keys (the sender&apos;s domain must be verified in the workspace, or use the sandbox
        endpoint <code className="font-mono">/v1/sandbox/email_messages</code>
        ). Counts, charts and problems show up here.
      </p>
      <div className="mt-4">
        <CodeBlock label="Example request">{command}</CodeBlock>
      </div>
    </div>
  );
}
