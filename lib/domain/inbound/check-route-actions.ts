import "server-only";
import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inboundDomains, workflows, type InboundAction } from "@/db/schema";
import { assertKeyMaySendAs } from "@/lib/domain/api-keys/restrictions";
import { assertSenderAllowed, sendRouteOf } from "@/lib/domain/domains/assert-sender-allowed";
import { readMailbox } from "@/lib/foundation/addresses/recipients.shared";
import { AppError, invalidParameter } from "@/lib/foundation/errors";

/**
 * A route's actions checked against the workspace (docs/inbound.md#routes): a reject stands alone; a forward goes to
 * one address off every inbound domain of the workspace (no loop through ourselves) from a sender the workspace may
 * use (and, through an API key limited to senders, one of those); a workflow exists. Returns them as stored (forward
 * `to` as its bare address).
 */
export async function checkRouteActions(
  db: Executor,
  workspaceId: string,
  actions: InboundAction[],
  allowedSenders?: readonly string[],
): Promise<InboundAction[]> {
  const rejects = actions.findIndex((action) => action.type === "reject");
  if (rejects >= 0 && actions.length > 1) {
    throw invalidParameter(
      `actions[${rejects}]`,
      "A reject action must be the route's only action: a refused mail is never stored, forwarded or sent on.",
    );
  }
  const checked: InboundAction[] = [];
  for (const [index, action] of actions.entries()) {
    if (action.type === "forward") checked.push(await checkForward(db, workspaceId, action, index, allowedSenders));
    else if (action.type === "workflow") checked.push(await checkWorkflow(db, workspaceId, action, index));
    else checked.push(action);
  }
  return checked;
}

async function checkForward(
  db: Executor,
  workspaceId: string,
  action: Extract<InboundAction, { type: "forward" }>,
  index: number,
  allowedSenders: readonly string[] | undefined,
): Promise<InboundAction> {
  const param = `actions[${index}].to`;
  const to = readMailbox(action.to.trim());
  if (!to || !/^[^\s@]+\.[^\s@.]{2,}$/.test(to.domain))
    throw invalidParameter(param, `${param} must be one email address, e.g. team@example.org.`);
  const domain = to.domain.toLowerCase().replace(/\.$/, "");
  const address = `${to.address.slice(0, to.address.lastIndexOf("@"))}@${domain}`;
  const [own] = await db
    .select({ id: inboundDomains.id })
    .from(inboundDomains)
    .where(and(eq(inboundDomains.workspaceId, workspaceId), eq(inboundDomains.name, domain)));
  if (own) {
    throw invalidParameter(
      param,
      `${param} is on ${domain}, an inbound domain of this workspace: the forward would come back here (a loop). Forward to a mailbox elsewhere.`,
    );
  }
  if (action.from === undefined) return { type: "forward", to: address };
  const fromParam = `actions[${index}].from`;
  const from = readMailbox(action.from.trim());
  if (!from) throw invalidParameter(fromParam, `${fromParam} must be one email address or "Name <address>".`);
  assertKeyMaySendAs(allowedSenders, from.address, fromParam);
  try {
    await assertSenderAllowed(db, workspaceId, from.address, sendRouteOf(false, [address]));
  } catch (error) {
    if (error instanceof AppError) throw new AppError(error.code, error.message, { param: fromParam });
    throw error;
  }
  return { type: "forward", to: address, from: action.from.trim() };
}

async function checkWorkflow(
  db: Executor,
  workspaceId: string,
  action: Extract<InboundAction, { type: "workflow" }>,
  index: number,
): Promise<InboundAction> {
  const [found] = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(eq(workflows.workspaceId, workspaceId), eq(workflows.id, action.workflowId)));
  if (!found) {
    const param = `actions[${index}].workflowId`;
    throw invalidParameter(param, `${param}: no workflow ${action.workflowId} in this workspace.`);
  }
  return { type: "workflow", workflowId: found.id };
}
