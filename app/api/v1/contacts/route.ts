import { list } from "@/lib/api/respond";
import { methodNotAllowed, withApiKey } from "@/lib/api/with-api-key";
import { parseContactListQuery, serializeContact } from "@/lib/contacts/api";
import { searchContacts } from "@/lib/contacts/search-contacts";

// GET /v1/contacts – alphabetical by address; query= searches address (with "@") or address and name prefixes
export const GET = withApiKey({ scope: "contacts:write", body: "none" }, async ({ principal, url }) => {
  const query = parseContactListQuery(url.searchParams);
  const page = await searchContacts(principal.workspaceId, query);
  return list({ limit: query.limit, nextAfter: page.nextAfter, previousBefore: page.previousBefore }, page.items.map(serializeContact));
});

const notAllowed = methodNotAllowed("GET");
export const POST = notAllowed;
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
