import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/foundation/errors";
import { getUnsubscribeTargetOrThrow } from "@/lib/domain/unsubscribe/get-unsubscribe-target";

type Props = { params: Promise<{ token: string }> };

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Unsubscribe", referrer: "no-referrer" };

// The page behind a message's unsubscribe link: no sign-in (the token is the authority). Reads only:
// mail scanners prefetch links, so only the button's POST (./confirm) unsubscribes.
export default async function UnsubscribePage({ params }: Props) {
  const { token } = await params;
  const target = await getUnsubscribeTargetOrThrow(token).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  });

  return (
    <div className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      {target.unsubscribed ? (
        <>
          <h1 className="text-lg font-semibold text-slate-900">You are unsubscribed</h1>
          <p className="mt-2 text-sm text-slate-600">
            <strong className="break-all">{target.email}</strong> will no longer get “{target.group.name}” emails.
          </p>
        </>
      ) : (
        <>
          <h1 className="text-lg font-semibold text-slate-900">Unsubscribe from “{target.group.name}”?</h1>
          <p className="mt-2 text-sm text-slate-600">
            <strong className="break-all">{target.email}</strong> will no longer get “{target.group.name}” emails. Other
            emails, such as receipts and password resets, still arrive.
          </p>
          <form method="post" action={`/u/${encodeURIComponent(token)}/confirm`} className="mt-4">
            <button
              type="submit"
              className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
            >
              Unsubscribe
            </button>
          </form>
        </>
      )}
    </div>
  );
}
