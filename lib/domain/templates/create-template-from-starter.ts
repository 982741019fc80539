import "server-only";
import { getDb } from "@/db/client";
import { templateScenarios } from "@/db/schema";
import { defaultSenderForIn } from "@/lib/domain/domains/default-sender";
import { invalidParameter } from "@/lib/foundation/errors";
import { newId } from "@/lib/foundation/ids";
import { createTemplateIn } from "./create-template";
import { TEMPLATE_NAME_MAX } from "./schemas";
import { STARTERS } from "./starters/generated";
import { STARTER_SCENARIO_NAME } from "./starters/starter.shared";

/** Its sample data becomes scenario "Sample", and From the workspace's default sender, so preview and "Send to me" work at once. */
export async function createTemplateFromStarter(input: {
  workspaceId: string;
  starterKey: string;
  name?: string | null;
  userId: string | null;
}) {
  const starter = STARTERS.find((candidate) => candidate.key === input.starterKey);
  if (!starter)
    throw invalidParameter(
      "starter",
      `There is no starter "${input.starterKey}". Choose one of ${STARTERS.map((s) => s.key).join(", ")}.`,
    );
  const name = input.name?.trim() || starter.name;
  if (name.length > TEMPLATE_NAME_MAX)
    throw invalidParameter("name", `Invalid name: at most ${TEMPLATE_NAME_MAX} characters.`);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const content = {
      subject: starter.subject,
      bodyHtml: starter.bodyHtml,
      bodyText: starter.bodyText,
      fromAddress: await defaultSenderForIn(tx, input.workspaceId),
    };
    const template = await createTemplateIn(tx, {
      workspaceId: input.workspaceId,
      name,
      ...content,
      kind: "code",
      userId: input.userId,
    });
    await tx.insert(templateScenarios).values({
      id: newId("templateScenario"),
      workspaceId: input.workspaceId,
      templateId: template.id,
      name: STARTER_SCENARIO_NAME,
      variables: starter.variables,
    });
    return template;
  });
}
