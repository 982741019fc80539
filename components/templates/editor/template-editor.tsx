"use client";

import dynamic from "next/dynamic";
import { useCallback, useEffect, useMemo, useRef, useState, useTransition } from "react";
import { Card } from "@/components/ui/card";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import type { CompiledBlocks } from "./blocks-body";
import { CodeEditor, type CodeEditorHandle } from "./code-editor";
import { ContentChecksPanel } from "./content-checks-panel";
import { EditorToolbar, type ToolbarFeedback } from "./editor-toolbar";
import { LocaleBar } from "./locale-bar";
import { LocalePreviews } from "./locale-previews";
import { SampleDataPanel } from "./sample-data-panel";
import { TemplateFields } from "./template-fields";
import { TranslationTable } from "./translation-table";
import type { Draft, EditorActions, EditorTemplateProps, PreviewProblem, PreviewRequest, ScenarioView } from "./types";
import { useDraftPreview } from "./use-draft-preview";
import { useLeaveGuard } from "./use-leave-guard";
import { useLocaleStudio } from "./use-locale-studio";
import { useSampleData } from "./use-sample-data";
import { useTestSend } from "./use-test-send";

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
  variants: template.variants,
});

/**
 * The template editor: fields and bodies on the left, the live preview and sample data on the right; above them the
 * locale switcher (a variant is edited and previewed beside the default), below them the translation table.
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
  const sample = useSampleData({ templateId: template.id, initial: scenarios, skeleton, actions });
  const studio = useLocaleStudio(draft, setDraft, template.defaultLocale);
  const subjectEditor = useRef<CodeEditorHandle>(null);
  const htmlEditor = useRef<CodeEditorHandle>(null);
  const textEditor = useRef<CodeEditorHandle>(null);

  const { setContent } = studio;
  const update = useCallback(
    <K extends keyof Draft>(field: K, value: Draft[K]) => {
      // The subject is the shown locale's; the other fields are the template's, whatever the locale.
      if (field === "subject") return setContent("subject", value as string);
      setDraft((current) => ({ ...current, [field]: value }));
    },
    [setContent],
  );
  const dirty = JSON.stringify(draft) !== saved.key;
  useLeaveGuard(dirty);

  const bodyHtml = blocks ? (compiled.html ?? "") : draft.bodyHtml;
  const variants = studio.variantsOut();
  const request: PreviewRequest = {
    subject: draft.subject,
    bodyHtml,
    bodyText: draft.bodyText || null,
    fromAddress: draft.fromAddress || null,
    replyTo: draft.replyTo || null,
    strict: draft.strict,
    variables: sample.variables,
    defaultLocale: template.defaultLocale,
    variants: variants.map(({ blocks: _blocks, sampleData: _sampleData, ...variant }) => variant),
  };
  const shownRequest = { ...request, locale: studio.activeLocale };
  const defaultPreview = useDraftPreview({ ...request, locale: template.defaultLocale });
  const variantPreview = useDraftPreview(studio.isDefault ? null : shownRequest);
  const preview = studio.isDefault ? defaultPreview : variantPreview;
  const translations = defaultPreview.data?.translations ?? null;
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
  const test = useTestSend(template.id, actions, sample, shownRequest);

  const save = () => {
    if (saving) return;
    const problem = blocks ? (compiled.problem ?? studio.compiledProblem) : null;
    if (blocks && (problem || compiled.html === null)) {
      return setSaveFeedback({
        tone: "error",
        text: `Not saved: ${problem ?? "the block document is still compiling"}.`,
      });
    }
    const key = JSON.stringify(draft);
    const { variants: _variants, ...own } = draft;
    const content = { ...own, bodyHtml, kind: template.kind, blocks: blocks ? draft.blocks : null };
    startSaving(async () => {
      const result = await actions.save({ templateId: template.id, baseVersion: saved.version, content, variants });
      if (!result.ok) return setSaveFeedback({ tone: "error", text: result.error, param: result.field });
      setSaved({ version: result.version, key });
      setSaveFeedback({ tone: "success", text: `Saved as version ${result.version}.` });
    });
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
  const inLocale = studio.isDefault ? "" : ` (${studio.activeLocale})`;
  const inherited = (field: "bodyHtml" | "bodyText" | "blocks") =>
    studio.overrides(field)
      ? ""
      : ` Inherited from ${template.defaultLocale}: editing gives ${studio.activeLocale} its own.`;

  return (
    <div className="space-y-4">
      <EditorToolbar
        dirty={dirty}
        saving={saving}
        onSave={save}
        saveFeedback={saveFeedback}
        testing={test.testing}
        onSendTest={test.sendTest}
        testFeedback={test.testFeedback}
        userEmail={userEmail}
      />
      <LocaleBar
        locales={studio.locales}
        defaultLocale={template.defaultLocale}
        active={studio.activeLocale}
        onSelect={studio.setActive}
        onAdd={(tag, copy) => studio.addLocale(tag, copy, bodyHtml)}
        onRemove={studio.removeLocale}
        translations={translations}
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <Card title="Template">
            <TemplateFields
              draft={{ ...draft, subject: studio.content.subject }}
              update={update}
              problems={problems}
              saveError={saveFeedback?.tone === "error" ? saveFeedback : null}
              subjectRef={subjectEditor}
              onSave={saveFromEditor}
              defaultSender={defaultSender}
            />
          </Card>
          <Card
            title={(blocks ? "Blocks" : "HTML body") + inLocale}
            description={
              (blocks
                ? "Compiled to Liquid HTML in your browser for the preview and the save."
                : 'Liquid: {{ variable }}, {% if %}, {% for %}, {% t "key" %}; filters in the API docs.') +
              (studio.isDefault ? "" : inherited(blocks ? "blocks" : "bodyHtml"))
            }
          >
            {blocks ? (
              <BlocksBody
                key={studio.activeLocale}
                value={studio.content.blocks ?? {}}
                onChange={(next: BlocksDocument) => setContent("blocks", next)}
                onCompiled={studio.isDefault ? setCompiled : studio.onVariantCompiled}
              />
            ) : (
              <CodeEditor
                ref={htmlEditor}
                value={studio.content.bodyHtml}
                onChange={(value) => setContent("bodyHtml", value)}
                language="html"
                label="HTML body"
                problems={problems.bodyHtml}
                onSave={saveFromEditor}
                minHeight="24rem"
              />
            )}
          </Card>
          <Card
            title={`Text body (optional)${inLocale}`}
            description={
              "Left empty, the text part is derived from the HTML." + (studio.isDefault ? "" : inherited("bodyText"))
            }
          >
            <CodeEditor
              ref={textEditor}
              value={studio.content.bodyText}
              onChange={(value) => setContent("bodyText", value)}
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
            <LocalePreviews
              defaultLocale={template.defaultLocale}
              variantLocale={studio.isDefault ? null : studio.activeLocale}
              defaultPreview={defaultPreview}
              variantPreview={variantPreview}
              strict={draft.strict}
              staleData={!sample.parsed.ok}
              onGoTo={goTo}
              onShowDefault={() => studio.setActive(template.defaultLocale)}
            />
          </Card>
          <ContentChecksPanel request={shownRequest} saveFeedback={saveFeedback} />
          <Card title="Sample data" description="The variables the preview and test sends use.">
            <SampleDataPanel data={sample} onSave={saveFromEditor} />
          </Card>
        </div>
      </div>
      <Card
        title="Translations"
        description="Each key the template's {% t %} tags and | t filters use, per locale. Save publishes them with the template."
      >
        <TranslationTable
          defaultLocale={template.defaultLocale}
          locales={studio.locales}
          variants={draft.variants}
          translations={translations}
          onMessage={studio.setMessage}
          onFallsBack={studio.setFallsBack}
        />
      </Card>
    </div>
  );
}
