"use client";

import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { html } from "@codemirror/lang-html";
import { json } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import {
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder as placeholderText,
} from "@codemirror/view";
import { useEffect, useImperativeHandle, useRef, type Ref } from "react";
import { liquidHighlight } from "./liquid-highlight";

export type CodeLanguage = "html" | "liquid" | "json";

/** A problem to mark in the editor, 1-based like the renderer's and the JSON checker's positions. */
export interface EditorProblem {
  line: number | null;
  column: number | null;
  message: string;
}

export interface CodeEditorHandle {
  /** Puts the cursor at a line and column and scrolls there (the problems list's "go to"). */
  focusAt(line: number | null, column: number | null): void;
}

export interface CodeEditorProps {
  /** The text. The editor owns its document while typing; a different value from outside replaces it. */
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  /** Accessible name of the editing surface (it has role=textbox). */
  label: string;
  id?: string;
  singleLine?: boolean;
  problems?: EditorProblem[];
  onSave?: () => void;
  placeholder?: string;
  ref?: Ref<CodeEditorHandle>;
  /** CSS heights of the editing area (multi-line editors): it grows from min to max, then scrolls. */
  minHeight?: string;
  maxHeight?: string;
}

const theme = EditorView.theme({
  "&": { fontSize: "12.5px", backgroundColor: "white" },
  "&.cm-focused": { outline: "2px solid #4f46e5", outlineOffset: "-1px" },
  ".cm-content": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace", padding: "6px 0" },
  ".cm-gutters": { backgroundColor: "#f8fafc", color: "#94a3b8", borderRight: "1px solid #e2e8f0" },
  ".cm-liquid": { borderRadius: "3px" },
  ".cm-liquid-output": { backgroundColor: "#eef2ff", color: "#4338ca" },
  ".cm-liquid-tag": { backgroundColor: "#fdf4ff", color: "#a21caf" },
  ".cm-scroller": { overflow: "auto" },
});

function languageExtensions(language: CodeLanguage): Extension[] {
  if (language === "html") return [html({ autoCloseTags: true }), liquidHighlight];
  if (language === "json") return [json()];
  return [liquidHighlight];
}

/** Offsets of 1-based positions in the current document, clamped: problems may describe a slightly older text. */
function toDiagnostics(state: EditorState, problems: EditorProblem[]): Diagnostic[] {
  return problems.map((problem) => {
    const lineNumber = Math.min(Math.max(problem.line ?? 1, 1), state.doc.lines);
    const line = state.doc.line(lineNumber);
    const from = Math.min(line.from + Math.max((problem.column ?? 1) - 1, 0), line.to);
    return {
      from,
      to: Math.min(Math.max(from + 1, line.to), state.doc.length),
      severity: "error",
      message: problem.message,
    };
  });
}

/**
 * CodeMirror 6 in React: line numbers, undo history, HTML or JSON language, Liquid spans marked, lint
 * markers for the problems given, Mod-S to save. Typing stays inside CodeMirror (no React state on the
 * input path); onChange reports the text after each change.
 */
export function CodeEditor({
  value,
  onChange,
  language,
  label,
  id,
  singleLine = false,
  problems,
  onSave,
  placeholder,
  ref,
  minHeight = "8rem",
  maxHeight = "36rem",
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const callbacks = useRef({ onChange, onSave });
  // The last text this editor reported: a `value` equal to it is our own echo, not a change from outside.
  const emitted = useRef(value);

  useEffect(() => {
    callbacks.current = { onChange, onSave };
  });

  useEffect(() => {
    const save = { key: "Mod-s", preventDefault: true, run: () => (callbacks.current.onSave?.(), true) };
    const extensions: Extension[] = [
      history(),
      keymap.of([
        save,
        ...(singleLine ? [{ key: "Enter", run: () => true }] : []),
        indentWithTab,
        ...defaultKeymap,
        ...historyKeymap,
      ]),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      ...languageExtensions(language),
      theme,
      EditorView.contentAttributes.of({
        "aria-label": label,
        ...(id ? { id } : {}),
        ...(singleLine ? { "aria-multiline": "false" } : {}),
      }),
      EditorView.updateListener.of((update) => {
        if (!update.docChanged) return;
        emitted.current = update.state.doc.toString();
        callbacks.current.onChange(emitted.current);
      }),
      placeholder ? placeholderText(placeholder) : [],
      singleLine
        ? EditorState.transactionFilter.of((tr) => (tr.docChanged && tr.newDoc.lines > 1 ? [] : tr))
        : [
            lineNumbers(),
            lintGutter(),
            highlightActiveLine(),
            highlightActiveLineGutter(),
            bracketMatching(),
            indentOnInput(),
            EditorView.lineWrapping,
            EditorView.theme({ "&": { maxHeight }, ".cm-content, .cm-gutter": { minHeight } }),
          ],
    ];
    const created = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The view is made once; value and problems reach it through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, singleLine, label, id, placeholder, minHeight, maxHeight]);

  useEffect(() => {
    const current = view.current;
    if (!current || value === emitted.current || current.state.doc.toString() === value) return;
    emitted.current = value;
    current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, toDiagnostics(current.state, problems ?? [])));
  }, [problems]);

  useImperativeHandle(ref, () => ({
    focusAt(line, column) {
      const current = view.current;
      if (!current) return;
      const [diagnostic] = toDiagnostics(current.state, [{ line, column, message: "" }]);
      current.dispatch({ selection: { anchor: diagnostic.from }, scrollIntoView: true });
      current.focus();
    },
  }));

  return <div ref={host} className="fixed-palette overflow-hidden rounded-md border border-slate-300" />;
}
