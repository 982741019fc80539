import type { ActionState } from "@/app/_lib/action-state.shared";
import type { BlocksDocument } from "@/lib/domain/templates/blocks.shared";
import type { TemplateContent } from "@/lib/domain/templates/schemas";
// Types only (erased at build): the preview route's answer, so the client reads what the server sends.
import type { PreviewProblem, PreviewResult } from "@/lib/domain/templates/preview-draft";

export type { PreviewProblem, PreviewResult };

/** The stored template as the editor opens it. */
export interface EditorTemplateProps extends Omit<TemplateContent, "blocks"> {
  id: string;
  version: number;
  blocks: BlocksDocument | null;
}

/** What the user is editing; strings stay strings ("" = none) until the save. */
export interface Draft {
  name: string;
  subject: string;
  bodyHtml: string;
  bodyText: string;
  fromAddress: string;
  replyTo: string;
  strict: boolean;
  blocks: BlocksDocument | null;
}

export interface ScenarioView {
  id: string;
  name: string;
  variables: Record<string, unknown>;
}

/** Every server action of the editor answers this (app/_lib/action.ts): the outcome, or the use case's error in words. */
export type ActionResult<T extends object = object> = ActionState<T>;

/** The body of POST /templates/preview and of a test send: the draft as rendered, plus sample data. */
export interface PreviewRequest {
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
  fromAddress: string | null;
  replyTo: string | null;
  strict: boolean;
  variables: Record<string, unknown>;
}

export interface EditorActions {
  save(input: {
    templateId: string;
    baseVersion: number;
    content: Record<string, unknown>;
  }): Promise<ActionResult<{ version: number; savedAt: string }>>;
  saveScenario(input: {
    templateId: string;
    name: string;
    variables: Record<string, unknown>;
  }): Promise<ActionResult<{ scenario: ScenarioView }>>;
  deleteScenario(input: { templateId: string; scenarioId: string }): Promise<ActionResult>;
  sendTest(input: {
    templateId: string;
    mode: "me" | "sandbox";
    draft: PreviewRequest;
  }): Promise<ActionResult<{ messageId: string; to: string }>>;
}

export const FIELD_LABELS: Record<PreviewProblem["field"], string> = {
  subject: "Subject",
  bodyHtml: "HTML body",
  bodyText: "Text body",
  fromAddress: "Default sender",
  replyTo: "Reply-to",
};
