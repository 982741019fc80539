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
  /** Its own content's locale (docs/templates.md#localisation). */
  defaultLocale: string;
  variants: LocaleDraft[];
}

/**
 * A locale variant as the studio edits it: a null content field is inherited along the chain (fr-CA → fr → the
 * default); the default locale's row holds only its message table and flag. A missing key is one absent from
 * `messages` (an emptied cell removes it).
 */
export interface LocaleDraft {
  locale: string;
  subject: string | null;
  bodyHtml: string | null;
  bodyText: string | null;
  blocks: BlocksDocument | null;
  messages: Record<string, string>;
  sampleData: Record<string, unknown> | null;
  fallsBackForMissingKeys: boolean;
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
  variants: LocaleDraft[];
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
  /** The studio's locales: rendered as `locale` along the draft's variants, with every locale's translation status. */
  locale?: string;
  defaultLocale?: string;
  variants?: Array<Omit<LocaleDraft, "blocks" | "sampleData">>;
}

export interface EditorActions {
  save(input: {
    templateId: string;
    baseVersion: number;
    content: Record<string, unknown>;
    variants: LocaleDraft[];
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
