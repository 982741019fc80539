import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { ThreadMessages } from "@/components/dashboard/inbound/thread-messages";
import { PageHeader } from "@/components/ui/page-header";
import { Timestamp } from "@/components/ui/timestamp";
import { getThreadForDashboard } from "@/lib/domain/inbound/get-thread-for-dashboard";
import { plural } from "@/lib/foundation/plural.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Thread ${(await params).id}` };
}

// A conversation: the messages we sent and the mail that came back, oldest first, each saying which way it went.
export default async function ThreadPage({ params }: Props) {
  await connection();
  const { id } = await params;
  const { workspace } = await requireDashboard();
  const found = await getThreadForDashboard(workspace.id, id);
  if (!found) notFound();
  const { thread, entries } = found;
  const subject = entries.find((entry) => entry.subject)?.subject ?? thread.subjectKey;
  const received = entries.filter((entry) => entry.direction === "inbound").length;

  return (
    <div className="space-y-6">
      <Link href="/inbound" className="text-sm text-indigo-600 hover:underline">
        ← All inbound mail
      </Link>
      <PageHeader
        title={<span className="break-words">{subject || "(no subject)"}</span>}
        description={
          <>
            {plural(entries.length - received, "message")} sent, {plural(received, "message")} received; last{" "}
            <Timestamp value={thread.lastMessageAt} />
          </>
        }
      />
      <p className="-mt-4 text-xs break-all text-slate-500">
        <span className="font-mono">{thread.id}</span>
        {thread.participants.length ? ` · ${thread.participants.join(", ")}` : null}
      </p>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-600">The messages of this thread were erased.</p>
      ) : (
        <ThreadMessages items={entries} />
      )}
    </div>
  );
}
