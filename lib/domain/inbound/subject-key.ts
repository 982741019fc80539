/**
 * A subject without reply and forward prefixes (Re:, Fwd:, AW:, SV:, Antw:, Réf:, TR:…, also `Re[2]:`), bracketed
 * tags such as [EXT], and extra whitespace, lower-cased: the threading fallback's key (docs/inbound.md#threads).
 */
const PREFIX = /^\s*(?:(?:re|fwd?|fw|aw|wg|sv|vs|antw|r[ée]f|tr)\s*(?:\[\d+\]|\(\d+\))?\s*[:：]|\[[^\]]*\])\s*/iu;

export function subjectKey(subject: string | null | undefined): string {
  let rest = (subject ?? "").trim();
  for (let previous = ""; previous !== rest;) {
    previous = rest;
    rest = rest.replace(PREFIX, "");
  }
  return rest.replace(/\s+/g, " ").trim().toLowerCase();
}

/** `Re: <subject>` unless the subject already starts with a reply prefix (never `Re: Re:`). */
export function replySubject(subject: string | null | undefined): string {
  const given = (subject ?? "").trim();
  if (/^re\s*(?:\[\d+\])?\s*:/i.test(given)) return given;
  return given ? `Re: ${given}` : "Re:";
}
