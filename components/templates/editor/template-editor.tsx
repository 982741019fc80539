"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useRef, useState, useTransition } from "react";
import { Card } from "@/components/ui/card";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import type { CompiledBlocks } from "./blocks-body";
import { CodeEditor, type CodeEditorHandle } from "./code-editor";
import { EditorToolbar, type ToolbarFeedback } from "./editor-toolbar";
import { PreviewPane } from "./preview-pane";
import { SampleDataPanel } from "./sample-data-panel";
import { TemplateFields } from "./template-fields";
import type { Draft, EditorActions, EditorTemplateProps, PreviewProblem, PreviewRequest, ScenarioView } from "./types";
import { useDraftPreview } from "./use-draft-preview";
import { useLeaveGuard } from "./use-leave-guard";
import { useSampleData } from "./use-sample-data";

// The email builder is large and only blocks templates need it.
const BlocksBody = dynamic(() => import("./blocks-body").then((module) => module.BlocksBody), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the block editor…</p>,
});

export interface TemplateEditorProps {
  template: EditorTemplateProps;
  scenarios: ScenarioView[];
  /** Starting sample data when the template has no scenario: its variables, empty. */
  skeleton: Record<string, unknown>;
  userEmail: string;
  /** What an empty From could be (lib/domain/domains/default-sender.ts); null without a verified domain. */
  defaultSender: string | null;
  actions: EditorActions;
}

const draftOf = (template: EditorTemplateProps): Draft => ({
  name: template.name,
  subject: template.subject,
  bodyHtml: template.bodyHtml,
  bodyText: template.bodyText ?? "",
  fromAddress: template.fromAddress ?? "",
  replyTo: template.replyTo ?? "",
  strict: template.strict,
  blocks: template.blocks,
});

/**
 * The template editor: fields and bodies on the left, the live preview and sample data on the right.
 * Every editor keeps its own text; the preview is asked for off the input path (debounced, through
 * TanStack Query), so typing never waits for rendering.
 */
export function TemplateEditor({
  template,
  scenarios,
  skeleton,
  userEmail,
  defaultSender,
  actions,
}: TemplateEditorProps) {
  const blocks = template.kind === "blocks";
  const [draft, setDraft] = useState(() => draftOf(template));
  const [saved, setSaved] = useState(() => ({ version: template.version, key: JSON.stringify(draftOf(template)) }));
  const [compiled, setCompiled] = useState<CompiledBlocks>({ html: template.bodyHtml, problem: null });
  const [saving, startSaving] = useTransition();
  const [saveFeedback, setSaveFeedback] = useState<(ToolbarFeedback & { param?: string }) | null>(null);
  const [testing, setTesting] = useState<"me" | "sandbox" | null>(null);
  const [testFeedback, setTestFeedback] = useState<ToolbarFeedback | null>(null);
  const sample = useSampleData({ templateId: template.id, initial: scenarios, skeleton, actions });
  const subjectEditor = useRef<CodeEditorHandle>(null);
  const htmlEditor = useRef<CodeEditorHandle>(null);
  const textEditor = useRef<CodeEditorHandle>(null);

  const update = useCallback(
    <K extends keyof Draft>(field: K, value: Draft[K]) => setDraft((current) => ({ ...current, [field]: value })),
    [],
  );
  const dirty = JSON.stringify(draft) !== saved.key;
  useLeaveGuard(dirty);

  const bodyHtml = blocks ? (compiled.html ?? "") : draft.bodyHtml;
  const request: PreviewRequest = useMemo(
    () => ({
      subject: draft.subject,
      bodyHtml,
      bodyText: draft.bodyText || null,
      fromAddress: draft.fromAddress || null,
      replyTo: draft.replyTo || null,
      strict: draft.strict,
      variables: sample.variables,
    }),
    [draft.subject, bodyHtml, draft.bodyText, draft.fromAddress, draft.replyTo, draft.strict, sample.variables],
  );
  const preview = useDraftPreview(request);
  const problems = useMemo(() => {
    const of = (field: PreviewProblem["field"]) =>
      preview.data?.problems.filter((problem) => problem.field === field) ?? [];
    const first = (field: PreviewProblem["field"]) => of(field)[0]?.message ?? null;
    return {
      subject: of("subject"),
      bodyHtml: of("bodyHtml"),
      bodyText: of("bodyText"),
      fromAddress: first("fromAddress"),
      replyTo: first("replyTo"),
    };
  }, [preview.data]);

  const save = () => {
    if (saving) return;
    if (blocks && (compiled.problem || compiled.html === null)) {
      return setSaveFeedback({
        tone: "error",
        text: `Not saved: ${compiled.problem ?? "the block document is still compiling"}.`,
      });
    }
    const key = JSON.stringify(draft);
    const content = { ...draft, bodyHtml, kind: template.kind, blocks: blocks ? draft.blocks : null };
    startSaving(async () => {
      const result = await actions.save({ templateId: template.id, baseVersion: saved.version, content });
      if (!result.ok) return setSaveFeedback({ tone: "error", text: result.error, param: result.field });
      setSaved({ version: result.version, key });
      setSaveFeedback({ tone: "success", text: `Saved as version ${result.version}.` });
    });
  };

  const sendTest = async (mode: "me" | "sandbox") => {
    const data = sample.parsed;
    if (!data.ok)
      return setTestFeedback({
        tone: "error",
        text: `Not sent: the sample data has an error at line ${data.line}, column ${data.column}.`,
      });
    // Opened during the click, so no popup blocker intervenes; pointed at the message once it exists.
    const tab = mode === "sandbox" ? window.open("", "_blank") : null;
    setTesting(mode);
    try {
      const result = await actions.sendTest({
        templateId: template.id,
        mode,
        draft: { ...request, variables: data.value },
      });
      if (!result.ok) {
        tab?.close();
        return setTestFeedback({ tone: "error", text: `Not sent: ${result.error}` });
      }
      const href = `/emails/${result.messageId}`;
      if (tab) tab.location.href = href;
      setTestFeedback(
        mode === "me"
          ? { tone: "success", text: `Sent to ${result.to}.`, link: { href, label: "Open the message" } }
          : { tone: "success", text: "Sandbox message created (never delivered).", link: { href, label: "Open it" } },
      );
    } finally {
      setTesting(null);
    }
  };

  // Cmd/Ctrl+S anywhere on the page (the code editors bind it themselves and mark the event handled).
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  });
  const saveFromEditor = useCallback(() => latestSave.current(), []);
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!(event.metaKey || event.ctrlKey) || event.key.toLowerCase() !== "s" || event.defaultPrevented) return;
      event.preventDefault();
      latestSave.current();
    };
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);

  const goTo = (problem: PreviewProblem) => {
    if (problem.field === "fromAddress" || problem.field === "replyTo")
      return document.getElementById(problem.field === "fromAddress" ? "template-from" : "template-reply-to")?.focus();
    const editor = { subject: subjectEditor, bodyHtml: htmlEditor, bodyText: textEditor }[problem.field];
    editor.current?.focusAt(problem.line, problem.column);
  };

  return (
    <div className="space-y-4">
      <EditorToolbar
        dirty={dirty}
        saving={saving}
        onSave={save}
        saveFeedback={saveFeedback}
        testing={testing}
        onSendTest={sendTest}
        testFeedback={testFeedback}
        userEmail={userEmail}
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <Card title="Template">
            <TemplateFields
              draft={draft}
              update={update}
              problems={problems}
              saveError={saveFeedback?.tone === "error" ? saveFeedback : null}
              subjectRef={subjectEditor}
              onSave={saveFromEditor}
              defaultSender={defaultSender}
            />
          </Card>
          <Card
            title={blocks ? "Blocks" : "HTML body"}
            description={
              blocks
                ? "Compiled to Liquid HTML in your browser for the preview and the save."
                : "Liquid: {{ variable }}, {% if %}, {% for %}; filters in the API docs."
            }
          >
            {blocks ? (
              <BlocksBody
                value={draft.blocks ?? {}}
                onChange={(next: BlocksDocument) => update("blocks", next)}
                onCompiled={setCompiled}
              />
            ) : (
              <CodeEditor
                ref={htmlEditor}
                value={draft.bodyHtml}
                onChange={(value) => update("bodyHtml", value)}
                language="html"
                label="HTML body"
                problems={problems.bodyHtml}
                onSave={saveFromEditor}
                minHeight="24rem"
              />
            )}
          </Card>
          <Card title="Text body (optional)" description="Left empty, the text part is derived from the HTML.">
            <CodeEditor
              ref={textEditor}
              value={draft.bodyText}
              onChange={(value) => update("bodyText", value)}
              language="liquid"
              label="Text body"
              problems={problems.bodyText}
              onSave={saveFromEditor}
              placeholder="Derived from the HTML when empty"
              minHeight="5rem"
            />
          </Card>
        </div>
        <div className="min-w-0 space-y-4">
          <Card title="Preview" description="Rendered by the same code that sends: what you see is what goes out.">
            <PreviewPane
              result={preview.data}
              error={preview.error}
              pending={preview.pending}
              strict={draft.strict}
              staleData={!sample.parsed.ok}
              onGoTo={goTo}
            />
          </Card>
          <Card title="Sample data" description="The variables the preview and test sends use.">
            <SampleDataPanel data={sample} onSave={saveFromEditor} />
          </Card>
        </div>
      </div>
    </div>
  );
}
