import Link from "next/link";
import { HtmlPreview } from "@/components/messages/html-preview";
import { formatBytes } from "@/components/messages/message-fields";
import { CodeBlock } from "@/components/ui/code-block";
import { Timestamp } from "@/components/ui/timestamp";

export interface InboxMail {
  messageId: string;
  deliveredAt: Date;
  envelopeTo: string[];
  mime: string;
  /** Null when the stored MIME was purged. */
  parsed: {
    from: string;
    to: string;
    cc: string;
    replyTo: string;
    subject: string;
    date: Date | null;
    html: string;
    text: string;
    attachments: { filename: string; contentType: string; size: number; inline: boolean }[];
  } | null;
}

/** One delivered message read like a mail client: headers, the HTML in a sandbox, attachments, source. */
export function InboxReader({ mail }: { mail: InboxMail }) {
  const { parsed } = mail;
  return (
    <article aria-labelledby="inbox-subject" className="min-w-0 rounded-lg border border-slate-200 bg-white shadow-sm">
      <header className="space-y-2 border-b border-slate-200 px-4 py-4 sm:px-5">
        <h2 id="inbox-subject" className="text-lg font-semibold break-words text-slate-900">
          {parsed ? parsed.subject || "(no subject)" : "(content purged)"}
        </h2>
        <dl className="grid grid-cols-[4.5rem_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-sm">
          {parsed ? (
            <>
              <Header term="From" value={parsed.from} />
              <Header term="To" value={parsed.to} />
              {parsed.cc ? <Header term="Cc" value={parsed.cc} /> : null}
              {parsed.replyTo ? <Header term="Reply-To" value={parsed.replyTo} /> : null}
              <dt className="text-slate-500">Date</dt>
              <dd>
                <Timestamp value={parsed.date} />
              </dd>
            </>
          ) : null}
          <Header term="Envelope" value={mail.envelopeTo.join(", ")} />
          <dt className="text-slate-500">Delivered</dt>
          <dd>
            <Timestamp value={mail.deliveredAt} />
          </dd>
        </dl>
        <Link href={`/emails/${mail.messageId}`} className="inline-block text-sm text-indigo-600 hover:underline">
          Open the email&apos;s page and timeline
        </Link>
      </header>
      <div className="space-y-4 px-4 py-4 sm:px-5">
        {!parsed ? (
          <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset">
            The content of this message was purged (retention or an erase); only its envelope is kept.
          </p>
        ) : parsed.html ? (
          <HtmlPreview html={parsed.html} title="Message in the local inbox" />
        ) : (
          <pre className="max-h-[32rem] overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs break-words whitespace-pre-wrap">
            {parsed.text}
          </pre>
        )}
        {parsed && parsed.attachments.length > 0 ? (
          <section aria-label="Attachments">
            <h3 className="text-sm font-semibold text-slate-900">Attachments</h3>
            <ul className="mt-1 flex flex-wrap gap-2">
              {parsed.attachments.map((attachment, index) => (
                <li
                  key={index}
                  className="rounded-md bg-slate-50 px-2.5 py-1 text-xs text-slate-700 ring-1 ring-slate-200 ring-inset"
                >
                  {attachment.filename}{" "}
                  <span className="text-slate-500">
                    ({attachment.contentType}, {formatBytes(attachment.size)}
                    {attachment.inline ? ", inline" : ""})
                  </span>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {mail.mime ? (
          <details>
            <summary className="cursor-pointer text-sm font-medium text-slate-800">
              View source ({formatBytes(mail.mime.length)})
            </summary>
            <div className="mt-3">
              <CodeBlock label="Raw MIME of the message">{mail.mime}</CodeBlock>
            </div>
          </details>
        ) : null}
      </div>
    </article>
  );
}

function Header({ term, value }: { term: string; value: string }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="break-words text-slate-900">{value}</dd>
    </>
  );
}
