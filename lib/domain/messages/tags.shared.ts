import { z } from "zod";
import { invalidParameter } from "@/lib/foundation/errors";

// Tags (docs/api.md#tags): `name:value` labels a caller filters its messages by. Pure, so forms and every door share it.
export const MAX_TAGS = 20;
export const TAG_NAME = /^[A-Za-z0-9_-]{1,50}$/;
export const TAG_VALUE_MAX = 100;
/** Control characters and lone surrogates: neither prints, and a header or a URL would mangle them. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}]/u;

/** The shape a body's `tags` has before the grammar is checked: an array of strings. */
export const tagsInputSchema = z
  .array(z.string().max(1000))
  .max(MAX_TAGS, `may hold at most ${MAX_TAGS} tags`)
  .describe(
    `Up to ${MAX_TAGS} "name:value" tags, e.g. ["plan:pro", "campaign:spring-2026"]: name 1–50 of A–Z a–z 0–9 _ -, value 1–${TAG_VALUE_MAX} printable characters.`,
  );

/** Why a tag does not follow the grammar, or null when it does. */
export function tagProblem(tag: string): string | null {
  const colon = tag.indexOf(":");
  if (colon < 0) return 'must be "name:value", e.g. "plan:pro"';
  const name = tag.slice(0, colon);
  const value = tag.slice(colon + 1);
  if (!TAG_NAME.test(name)) return "must start with a name of 1 to 50 letters, digits, _ or - before the colon";
  const length = [...value].length;
  if (length === 0 || length > TAG_VALUE_MAX)
    return `must have a value of 1 to ${TAG_VALUE_MAX} characters after the colon`;
  if (UNPRINTABLE.test(value)) return "must not contain control characters or line breaks";
  if (value.trim() !== value) return "must not begin or end its value with white space";
  return null;
}

/**
 * A message's tags as stored: each checked (`tags[3]` names the first bad one), exact duplicates kept once, in the
 * order given. Case is kept and matters: `Plan:pro` and `plan:pro` are two tags.
 */
export function normaliseTags(tags: readonly string[] | undefined, param = "tags"): string[] {
  if (!tags) return [];
  if (tags.length > MAX_TAGS) throw invalidParameter(param, `${param} may hold at most ${MAX_TAGS} tags.`);
  tags.forEach((tag, index) => {
    const problem = tagProblem(tag);
    if (problem)
      throw invalidParameter(`${param}[${index}]`, `${param}[${index}] ${problem}; got ${JSON.stringify(tag)}.`);
  });
  return [...new Set(tags)];
}
