export default function UnsubscribeNotFound() {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
      <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">404</p>
      <h1 className="mt-1 text-lg font-semibold text-slate-900">This unsubscribe link is not valid</h1>
      <p className="mt-2 text-sm text-slate-600">
        It may be incomplete (copy the whole link from the email), or the email it came in no longer exists.
      </p>
    </div>
  );
}
