import { callApi } from "@/lib/testing/http";

/** An API answer as the fixture keeps it: its status and its JSON body. */
export interface Answer {
  status: number;
  body: unknown;
}
/** Keyed by the path that was read (GET), in the order it was read. */
export type Answers = Record<string, Answer>;

export async function readAnswer(path: string, authorization: string): Promise<Answer> {
  const answer = await callApi(path, { authorization });
  return { status: answer.status, body: answer.json };
}

/** The lists of the API, then each item's own GETs (found in the lists), as the release answers them. */
const LISTS = [
  "/v1/email_messages",
  "/v1/templates",
  "/v1/webhook_endpoints",
  "/v1/api_keys",
  "/v1/domains",
  "/v1/contacts",
  "/v1/suppressions",
  "/v1/unsubscribe_groups",
  "/v1/events",
  "/v1/workspace",
  "/v1/audit_events",
];

const ITEM_PATHS: Record<string, (id: string) => string[]> = {
  "/v1/email_messages": (id) => [`/v1/email_messages/${id}`, `/v1/email_messages/${id}/events`],
  "/v1/templates": (id) => [
    `/v1/templates/${id}`,
    `/v1/templates/${id}/versions`,
    `/v1/templates/${id}/versions/1`,
    `/v1/templates/${id}/scenarios`,
  ],
  "/v1/webhook_endpoints": (id) => [`/v1/webhook_endpoints/${id}`, `/v1/webhook_endpoints/${id}/deliveries`],
  "/v1/domains": (id) => [`/v1/domains/${id}`],
  "/v1/contacts": (id) => [`/v1/contacts/${id}`],
  "/v1/unsubscribe_groups": (id) => [`/v1/unsubscribe_groups/${id}`],
};

export async function readFixtureAnswers(authorization: string): Promise<Answers> {
  const answers: Answers = {};
  const read = async (path: string) => {
    answers[path] = await readAnswer(path, authorization);
    if (answers[path].status !== 200) throw new Error(`GET ${path}: ${JSON.stringify(answers[path])}`);
    return answers[path].body as { data: unknown };
  };
  for (const list of LISTS) {
    const { data } = await read(list);
    const items = Array.isArray(data) ? (data as Array<{ id: string; batchId?: string | null }>) : [];
    for (const item of items) for (const path of ITEM_PATHS[list]?.(item.id) ?? []) await read(path);
    const batches = new Set(items.map((item) => item.batchId).filter(Boolean));
    for (const batch of batches)
      await read(`/v1/batches/${batch}`).then(() => read(`/v1/batches/${batch}/email_messages`));
  }
  return answers;
}
