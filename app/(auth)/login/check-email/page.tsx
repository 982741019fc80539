import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Check your inbox" };

// The same answer for every address asked for: whether it has an account is not revealed here.
export default function CheckEmailPage() {
  return (
    <div className="space-y-3">
      <h1 className="text-lg font-semibold">Check your inbox</h1>
      <p className="text-sm text-slate-600">
        If an account exists for that address, we have sent it a sign-in link. The link works once, for 30 minutes.
      </p>
      <p className="text-sm text-slate-600">
        Nothing arrived? Check the spam folder, or{" "}
        <Link href="/login" className="font-medium text-indigo-600 hover:underline">
          go back and try again
        </Link>
        .
      </p>
    </div>
  );
}
