"use client";

import { useState } from "react";
import type { ToolbarFeedback } from "./editor-toolbar";
import type { EditorActions, PreviewRequest } from "./types";
import type { SampleData } from "./use-sample-data";

/**
 * "Send to me" and "Sandbox test" of the draft as previewed (in the studio's shown locale): the request carries the
 * draft's variants, so a test send renders exactly what the preview shows.
 */
export function useTestSend(templateId: string, actions: EditorActions, sample: SampleData, request: PreviewRequest) {
  const [testing, setTesting] = useState<"me" | "sandbox" | null>(null);
  const [testFeedback, setTestFeedback] = useState<ToolbarFeedback | null>(null);

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
      const result = await actions.sendTest({ templateId, mode, draft: { ...request, variables: data.value } });
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
  return { testing, testFeedback, sendTest };
}
