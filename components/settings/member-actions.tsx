"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmSubmit } from "@/components/ui/confirm-submit";
import { Select } from "@/components/ui/field";
import { ROLE_LABELS, type Role } from "@/lib/foundation/access/roles.shared";
import type { SettingsAction } from "./form-state.shared";

interface Props {
  userId: string;
  email: string;
  role: Role;
  /** Roles the signed-in admin may give (owners only by owners). */
  roles: Role[];
  changeRole: SettingsAction;
  remove: SettingsAction;
}

/** Change role and remove, for one member row; the server re-checks both (and the last-owner rule). */
export function MemberActions({ userId, email, role, roles, changeRole, remove }: Props) {
  const [roleState, submitRole, changing] = useActionState(changeRole, {});
  const [removeState, submitRemove, removing] = useActionState(remove, {});
  const error = roleState.error ?? removeState.error;
  const selectId = `role-${userId}`;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <form action={submitRole} className="flex items-center gap-2">
          <input type="hidden" name="userId" value={userId} />
          <label htmlFor={selectId} className="sr-only">
            Role of {email}
          </label>
          <Select id={selectId} name="role" defaultValue={role} className="w-28">
            {roles.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </Select>
          <Button type="submit" variant="secondary" disabled={changing}>
            Change
          </Button>
        </form>
        <form action={submitRemove}>
          <input type="hidden" name="userId" value={userId} />
          <ConfirmSubmit label={removing ? "Removing…" : "Remove"} title={`Remove ${email}?`} variant="danger">
            They lose access to this workspace at their next request. Their account and other workspaces stay.
          </ConfirmSubmit>
        </form>
      </div>
      {error ? (
        <p role="alert" className="text-xs text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
