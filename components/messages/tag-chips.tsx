import Link from "next/link";

/**
 * A message's `name:value` tags (docs/api.md#tags) as small chips, each a link to the Emails list filtered by it.
 * Nothing when there are none, so untagged rows stay as they were.
 */
export function TagChips({ tags, className = "" }: { tags: readonly string[] | undefined; className?: string }) {
  if (!tags?.length) return null;
  return (
    <ul className={`flex flex-wrap gap-1 ${className}`} aria-label="Tags" data-testid="tag-chips">
      {tags.map((tag) => (
        <li key={tag}>
          <Link
            href={`/emails?tag=${encodeURIComponent(tag)}`}
            title={`Emails tagged ${tag}`}
            className="inline-block max-w-48 truncate rounded bg-indigo-50 px-1.5 py-px font-mono text-[11px] text-indigo-700 ring-1 ring-indigo-200 ring-inset hover:bg-indigo-100"
          >
            {tag}
          </Link>
        </li>
      ))}
    </ul>
  );
}
