import type { JsonObject } from "./components";
import { JSON_BODY_ERRORS, operation, pathId, queryParam } from "./operation";

/** Contacts and unsubscribe groups (docs/api.md#contacts-and-unsubscribe-groups): all under contacts:write. */
const contacts = "Contacts";
const contactId = pathId("contact", "contact_");
const groupId = pathId("unsubscribe group", "group_");
const emailPages = [
  queryParam("limit", { type: "integer", minimum: 1, maximum: 200, default: 200 }, "Contacts per page."),
  queryParam("after", { type: "string" }, "meta.nextAfter: the next page."),
  queryParam("before", { type: "string" }, "meta.previousBefore: the previous page."),
];

export const contactPaths: Record<string, JsonObject> = {
  "/v1/contacts": {
    get: operation({
      operationId: "listContacts",
      scope: "contacts:write",
      summary: "List or search contacts alphabetically by address",
      tag: contacts,
      parameters: [
        queryParam(
          "query",
          { type: "string" },
          "With @: an address prefix; without: the start of the address or the name.",
        ),
        ...emailPages,
      ],
      success: [{ status: "200", description: "One page.", list: { meta: "EmailPageMeta", item: "Contact" } }],
      errors: ["400"],
    }),
  },
  "/v1/contacts/{id}": {
    get: operation({
      operationId: "getContact",
      scope: "contacts:write",
      summary: "Retrieve a contact with its groups, newest messages and suppression",
      tag: contacts,
      parameters: [contactId],
      success: [{ status: "200", description: "The contact.", data: "ContactDetail" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateContact",
      scope: "contacts:write",
      summary: "Set or clear the contact's locale",
      description:
        "The locale its mail renders in when a send names none (canonicalised; null clears it). 400 naming locale when not a well-formed BCP 47 tag. Audited as contact.update when it changes.",
      tag: contacts,
      parameters: [contactId],
      body: { schema: "UpdateContactRequest" },
      success: [{ status: "200", description: "The contact.", data: "ContactDetail" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
  "/v1/contacts/{id}/unsubscribes": {
    put: operation({
      operationId: "setContactUnsubscribes",
      scope: "contacts:write",
      summary: "Set exactly the groups the contact is unsubscribed from ([] clears them)",
      tag: contacts,
      parameters: [contactId],
      body: { schema: "SetContactUnsubscribesRequest" },
      success: [{ status: "200", description: "The contact.", data: "ContactDetail" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
  },
  "/v1/unsubscribe_groups": {
    get: operation({
      operationId: "listUnsubscribeGroups",
      scope: "contacts:write",
      summary: "List unsubscribe groups by name, with their counts",
      tag: contacts,
      success: [{ status: "200", description: "Every group.", list: { meta: "CountMeta", item: "UnsubscribeGroup" } }],
    }),
    post: operation({
      operationId: "createUnsubscribeGroup",
      scope: "contacts:write",
      summary: "Create an unsubscribe group (its key unique in the workspace)",
      tag: contacts,
      body: { schema: "CreateUnsubscribeGroupRequest" },
      success: [{ status: "201", description: "The group.", data: "UnsubscribeGroup" }],
      errors: JSON_BODY_ERRORS,
    }),
  },
  "/v1/unsubscribe_groups/{id}": {
    get: operation({
      operationId: "getUnsubscribeGroup",
      scope: "contacts:write",
      summary: "Retrieve a group with its counts and keyLocked",
      tag: contacts,
      parameters: [groupId],
      success: [{ status: "200", description: "The group.", data: "UnsubscribeGroup" }],
      errors: ["404"],
    }),
    patch: operation({
      operationId: "updateUnsubscribeGroup",
      scope: "contacts:write",
      summary: "Rename a group; its key changes only while nothing uses it",
      tag: contacts,
      parameters: [groupId],
      body: { schema: "UpdateUnsubscribeGroupRequest" },
      success: [{ status: "200", description: "The group.", data: "UnsubscribeGroup" }],
      errors: [...JSON_BODY_ERRORS, "404"],
    }),
    delete: operation({
      operationId: "deleteUnsubscribeGroup",
      scope: "contacts:write",
      summary: "Delete a group with its unsubscribes (409 while a workflow sends with it)",
      tag: contacts,
      parameters: [groupId],
      success: [{ status: "200", description: "Deleted.", data: "Deleted" }],
      errors: ["404", "409"],
    }),
  },
};
