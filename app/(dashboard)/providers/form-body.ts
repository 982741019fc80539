import { KIND_FIELDS, SECRET_FIELDS } from "@/lib/domain/providers/schemas";

// The Providers page's forms as the API's bodies (POST /v1/providers, /v1/routing_rules, /v1/routing_rules/dry_run):
// lists are typed comma separated, empty fields are left out, and numbers that do not parse are passed on as text,
// so the use case's zod schema names the field.

/** The fields a connection form echoes back after a refusal: never a secret. */
export const CONNECTION_ECHO = [
  "name",
  "kind",
  "url",
  "user",
  "baseUrl",
  "region",
  "accessKeyId",
  "configurationSet",
  "endpoint",
  "snsTopicArns",
  "ratePerSecond",
  "concurrency",
];

export const RULE_ECHO = ["name", "recipientDomains", "senderDomains", "streams", "connections"];

export const DRY_RUN_ECHO = ["from", "to", "tags"];

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();

/** "a, b ,, c" → ["a", "b", "c"]: commas, semicolons and (unless `spaces` is false) white space separate. */
export function listOf(value: string, spaces = true): string[] {
  return value
    .split(spaces ? /[\s,;]+/ : /[,;\n]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function numberOr(value: string): number | string {
  const number = Number(value);
  return Number.isFinite(number) ? number : value;
}

/** Name, kind, the fields of that kind that were filled in, and the limits (empty: no limit). */
export function connectionBodyFromForm(form: FormData): Record<string, unknown> {
  const kind = text(form, "kind");
  const body: Record<string, unknown> = { name: text(form, "name"), kind };
  const fields: readonly string[] = KIND_FIELDS[kind as keyof typeof KIND_FIELDS]?.allowed ?? [];
  for (const field of fields) {
    const value = String(form.get(field) ?? "");
    if (!value.trim()) continue;
    // Secrets are taken as typed: a password may begin or end with a space.
    const secret = (SECRET_FIELDS as readonly string[]).includes(field);
    body[field] = field === "snsTopicArns" ? listOf(value) : secret ? value : value.trim();
  }
  for (const limit of ["ratePerSecond", "concurrency"]) {
    const value = text(form, limit);
    if (value) body[limit] = numberOr(value);
  }
  return body;
}

/** The rule's name, what it matches (only the lists given) and its connections, the primary first. */
export function ruleBodyFromForm(form: FormData): Record<string, unknown> {
  const match: Record<string, string[]> = {};
  for (const field of ["recipientDomains", "senderDomains", "streams"]) {
    const items = listOf(text(form, field));
    if (items.length) match[field] = items;
  }
  const families = form.getAll("mailboxFamilies").map(String).filter(Boolean);
  if (families.length) match.mailboxFamilies = families;
  return { name: text(form, "name") || null, match, connections: listOf(text(form, "connections")) };
}

/** From, the recipients and the tags of the message to route. */
export function dryRunBodyFromForm(form: FormData): Record<string, unknown> {
  // Addresses may carry a display name ("Ada <ada@example.com>"): only commas and semicolons separate them.
  const to = listOf(text(form, "to"), false);
  const tags = listOf(text(form, "tags"));
  return { from: text(form, "from"), to: to.length === 1 ? to[0] : to, ...(tags.length ? { tags } : {}) };
}
