import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="mt-1 text-lg font-semibold text-slate-900">Not found</h1>
      <p className="mt-2 text-sm text-slate-600">
        There is nothing here, or it belongs to another workspace than the one you are looking at.
      </p>
      <Link href="/" className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
        ← Back to the overview
      </Link>
    </div>
  );
}
