import Link from "next/link";

/** 403: signed in, a member, but the role does not allow this (admin actions for Members). */
export default function Forbidden() {
  return (
    <div className="mx-auto mt-16 max-w-lg rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">403</p>
      <h1 className="mt-1 text-lg font-semibold text-slate-900">Not allowed</h1>
      <p className="mt-2 text-sm text-slate-600">
        Your role in this workspace does not allow this. Ask an owner or an admin.
      </p>
      <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
        ← Back to the overview
      </Link>
    </div>
  );
}
