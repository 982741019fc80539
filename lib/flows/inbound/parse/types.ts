// The shapes every inbound module codes against (docs/inbound.md): the parse, the checks and the pipeline.

export interface InboundAddress {
  address: string;
  name: string | null;
}

export interface ParsedAttachment {
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
  content: Buffer;
  inline: boolean;
}

export interface ParsedInbound {
  from: InboundAddress | null;
  to: InboundAddress[];
  cc: InboundAddress[];
  replyTo: InboundAddress[];
  subject: string;
  date: Date | null;
  /** With its angle brackets: "<id@host>". */
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  text: string | null;
  html: string | null;
  strippedText: string;
  strippedSignature: string | null;
  /** [name, decoded value] in the mail's order, at most 200. */
  headers: Array<[string, string]>;
  attachments: ParsedAttachment[];
  sizeBytes: number;
  /** How many LOOP_HEADER headers the mail carries (loop protection for forwards). */
  hopCount: number;
}

export const LOOP_HEADER = "X-Postwerk-Loop";

export type AuthResult = "pass" | "fail" | "softfail" | "neutral" | "none" | "temperror" | "permerror" | "policy";

export interface AuthVerdict {
  spf: AuthResult;
  dkim: AuthResult;
  dmarc: AuthResult;
  arc: AuthResult;
  dmarcPolicy: "none" | "quarantine" | "reject" | null;
  details: Record<string, unknown>;
}

export interface SpamVerdict {
  status: "not_checked" | "ham" | "spam" | "error";
  score: number | null;
  threshold: number | null;
  rules: string[];
}
