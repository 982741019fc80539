"use client";

import { useDeferredValue, useMemo, useState, useTransition } from "react";
import { parseSampleData } from "@/lib/domain/templates/sample-data.shared";
import type { EditorActions, ScenarioView } from "./types";

export type Feedback = { tone: "success" | "error"; text: string } | null;

const pretty = (variables: Record<string, unknown>) => JSON.stringify(variables, null, 2);

/**
 * The sample data of the editor: the JSON being typed, whether it parses (with line and column when
 * not), the last data that did (what the preview keeps using meanwhile), and the template's named
 * scenarios, saved through the editor's server actions.
 */
export function useSampleData({
  templateId,
  initial,
  skeleton,
  actions,
}: {
  templateId: string;
  initial: ScenarioView[];
  skeleton: Record<string, unknown>;
  actions: EditorActions;
}) {
  const [scenarios, setScenarios] = useState(initial);
  const [selectedId, setSelectedId] = useState<string | null>(initial[0]?.id ?? null);
  const [text, setText] = useState(() => pretty(initial[0]?.variables ?? skeleton));
  const [savedText, setSavedText] = useState(text);
  const deferredText = useDeferredValue(text);
  const parsed = useMemo(() => parseSampleData(deferredText), [deferredText]);
  const [lastValid, setLastValid] = useState<Record<string, unknown>>(() => (parsed.ok ? parsed.value : {}));
  if (parsed.ok && parsed.value !== lastValid) setLastValid(parsed.value);
  const [busy, startTransition] = useTransition();
  const [feedback, setFeedback] = useState<Feedback>(null);
  const dirty = text !== savedText;

  const show = (scenario: ScenarioView | null) => {
    const next = pretty(scenario?.variables ?? skeleton);
    setSelectedId(scenario?.id ?? null);
    setText(next);
    setSavedText(next);
  };

  const select = (id: string) => {
    if (dirty && !window.confirm("Discard the unsaved changes to this sample data?")) return;
    setFeedback(null);
    show(scenarios.find((scenario) => scenario.id === id) ?? null);
  };

  /** Saves the JSON as it is now under `name`: a new scenario, or the named one updated. */
  const saveAs = (name: string) => {
    const current = parseSampleData(text);
    if (!current.ok)
      return setFeedback({
        tone: "error",
        text: `Fix the sample data first (line ${current.line}, column ${current.column}).`,
      });
    startTransition(async () => {
      const result = await actions.saveScenario({ templateId, name, variables: current.value });
      if (!result.ok) return setFeedback({ tone: "error", text: result.error });
      const { scenario } = result;
      setScenarios((list) =>
        [...list.filter((item) => item.id !== scenario.id), scenario].sort((a, b) => a.name.localeCompare(b.name)),
      );
      setSelectedId(scenario.id);
      setSavedText(text);
      setFeedback({ tone: "success", text: `Saved scenario "${scenario.name}".` });
    });
  };

  const remove = () => {
    const scenario = scenarios.find((item) => item.id === selectedId);
    if (!scenario || !window.confirm(`Delete the scenario "${scenario.name}"?`)) return;
    startTransition(async () => {
      const result = await actions.deleteScenario({ templateId, scenarioId: scenario.id });
      if (!result.ok) return setFeedback({ tone: "error", text: result.error });
      const rest = scenarios.filter((item) => item.id !== scenario.id);
      setScenarios(rest);
      show(rest[0] ?? null);
      setFeedback({ tone: "success", text: `Deleted scenario "${scenario.name}".` });
    });
  };

  const selected = scenarios.find((scenario) => scenario.id === selectedId) ?? null;
  return {
    scenarios,
    selected,
    text,
    setText,
    parsed,
    variables: lastValid,
    dirty,
    busy,
    feedback,
    select,
    saveAs,
    remove,
  };
}

export type SampleData = ReturnType<typeof useSampleData>;
