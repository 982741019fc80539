import { EXAMPLE_EXISTING_SPF, mergeSpfRecord, spfAdditions } from "@/lib/domain/domains/merge-spf.shared";

/**
 * Many domains already publish SPF for their mailboxes, and a second `v=spf1` record makes SPF fail
 * for both: so the page says to merge ours into the existing record, with a worked example.
 */
export function SpfMergeNote({ domain, ours }: { domain: string; ours: string }) {
  const additions = spfAdditions(ours);
  return (
    <div
      data-testid="spf-merge"
      className="space-y-1 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
    >
      <p className="font-medium text-slate-900">Already have an SPF record?</p>
      <p>
        A domain may have only one TXT record starting with <code>v=spf1</code>: with two, receivers fail SPF for every
        sender. If {domain} already has one (for your mailboxes, say), do not publish a second:{" "}
        {additions.length > 0 ? (
          <>
            add <code>{additions.join(" ")}</code> to the existing record, before its <code>all</code> term.
          </>
        ) : (
          <>with the current delivery provider there is nothing to add, so keep the existing record as it is.</>
        )}
      </p>
      {additions.length > 0 ? (
        <p className="font-mono text-xs break-all">
          {EXAMPLE_EXISTING_SPF} → {mergeSpfRecord(EXAMPLE_EXISTING_SPF, ours)}
        </p>
      ) : null}
    </div>
  );
}
