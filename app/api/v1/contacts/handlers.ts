import { list } from "@/lib/entry/api/respond";
import { withApiKey } from "@/lib/entry/api/with-api-key";
import { parseContactListQuery, serializeContact } from "@/lib/domain/contacts/api";
import { searchContacts } from "@/lib/domain/contacts/search-contacts";

// GET /v1/contacts – alphabetical by address; query= searches address (with "@") or address and name prefixes
export const GET = withApiKey({ scope: "contacts:write", body: "none" }, async ({ principal, url }) => {
  const query = parseContactListQuery(url.searchParams);
  const page = await searchContacts(principal.workspaceId, query);
  return list(
    { limit: query.limit, nextAfter: page.nextAfter, previousBefore: page.previousBefore },
    page.items.map(serializeContact),
  );
});
