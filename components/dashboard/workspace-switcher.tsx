"use client";

import { useRef } from "react";
import { Select } from "@/components/ui/field";

interface Option {
  id: string;
  name: string;
}

/** Switching submits at once; without JavaScript the button does it. The server checks membership. */
export function WorkspaceSwitcher({
  workspaces,
  currentId,
  action,
}: {
  workspaces: Option[];
  currentId: string;
  action: (form: FormData) => Promise<void>;
}) {
  const form = useRef<HTMLFormElement>(null);
  return (
    <form ref={form} action={action} className="flex items-center gap-2">
      <label htmlFor="workspace-switcher" className="sr-only">
        Workspace
      </label>
      <Select
        id="workspace-switcher"
        name="workspaceId"
        defaultValue={currentId}
        onChange={() => form.current?.requestSubmit()}
      >
        {workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </Select>
      <noscript>
        <button type="submit" className="text-sm text-indigo-600">
          Switch
        </button>
      </noscript>
    </form>
  );
}
