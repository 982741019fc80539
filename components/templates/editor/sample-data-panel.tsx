"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/field";
import { CodeEditor } from "./code-editor";
import type { SampleData } from "./use-sample-data";

/**
 * The variables the preview and test sends use, as JSON, with the template's named scenarios ("new
 * customer", "empty cart"): pick one, save changes to it, add the current data under a new name, delete.
 */
export function SampleDataPanel({ data, onSave }: { data: SampleData; onSave: () => void }) {
  const [newName, setNewName] = useState("");
  const { parsed, selected } = data;
  const problems = parsed.ok ? [] : [{ line: parsed.line, column: parsed.column, message: parsed.message }];
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor="scenario" className="text-sm font-medium text-slate-800">
          Scenario
        </label>
        <Select
          id="scenario"
          className="w-auto min-w-40 flex-1"
          value={selected?.id ?? ""}
          onChange={(event) => data.select(event.target.value)}
          disabled={data.busy}
        >
          {selected ? null : <option value="">(unsaved sample data)</option>}
          {data.scenarios.map((scenario) => (
            <option key={scenario.id} value={scenario.id}>
              {scenario.name}
            </option>
          ))}
        </Select>
        <Button
          variant="secondary"
          disabled={!selected || !data.dirty || !parsed.ok || data.busy}
          onClick={() => selected && data.saveAs(selected.name)}
        >
          Save scenario
        </Button>
        <Button variant="ghost" disabled={!selected || data.busy} onClick={data.remove}>
          Delete
        </Button>
      </div>
      <form
        className="flex flex-wrap items-center gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!newName.trim()) return;
          data.saveAs(newName.trim());
          setNewName("");
        }}
      >
        <Input
          aria-label="New scenario name"
          placeholder="New scenario name, e.g. Empty cart"
          className="w-auto min-w-40 flex-1"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          maxLength={100}
        />
        <Button type="submit" variant="secondary" disabled={!newName.trim() || data.busy}>
          Add scenario
        </Button>
      </form>
      <CodeEditor
        value={data.text}
        onChange={data.setText}
        language="json"
        label="Sample data (JSON)"
        problems={problems}
        onSave={onSave}
      />
      <div aria-live="polite" className="min-h-5 text-sm">
        {!parsed.ok ? (
          <p className="text-red-700" data-testid="sample-data-error">
            Line {parsed.line}, column {parsed.column}: {parsed.message}
          </p>
        ) : data.dirty && selected ? (
          <p className="text-slate-500">Unsaved changes to &ldquo;{selected.name}&rdquo;.</p>
        ) : null}
        {data.feedback ? (
          <p
            className={data.feedback.tone === "error" ? "text-red-700" : "text-emerald-700"}
            data-testid="scenario-feedback"
          >
            {data.feedback.text}
          </p>
        ) : null}
      </div>
    </div>
  );
}
