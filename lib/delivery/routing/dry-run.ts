import "server-only";
import { getDb } from "@/db/client";
import { dryRunSchema } from "@/lib/domain/providers/schemas";
import { bareAddress } from "@/lib/foundation/addresses/sender-address.shared";
import { hasSimulatorRecipient } from "@/lib/foundation/addresses/simulator.shared";
import { env } from "@/lib/foundation/env";
import { invalidParameter } from "@/lib/foundation/errors";
import { zodToAppError } from "@/lib/foundation/validation.shared";
import type { DeliveryProvider } from "../provider";
import { getDeliveryProvider } from "../registry";
import { circuitStateOf } from "./circuit-breaker";
import { mailboxFamilies } from "./mailbox-family";
import { factsOf, routeOf } from "./route";
import { routingTableOf } from "./routing-table";

const list = (value: string | string[] | undefined) =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Which rule and connections a message with these fields would take now, with each connection's circuit, and what
 * routing read of it (stream, domains, mailbox families). Nothing is stored or sent (POST /v1/routing_rules/dry_run).
 */
export async function dryRunRoute(workspaceId: string, body: unknown) {
  const parsed = dryRunSchema.safeParse(body ?? {});
  if (!parsed.success) throw zodToAppError(parsed.error);
  const input = parsed.data;
  const message = {
    workspaceId,
    from: input.from,
    to: list(input.to),
    cc: list(input.cc),
    bcc: list(input.bcc),
    tags: input.tags ?? [],
    groupId: input.groupId ?? null,
    templateId: input.templateId ?? null,
    connectionId: null,
  };
  const db = await getDb();
  const facts = checkedFacts(message);
  // Looked up only when a rule names families, as delivery does: a dry run costs what the send would.
  const table = await routingTableOf(db, workspaceId);
  const lookup = table.rules.some((rule) => rule.match.mailboxFamilies);
  const families = await mailboxFamilies(facts.recipientDomains, { lookup });
  const simulator = hasSimulatorRecipient(message.to, message.cc, message.bcc);
  const route = await routeOf(db, message, instanceProvider());
  const connections = await Promise.all(
    route.hops.map(async (hop, index) => ({
      name: hop.name,
      id: hop.connectionId,
      kind: hop.provider.name,
      role: index === 0 ? ("primary" as const) : ("fallback" as const),
      circuit: await circuitStateOf(db, workspaceId, hop.connectionId),
    })),
  );
  return {
    rule: route.rule,
    connections: simulator ? [] : connections,
    simulator,
    facts: {
      stream: facts.stream,
      senderDomain: facts.senderDomain,
      recipientDomains: facts.recipientDomains.map((domain) => ({
        domain,
        mailboxFamily: families.get(domain) ?? null,
      })),
    },
    summary: simulator
      ? "A simulator address: the simulator answers, whatever the rules say."
      : `${route.rule ? `Rule ${route.rule.name ?? route.rule.id}` : "No rule matches"}: ${connections.map((hop) => hop.name).join(", then ") || "no connection"}.`,
  };
}

/** What routing reads, or a 400 naming the field that holds no address with a domain. */
function checkedFacts(message: Parameters<typeof factsOf>[0]) {
  for (const [param, entries] of [
    ["to", message.to],
    ["cc", message.cc],
    ["bcc", message.bcc],
  ] as const) {
    const bad = entries.findIndex((entry) => !bareAddress(entry)?.includes("@"));
    if (bad >= 0) throw invalidParameter(param, `${param} must hold addresses such as ada@example.org.`);
  }
  try {
    return factsOf(message);
  } catch {
    throw invalidParameter("from", "from must be an address such as Acme <hello@example.com>.");
  }
}

/** The instance's provider as this process knows it; the API process may lack the worker's settings. */
function instanceProvider(): DeliveryProvider {
  try {
    return getDeliveryProvider();
  } catch {
    return {
      name: env().DELIVERY_PROVIDER,
      description: "the instance's provider",
      transactional: false,
      confirmsDelivery: false,
      send: () => Promise.reject(new Error("A dry run sends nothing.")),
    };
  }
}
