// Fixed at creation (docs/api.md#scopes); `full` is everything, as every key made before scopes had. Pure.
export const API_SCOPES = [
  "full",
  "emails:send",
  "emails:sandbox",
  "emails:read",
  "templates:read",
  "templates:write",
  "domains:write",
  "suppressions:write",
  "contacts:write",
  "workflows:write",
  "keys:write",
  "workspace:write",
  "webhooks:write",
  "inbound:read",
  "inbound:write",
  "providers:write",
] as const;

export type ApiScope = (typeof API_SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<ApiScope, string> = {
  full: "Everything, including the audit log (the default).",
  "emails:send": "Send: messages, batches, sandbox, workflow runs, attachments, resends.",
  "emails:sandbox":
    "Send to the sandbox only (rendered and stored, never delivered): a key with only this scope cannot send real mail.",
  "emails:read": "Read messages, their events, lists, batches and workflow runs.",
  "templates:read": "Read templates, their versions and scenarios; render, preview, validate.",
  "templates:write": "Create, change, restore and delete templates and their scenarios.",
  "domains:write": "Add, verify and delete sending domains.",
  "suppressions:write": "Add and remove suppressions.",
  "contacts:write": "Change contacts, their unsubscribes and groups.",
  "workflows:write": "Read, create, change, enable, disable and delete workflows.",
  "keys:write": "Create and revoke API keys.",
  "workspace:write": "Change workspace settings, pause and resume sending.",
  "webhooks:write": "Manage webhook endpoints: create, change, rotate, test, replay, and read their deliveries.",
  "inbound:read": "Read inbound domains and routes, received mail, its raw bytes and attachments, and threads.",
  "inbound:write":
    "Add, verify and delete inbound domains; create, change and delete routes; reply to and erase received mail.",
  "providers:write":
    "Read, create, change and delete provider connections and routing rules; dry-run a route. Secrets are never returned.",
};

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/** What an operation needs: one scope, or alternatives of which any one will do. */
export type ScopeNeed = ApiScope | readonly ApiScope[];

/** The sandbox's sends: a live sender may use them, and so may a key limited to the sandbox. */
export const SANDBOX_SEND_SCOPES = ["emails:send", "emails:sandbox"] as const satisfies readonly ApiScope[];

export const scopeAlternatives = (needed: ScopeNeed): readonly ApiScope[] =>
  typeof needed === "string" ? [needed] : needed;

/** True when a key with `granted` may do what `needed` names: the scope itself (any of the alternatives) or `full`. */
export function grants(granted: readonly string[], needed: ScopeNeed): boolean {
  return granted.includes("full") || scopeAlternatives(needed).some((scope) => granted.includes(scope));
}

/** What a send endpoint needs: live mail needs emails:send; the sandbox's twin takes emails:sandbox too. */
export const sendScope = (sandbox: boolean): ScopeNeed => (sandbox ? SANDBOX_SEND_SCOPES : "emails:send");

/** Scopes that hold another's rights, and more: a key with emails:send may hand out emails:sandbox. */
const IMPLIED_BY: Partial<Record<ApiScope, readonly ApiScope[]>> = { "emails:sandbox": ["emails:send"] };

/** Whether a key with `granted` may give `scope` to a key it creates: it holds it, or one that implies it, or full. */
export function covers(granted: readonly string[], scope: string): boolean {
  if (granted.includes("full") || granted.includes(scope)) return true;
  return isApiScope(scope) && (IMPLIED_BY[scope] ?? []).some((wider) => granted.includes(wider));
}
