// A locale's message table as translators' tools exchange it (docs/templates.md#localisation): one JSON object per
// locale, flat keys to ICU message texts. Pure: the API's import and variant writes and the studio check the same way.
import { invalidParameter } from "@/lib/foundation/errors";
import { isPlainObject } from "@/lib/foundation/validation.shared";
import { messageProblem } from "./icu-message.shared";
import { MESSAGE_TEXT_MAX, MESSAGES_MAX } from "./locale-variants.shared";

/** Letters, digits, `_`, `.` and `-`: what `{% t "cart.title" %}` names and every translation tool keeps as is. */
export const MESSAGE_KEY_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The table as given, or INVALID_PARAMETER naming `messages` (not an object, too many keys) or `messages["key"]`
 * (a key of other characters, a nested or non-text value, a text that is not an ICU message).
 */
export function checkedMessageTable(value: unknown, param = "messages"): Record<string, string> {
  if (!isPlainObject(value)) {
    throw invalidParameter(
      param,
      `${param} must be a JSON object of flat keys to texts, as {"cart.title": "Your cart"}.`,
    );
  }
  const entries = Object.entries(value);
  if (entries.length > MESSAGES_MAX) throw invalidParameter(param, `${param} has at most ${MESSAGES_MAX} keys.`);
  const table: Record<string, string> = {};
  for (const [key, text] of entries) {
    const at = `${param}[${JSON.stringify(key.slice(0, 140))}]`;
    if (!MESSAGE_KEY_PATTERN.test(key)) {
      throw invalidParameter(at, `Invalid ${at}: a key is 1 to 128 letters, digits, "_", "." or "-".`);
    }
    if (typeof text !== "string") {
      throw invalidParameter(
        at,
        `Invalid ${at}: must be a text (the table is flat: "cart.title", not nested objects).`,
      );
    }
    if (text.length > MESSAGE_TEXT_MAX) {
      throw invalidParameter(at, `Invalid ${at}: a message is at most ${MESSAGE_TEXT_MAX} characters.`);
    }
    const problem = messageProblem(text);
    if (problem) throw invalidParameter(at, `Invalid ${at}: not an ICU message: ${problem}.`);
    Object.defineProperty(table, key, { value: text, enumerable: true, writable: true, configurable: true });
  }
  return table;
}

/** The export: keys sorted (stable diffs in translators' repositories), named `<template>-<locale>.json`. */
export function messageTableFile(
  template: { id: string; name: string },
  variant: { locale: string; messages: Record<string, string> },
) {
  const sorted = Object.keys(variant.messages).sort();
  const table: Record<string, string> = {};
  for (const key of sorted) {
    Object.defineProperty(table, key, {
      value: variant.messages[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const slug = template.name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "") // the accents NFKD split off: "Über" → "Uber"
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase()
    .slice(0, 60);
  return { name: `${slug || template.id}-${variant.locale}.json`, text: `${JSON.stringify(table, null, 2)}\n` };
}
