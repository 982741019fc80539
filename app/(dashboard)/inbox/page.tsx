import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { InboxList } from "@/components/inbox/inbox-list";
import { InboxReader, type InboxMail } from "@/components/inbox/inbox-reader";
import { EmptyState } from "@/components/ui/empty-state";
import { FormMessage } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { hrefWith, Pager } from "@/components/ui/pager";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { getInboxMessage } from "@/lib/domain/inbox/get-inbox-message";
import { listInboxMessages, parseInboxListQuery, type InboxPage } from "@/lib/domain/inbox/list-inbox-messages";
import { parseInboxMime } from "@/lib/domain/inbox/parse-inbox-mime";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { toSearchParams } from "../emails/search-params";

export const metadata: Metadata = { title: "Local inbox" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// What the built-in `local` provider delivered for this workspace, read like a mail client.
export default async function InboxPage({ searchParams }: Props) {
  await connection();
  const { workspace } = await requireDashboard();
  const search = toSearchParams(await searchParams);
  const selectedId = search.get("id") || null;
  const pageLink = {
    limit: search.get("limit"),
    "cursor.after": search.get("cursor.after"),
    "cursor.before": search.get("cursor.before"),
  };

  const [list, selected] = await Promise.all([
    readPage(workspace.id, search),
    selectedId ? readMail(workspace.id, selectedId) : null,
  ]);
  if (selectedId && !selected) notFound();

  return (
    <div>
      <PageHeader
        title="Local inbox"
        description={
          <>
            What the built-in <code className="font-mono">local</code> provider delivered for this workspace: the exact
            messages, newest first.
          </>
        }
      />
      {"error" in list ? (
        <FormMessage tone="error">
          {list.error}{" "}
          <Link href="/inbox" className="font-semibold underline">
            Back to the newest
          </Link>
        </FormMessage>
      ) : list.items.length === 0 && !selected ? (
        <EmptyInbox />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
          <div className={selected ? "hidden lg:block" : ""}>
            <InboxList
              items={list.items}
              selectedId={selectedId}
              hrefFor={(id) => hrefWith("/inbox", { ...pageLink, id })}
            />
            <Pager
              previousHref={
                list.newerCursor
                  ? hrefWith("/inbox", { limit: pageLink.limit, "cursor.before": list.newerCursor })
                  : null
              }
              nextHref={
                list.olderCursor
                  ? hrefWith("/inbox", { limit: pageLink.limit, "cursor.after": list.olderCursor })
                  : null
              }
            />
          </div>
          {selected ? (
            <div className="min-w-0 space-y-3">
              <Link href={hrefWith("/inbox", pageLink)} className="text-sm text-indigo-600 hover:underline lg:hidden">
                ← Back to the inbox
              </Link>
              <InboxReader mail={selected} />
            </div>
          ) : (
            <div className="hidden rounded-lg border border-dashed border-slate-300 p-10 text-center text-sm text-slate-500 lg:block">
              Select a message to read it.
            </div>
          )}
        </div>
      )}
    </div>
  );
}

async function readPage(workspaceId: string, search: URLSearchParams): Promise<InboxPage | { error: string }> {
  try {
    return await listInboxMessages(workspaceId, parseInboxListQuery(search));
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR")
      return { error: error.message };
    throw error;
  }
}

async function readMail(workspaceId: string, messageId: string): Promise<InboxMail | null> {
  const stored = await getInboxMessage(workspaceId, messageId);
  if (!stored) return null;
  return { ...stored, parsed: stored.mime ? await parseInboxMime(stored.mime) : null };
}

function EmptyInbox() {
  const provider = env().DELIVERY_PROVIDER;
  return (
    <EmptyState title="Nothing delivered to the local inbox yet">
      <p>
        With the default <code className="font-mono">DELIVERY_PROVIDER=local</code>, live messages are not sent
        anywhere: the server stores the exact MIME it would send, and it shows up here like in a mail client. Sandbox
        messages are never delivered.
      </p>
      <p className="mt-2">
        {provider === "local"
          ? "To deliver for real, set DELIVERY_PROVIDER to smtp (with SMTP_URL) or resend (with RESEND_API_KEY) and restart; see docs/self-hosting.md."
          : `This server now delivers through ${provider}; the inbox keeps only what the local provider delivered before.`}
      </p>
    </EmptyState>
  );
}
