import "server-only";
import type { Executor } from "@/db/client";
import { AppError, invalidParameter, type ErrorCode, type ErrorDetail } from "@/lib/foundation/errors";
import { parseSendRequest } from "@/lib/sending/parse-send-request";
import { prepareMessage, type PrepareContext, type PreparedMessage } from "@/lib/sending/prepare-message";
import { listMemberEmails } from "@/lib/sending/test-mode-recipients";
import { z } from "zod";
import { assertKnownKeys, isPlainObject } from "@/lib/foundation/validation.shared";
import { sendEmailSchema } from "@/lib/domain/messages/schemas";
import { parseScheduledAt } from "@/lib/domain/messages/scheduled-at";
import { canonicalLocaleOrThrow } from "@/lib/domain/templates/locale-variants.shared";
import { createRequestMemo, type RequestMemo } from "./request-memo";

export const BATCH_MAX_MESSAGES = 1000;
const YIELD_AFTER_MS = 10;

/** One element of a batch after every check: its position, its body as sent and the message to write. */
export interface PreparedElement {
  index: number;
  body: Record<string, unknown>;
  metaId: string | null;
  prepared: PreparedMessage;
}

/**
 * All-or-nothing (docs/api.md#decided-batches): each element goes through the single-send code, and one AppError
 * names every bad index in `details`. Writes nothing.
 */
export async function prepareBatch(
  db: Executor,
  body: unknown,
  context: Pick<PrepareContext, "workspace" | "sandbox" | "allowedSenders">,
): Promise<PreparedElement[]> {
  const { elements, scheduledAt, locale } = parseBatchBody(body);
  const { workspace, sandbox } = context;
  // One members query per batch; the memo reads each template row, sender domain and group once.
  const shared: Omit<PrepareContext, "prefix"> & { memo: RequestMemo } = {
    workspace,
    sandbox,
    allowedSenders: context.allowedSenders,
    source: sandbox ? "SANDBOX_BATCH" : "BATCH",
    submittedVia: "api",
    memberEmails: workspace.testMode && !sandbox ? await listMemberEmails(db, workspace.id) : undefined,
    memo: createRequestMemo(),
  };
  const prepared: PreparedElement[] = [];
  const failures: ErrorDetail[] = [];
  // Sequential on purpose: ids are minted in request order, and PGlite runs one query at a time anyway.
  let ranSince = performance.now();
  for (const [index, element] of elements.entries()) {
    // No I/O between elements (memo hits resolve at once): yield by time, so other requests wait one element at most.
    if (performance.now() - ranSince > YIELD_AFTER_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      ranSince = performance.now();
    }
    const prefix = `emailMessages[${index}]`;
    try {
      if (!isPlainObject(element))
        throw invalidParameter(prefix, `${prefix} must be an object with the fields of a send request.`);
      const command = parseSendRequest(element, prefix);
      // The batch's scheduledAt is every element's that does not name its own.
      if (command.scheduledAt === null && scheduledAt) command.scheduledAt = scheduledAt;
      // Likewise its locale (docs/templates.md#where-the-locale-comes-from).
      if (command.locale === null && locale) command.locale = locale;
      const message = await prepareMessage(db, command, { ...shared, prefix });
      prepared.push({ index, body: element, metaId: command.metaId, prepared: message });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failures.push({ index, param: error.param ?? prefix, code: error.code, message: error.message });
    }
  }
  if (failures.length > 0) throw batchRejected(failures, elements.length);
  return prepared;
}

/** The batch's own fields; each element's are sendEmailSchema's. */
const batchKeys = z.object({ emailMessages: z.unknown(), scheduledAt: z.unknown(), locale: z.unknown() });

/** A send field at the top of a batch is ignored nowhere: it is refused with where it belongs. */
const ELEMENT_FIELDS = Object.fromEntries(
  Object.keys(sendEmailSchema.shape).map((key) => [
    key,
    `${key} belongs on each element of emailMessages, not on the batch: { "emailMessages": [{ "${key}": ... }] }.`,
  ]),
);

function parseBatchBody(body: unknown): { elements: unknown[]; scheduledAt: Date | null; locale: string | null } {
  if (!isPlainObject(body))
    throw new AppError("INVALID_JSON", 'The request body must be a JSON object: { "emailMessages": [ ... ] }.');
  // Elements are checked one by one in parseSendRequest, so each typo is reported with its index.
  assertKnownKeys(body, batchKeys, { misplaced: ELEMENT_FIELDS });
  const elements = body.emailMessages;
  if (!Array.isArray(elements)) {
    throw invalidParameter(
      "emailMessages",
      "emailMessages is required: an array of send requests (each with templateId, or bodyHtml, subject and from).",
    );
  }
  if (elements.length === 0 || elements.length > BATCH_MAX_MESSAGES) {
    throw invalidParameter(
      "emailMessages",
      `emailMessages must hold 1 to ${BATCH_MAX_MESSAGES} messages; it holds ${elements.length}.`,
    );
  }
  const whole = body.scheduledAt;
  return {
    elements,
    scheduledAt: whole === undefined || whole === null ? null : parseScheduledAt(whole, "scheduledAt"),
    locale:
      body.locale === undefined || body.locale === null
        ? null
        : canonicalLocaleOrThrow(typeof body.locale === "string" ? body.locale : JSON.stringify(body.locale), "locale"),
  };
}

/** The failures' code when they all share one, else EMAIL_MESSAGE_INVALID_PARAMETER_ERROR; `details` lists all. */
export function batchRejected(failures: ErrorDetail[], total: number): AppError {
  const [first] = failures;
  const shared = failures.every((failure) => failure.code === first.code);
  const code: ErrorCode = shared ? first.code : "EMAIL_MESSAGE_INVALID_PARAMETER_ERROR";
  const which =
    failures.length === 1
      ? `Message ${first.index}`
      : `${failures.length} of ${total} messages (indexes ${summarise(failures)})`;
  return new AppError(
    code,
    `${which} of the batch ${failures.length === 1 ? "is" : "are"} invalid, so nothing was sent; see details. First: ${first.message}`,
    { param: first.param, details: failures },
  );
}

function summarise(failures: ErrorDetail[]): string {
  const shown = failures
    .slice(0, 10)
    .map((failure) => failure.index)
    .join(", ");
  return failures.length > 10 ? `${shown}, …` : shown;
}
