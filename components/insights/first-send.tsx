import Link from "next/link";
import { CodeBlock } from "@/components/ui/code-block";
import { CopyButton } from "@/components/ui/copy-button";
import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";
import { firstSendBody, firstSendCurl, type FirstSendSettings } from "./first-send-curl.shared";

const link = "text-indigo-600 hover:underline";

/** The Overview of a workspace with no messages yet: a first send that works as pasted, and what it needs. */
export function FirstSend(settings: FirstSendSettings) {
  const command = firstSendCurl(settings);
  const { to } = firstSendBody(settings);
  return (
    <div
      className="space-y-3 rounded-lg border border-dashed border-slate-300 bg-white p-5 text-sm text-slate-600 shadow-sm sm:p-6"
      data-testid="overview-empty"
    >
      <h2 className="font-semibold text-slate-900">Send your first email</h2>
      <p>
        Nothing has been sent from this workspace in the last 14 days. This request works as pasted: it sends from the
        test sender <code className="font-mono">{TEST_SENDER}</code>, which every workspace may use while nothing leaves
        this machine, to <code className="font-mono">{to}</code>
        {settings.deliveryProvider === "local" && !settings.testMode ? (
          <>
            , caught by the{" "}
            <Link href="/inbox" className={link}>
              Inbox
            </Link>{" "}
            like every message of the local provider.
          </>
        ) : (
          <>, an address of the outcome simulator: it is marked Delivered and reaches no one.</>
        )}{" "}
        Counts, charts and problems show up here.
      </p>
      <div className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <p className="font-medium text-slate-700">Example request</p>
          <CopyButton value={command} label="Copy curl example" />
        </div>
        <CodeBlock label="Example request">{command}</CodeBlock>
      </div>
      <p data-testid="first-send-key">
        The key comes from your shell: create one on the{" "}
        <Link href="/api-keys" className={link}>
          API keys
        </Link>{" "}
        page, then run{" "}
        <code className="font-mono">export KEY_USERNAME=&apos;key_…&apos; KEY_PASSWORD=&apos;…&apos;</code> with its
        username and password (shown once) before the request.
      </p>
      <p>
        To mail real people, send from a domain of your own: add and verify it on the{" "}
        <Link href="/domains" className={link}>
          Domains
        </Link>{" "}
        page. The test sender is refused once a message would leave this machine.
      </p>
    </div>
  );
}
