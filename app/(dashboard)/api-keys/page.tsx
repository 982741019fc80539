import type { Metadata } from "next";
import { connection } from "next/server";
import { CreateApiKeyForm } from "@/components/api-keys/create-api-key-form";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { isExpired, listApiKeys, type ApiKeySummary } from "@/lib/domain/api-keys/list-api-keys";
import { env } from "@/lib/foundation/env";
import { hasRole } from "@/lib/foundation/access/roles.shared";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

// The workspace's API keys: who may call the API as this workspace, and when they last did.
export default async function ApiKeysPage() {
  await connection();
  const { workspace, role } = await requireDashboard();
  const canManage = hasRole(role, "ADMIN");
  const keys = await listApiKeys(workspace.id);
  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description="HTTP Basic credentials for the API: the username is the key id (key_…), the password is shown once when the key is created."
      />
      {canManage ? (
        <Card title="Create a key" id="create-key">
          <CreateApiKeyForm action={createApiKeyAction} appUrl={env().APP_URL} />
        </Card>
      ) : (
        <p className="text-sm text-slate-600">Only admins and owners can create or revoke keys.</p>
      )}
      {keys.length === 0 ? (
        <EmptyState title="No API keys yet">
          {canManage ? "Create one above to send through the API." : "Ask an admin to create one."}
        </EmptyState>
      ) : (
        <Table label="API keys">
          <THead>
            <Th>Name</Th>
            <Th>Credentials</Th>
            <Th>Scopes</Th>
            <Th>Restrictions</Th>
            <Th>Created</Th>
            <Th>Last used</Th>
            <Th>Status</Th>
            {canManage ? <Th className="text-right">Actions</Th> : null}
          </THead>
          <TBody>
            {keys.map((key) => (
              <tr key={key.id} data-testid={`api-key-${key.id}`}>
                <Td className="font-medium text-slate-900">{key.name}</Td>
                {/* One column for both halves of the credentials: at 1366 px a column more pushed Status off screen. */}
                <Td className="font-mono text-xs">
                  <div className="whitespace-nowrap">{key.id}</div>
                  <div className="text-slate-500">{key.secretHint}…</div>
                </Td>
                <Td className="font-mono text-xs" data-testid="api-key-scopes">
                  {key.scopes.join(", ")}
                </Td>
                <Td className="text-xs">
                  <KeyRestrictions apiKey={key} />
                </Td>
                <Td>
                  <Timestamp value={key.createdAt} />
                </Td>
                <Td>
                  {key.lastUsedAt ? (
                    <Timestamp value={key.lastUsedAt} />
                  ) : (
                    <span className="text-slate-400">never</span>
                  )}
                </Td>
                <Td>
                  {key.revokedAt ? (
                    <span title={key.revokedAt.toISOString()}>
                      <Badge tone="danger">Revoked</Badge>
                    </span>
                  ) : isExpired(key) ? (
                    <Badge tone="warning">Expired</Badge>
                  ) : (
                    <Badge tone="success">Active</Badge>
                  )}
                </Td>
                {canManage ? (
                  <Td className="text-right">
                    {key.revokedAt ? null : (
                      <form action={revokeApiKeyAction}>
                        <input type="hidden" name="id" value={key.id} />
                        <ConfirmSubmit label="Revoke" title={`Revoke “${key.name}”?`}>
                          Requests with <code className="font-mono">{key.id}</code> are refused (401) from now on. This
                          cannot be undone.
                        </ConfirmSubmit>
                      </form>
                    )}
                  </Td>
                ) : null}
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}

/** Senders, IP ranges and expiry of a key; "none" when it has no restriction. */
function KeyRestrictions({ apiKey }: { apiKey: ApiKeySummary }) {
  const parts = [
    apiKey.allowedSenders.length ? `senders: ${apiKey.allowedSenders.join(", ")}` : null,
    apiKey.allowedIps.length ? `IPs: ${apiKey.allowedIps.join(", ")}` : null,
  ].filter(Boolean);
  if (parts.length === 0 && !apiKey.expiresAt) return <span className="text-slate-400">none</span>;
  return (
    <ul className="space-y-0.5">
      {parts.map((part) => (
        <li key={part} className="font-mono break-all">
          {part}
        </li>
      ))}
      {apiKey.expiresAt ? (
        <li>
          {isExpired(apiKey) ? "expired " : "expires "}
          <Timestamp value={apiKey.expiresAt} />
        </li>
      ) : null}
    </ul>
  );
}
