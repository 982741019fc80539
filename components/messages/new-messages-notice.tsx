"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useTransition } from "react";

const POLL_MS = 5_000;

/**
 * Polls /emails/latest for messages newer than the top row (same filters) and offers to show them.
 * A notice rather than prepending rows: the table never moves under the reader's pointer, and the
 * server still renders every row (one renderer). "Show" re-renders the page in place, no reload.
 */
export function NewMessagesNotice({ query, newestId }: { query: string; newestId: string | null }) {
  const router = useRouter();
  const [refreshing, startTransition] = useTransition();
  const { data } = useQuery({
    queryKey: ["emails-latest", query, newestId],
    queryFn: async () => {
      const params = new URLSearchParams(query);
      if (newestId) params.set("newest", newestId);
      const response = await fetch(`/emails/latest?${params}`, {
        headers: { accept: "application/json" },
        cache: "no-store",
      });
      if (!response.ok || !response.headers.get("content-type")?.includes("application/json"))
        throw new Error(`latest answered ${response.status}`);
      return ((await response.json()) as { data: { count: number; more: boolean } }).data;
    },
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
  });
  const count = data?.count ?? 0;
  return (
    <div aria-live="polite" className="min-h-0">
      {count > 0 ? (
        <div
          data-testid="new-messages"
          className="mb-3 flex flex-wrap items-center justify-between gap-2 rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-800 ring-1 ring-indigo-200 ring-inset"
        >
          <span>
            {data?.more ? `More than ${count}` : count} new {count === 1 && !data?.more ? "message" : "messages"}
          </span>
          <button
            type="button"
            disabled={refreshing}
            onClick={() => startTransition(() => router.refresh())}
            className="rounded-md bg-white px-3 py-1 font-semibold text-indigo-700 ring-1 ring-indigo-300 ring-inset hover:bg-indigo-100 disabled:opacity-50"
          >
            {refreshing ? "Loading…" : "Show"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
