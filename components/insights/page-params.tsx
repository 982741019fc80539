import Link from "next/link";
import { AppError } from "@/lib/foundation/errors";

export type SearchParams = Record<string, string | string[] | undefined>;

/** A page's searchParams as the URLSearchParams the lib list use cases parse (first value of a repeat). */
export function toUrlParams(searchParams: SearchParams): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) params.set(key, first);
  }
  return params;
}

/** A filter or cursor in the URL that the use case refused (stale cursor, hand-edited value). */
export function isInvalidParameter(error: unknown): error is AppError {
  return error instanceof AppError && error.code === "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR";
}

export function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === "NOT_FOUND";
}

/** What a list shows for a link it cannot follow: the reason, and the way back to its first page. */
export function InvalidLink({ error, firstPageHref }: { error: AppError; firstPageHref: string }) {
  return (
    <div
      className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
      data-testid="invalid-link"
    >
      <p className="font-medium">This link cannot be followed.</p>
      <p className="mt-0.5">{error.message}</p>
      <Link href={firstPageHref} className="mt-2 inline-block font-medium text-indigo-700 hover:underline">
        Go to the first page
      </Link>
    </div>
  );
}
