"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";

export interface ToolbarFeedback {
  tone: "success" | "error";
  text: string;
  link?: { href: string; label: string };
}

export interface EditorToolbarProps {
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  saveFeedback: ToolbarFeedback | null;
  testing: "me" | "sandbox" | null;
  onSendTest: (mode: "me" | "sandbox") => void;
  testFeedback: ToolbarFeedback | null;
  userEmail: string;
}

/** Save (with the unsaved-changes mark) and the two test sends, with what each last did. */
export function EditorToolbar({
  dirty,
  saving,
  onSave,
  saveFeedback,
  testing,
  onSendTest,
  testFeedback,
  userEmail,
}: EditorToolbarProps) {
  return (
    <div className="sticky top-0 z-10 -mx-1 flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-slate-200 bg-white/95 px-3 py-2 shadow-sm backdrop-blur">
      <div className="flex items-center gap-2">
        <Button onClick={onSave} disabled={saving} aria-keyshortcuts="Control+S Meta+S">
          {saving ? "Saving…" : "Save"}
        </Button>
        <span
          data-testid="dirty-state"
          className={`text-xs ${dirty ? "font-medium text-amber-700" : "text-slate-500"}`}
        >
          {dirty ? "● Unsaved changes" : "All changes saved"}
        </span>
      </div>
      <div className="flex items-center gap-2">
        <Button
          variant="secondary"
          disabled={testing !== null}
          onClick={() => onSendTest("me")}
          title={`A live message to ${userEmail}, from the draft as previewed`}
        >
          {testing === "me" ? "Sending…" : "Send to me"}
        </Button>
        <Button
          variant="secondary"
          disabled={testing !== null}
          onClick={() => onSendTest("sandbox")}
          title="A sandbox message, never delivered, opened in a new tab"
        >
          {testing === "sandbox" ? "Creating…" : "Sandbox test"}
        </Button>
      </div>
      <div className="min-w-0 flex-1 space-y-0.5 text-sm" aria-live="polite">
        <FeedbackLine feedback={saveFeedback} testId="save-feedback" />
        <FeedbackLine feedback={testFeedback} testId="test-feedback" />
      </div>
    </div>
  );
}

function FeedbackLine({ feedback, testId }: { feedback: ToolbarFeedback | null; testId: string }) {
  if (!feedback) return null;
  return (
    <p data-testid={testId} className={feedback.tone === "error" ? "text-red-700" : "text-emerald-700"}>
      {feedback.text}
      {feedback.link ? (
        <>
          {" "}
          <Link href={feedback.link.href} target="_blank" className="font-medium text-indigo-600 underline">
            {feedback.link.label}
          </Link>
        </>
      ) : null}
    </p>
  );
}
