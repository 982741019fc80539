import type { Metadata } from "next";
import { connection } from "next/server";
import { ConnectionForm } from "@/components/dashboard/providers/connection-form";
import { ConnectionList } from "@/components/dashboard/providers/connection-list";
import { DryRunForm } from "@/components/dashboard/providers/dry-run-form";
import { RuleForm } from "@/components/dashboard/providers/rule-form";
import { RuleList } from "@/components/dashboard/providers/rule-list";
import type { MailboxFamily } from "@/components/dashboard/providers/words";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { listConnections } from "@/lib/domain/providers/get-connection";
import { listRules } from "@/lib/domain/providers/get-rule";
import { DEFAULT_CONNECTION, KIND_FIELDS } from "@/lib/domain/providers/schemas";
import { serializeConnection } from "@/lib/domain/providers/serialize-connection";
import { serializeRule } from "@/lib/domain/providers/serialize-rule";
import { circuitStates } from "@/lib/delivery/routing/circuit-breaker";
import { hasRole, ROLE_LABELS } from "@/lib/foundation/access/roles.shared";
import { env } from "@/lib/foundation/env";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import {
  createConnectionAction,
  createRuleAction,
  deleteConnectionAction,
  deleteRuleAction,
  dryRunAction,
} from "./actions";

export const metadata: Metadata = { title: "Providers" };

/** The mailbox families a rule can match, in the form's order (db/schema/providers.ts's MAILBOX_FAMILIES). */
const FAMILIES = ["gmail", "microsoft", "yahoo", "apple"] as const satisfies readonly MailboxFamily[];

/** The connections (default's circuit included) and rules as the page shows them. */
async function readProviders(workspaceId: string) {
  const [rows, rules] = await Promise.all([listConnections(workspaceId), listRules(workspaceId)]);
  const circuits = await circuitStates(workspaceId, [DEFAULT_CONNECTION, ...rows.map((row) => row.id)]);
  return {
    defaultConnection: { kind: env().DELIVERY_PROVIDER, circuit: circuits[DEFAULT_CONNECTION] },
    connections: rows.map((row) => ({ ...serializeConnection(row), circuit: circuits[row.id] })),
    rules: rules.map(serializeRule),
  };
}

// Where this workspace's mail goes out (docs/delivery.md#routing-and-failover). Everyone sees it and may dry-run a
// route; only owners change it (the actions re-check): a connection holds the workspace's provider credentials.
export default async function ProvidersPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "OWNER");
  const { defaultConnection, connections, rules } = await readProviders(workspace.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Providers"
        description="Where this workspace's mail goes out: the instance's provider, or the workspace's own connections (an SMTP relay, a Resend or SES account), picked per message by routing rules. A rule names a primary and fallbacks: when one fails or its circuit is open, the next is tried."
      />
      {canManage ? null : (
        <p className="text-sm text-slate-600" data-testid="providers-read-only">
          You are a {ROLE_LABELS[role].toLowerCase()}: only owners add or delete connections and rules.
        </p>
      )}
      <Card title="Connections" id="connections" description="default first, then this workspace's, by name.">
        <ConnectionList
          defaultConnection={defaultConnection}
          connections={connections}
          appUrl={env().APP_URL.replace(/\/$/, "")}
          deleteAction={canManage ? deleteConnectionAction : undefined}
        />
      </Card>
      {canManage ? (
        <Card
          title="Add a connection"
          id="add-connection"
          description="Secrets are sealed and never shown again; hosts on private addresses need the operator's PROVIDERS_ALLOW_PRIVATE=true."
        >
          <ConnectionForm kinds={KIND_FIELDS} action={createConnectionAction} />
        </Card>
      ) : null}
      <Card
        title="Routing rules"
        id="routing-rules"
        description="Tried in order; the first enabled rule that matches picks the connections. No match: default."
      >
        <RuleList rules={rules} deleteAction={canManage ? deleteRuleAction : undefined} />
      </Card>
      {canManage ? (
        <Card title="Add a rule" id="add-rule" description="It goes after the last rule.">
          <RuleForm
            families={FAMILIES}
            connectionNames={[DEFAULT_CONNECTION, ...connections.map((item) => item.name)]}
            action={createRuleAction}
          />
        </Card>
      ) : null}
      <Card
        title="Dry run"
        id="dry-run"
        description="Which rule and connections a message would take now, with each connection's circuit. Nothing is stored or sent."
      >
        <DryRunForm action={dryRunAction} />
      </Card>
    </div>
  );
}
