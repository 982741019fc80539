/** Shown when the Basic credentials reach the page but name no live API key. */
export function InvalidCredentials() {
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-lg border border-red-200 bg-white p-6 shadow-sm">
      <p className="text-xs font-semibold tracking-wide text-red-600 uppercase">Unauthorized</p>
      <h1 className="mt-1 text-lg font-semibold text-slate-900">Invalid credentials</h1>
      <p className="mt-2 text-sm text-slate-600">
        Sign in with an API key of your workspace: its username (<code className="font-mono">key_…</code>) and its
        password, the same HTTP Basic credentials the API takes. The key may have been revoked, or the password
        mistyped. Reload the page to be asked again.
      </p>
    </div>
  );
}
