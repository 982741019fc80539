import {
  isAttribution,
  isHeaderBlock,
  isMobileSignature,
  isQuoted,
  isRule,
  isSeparator,
  isSignatureDelimiter,
} from "./reply-rules";

export interface StrippedReply {
  reply: string;
  signature: string | null;
}

/**
 * The new text of a reply: quoted lines, the attribution above them ("On … wrote:" in the common languages),
 * Outlook's original-message block, forwarded messages and the signature removed (docs/inbound.md#parsing).
 * Line-based and linear: every rule looks at one or two lines.
 */
export function stripReply(text: string): StrippedReply {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const kept = dropQuotes(lines, cutIndex(lines, interleavedAfter(lines)));
  return splitSignature(trimBlankLines(kept));
}

/** interleaved[i]: a quoted line at or after i is followed by an unquoted answer (bottom-posting). */
function interleavedAfter(lines: string[]): boolean[] {
  const out = new Array<boolean>(lines.length + 1).fill(false);
  let answerBelow = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (isQuoted(line)) out[i] = answerBelow || out[i + 1];
    else {
      out[i] = out[i + 1];
      if (line.trim() !== "" && !isSignatureDelimiter(line) && !isMobileSignature(line)) answerBelow = true;
    }
  }
  return out;
}

interface Cut {
  /** Lines from here on are the quoted original. */
  at: number;
  /** Attribution lines of interleaved answers: dropped, but what follows them is kept. */
  skip: Set<number>;
}

function cutIndex(lines: string[], interleaved: boolean[]): Cut {
  const skip = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isQuoted(line) || line.trim() === "") continue;
    if (isSeparator(line) || isHeaderBlock(lines, i)) return { at: i, skip };
    const span = attributionSpan(lines, i);
    if (span === 0) continue;
    if (!interleaved[i + span]) return { at: i, skip };
    for (let k = 0; k < span; k++) skip.add(i + k);
    i += span - 1;
  }
  return { at: lines.length, skip };
}

/** 1 or 2 when an attribution starts at lines[i] (clients wrap long ones over two lines), else 0. */
function attributionSpan(lines: string[], i: number): number {
  if (isAttribution(lines[i])) return 1;
  const next = lines[i + 1];
  if (next === undefined || next.trim() === "" || isQuoted(next)) return 0;
  return isAttribution(`${lines[i].trim()} ${next.trim()}`) ? 2 : 0;
}

function dropQuotes(lines: string[], cut: Cut): string[] {
  const kept: string[] = [];
  let dropped = false;
  for (let i = 0; i < cut.at; i++) {
    const line = lines[i];
    if (cut.skip.has(i) || isQuoted(line)) {
      dropped = true;
      continue;
    }
    const blank = line.trim() === "";
    // A removed quote leaves one blank line between the answers around it, not two.
    if (blank && dropped && kept.length > 0 && kept[kept.length - 1].trim() === "") continue;
    if (!blank) dropped = false;
    kept.push(line);
  }
  // The rule Outlook and webmails draw above the quoted block belongs to it.
  while (kept.length > 0 && (kept[kept.length - 1].trim() === "" || isRule(kept[kept.length - 1]))) kept.pop();
  return kept;
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === "") start++;
  while (end > start && lines[end - 1].trim() === "") end--;
  return lines.slice(start, end).map((line) => line.trimEnd());
}

function splitSignature(lines: string[]): StrippedReply {
  let at = lines.findIndex((line) => isSignatureDelimiter(line));
  let skipDelimiter = at >= 0;
  if (at < 0) {
    at = lines.findIndex((line) => isMobileSignature(line));
    skipDelimiter = false;
  }
  if (at < 0) return { reply: lines.join("\n"), signature: null };
  const signature = trimBlankLines(lines.slice(skipDelimiter ? at + 1 : at)).join("\n");
  return { reply: trimBlankLines(lines.slice(0, at)).join("\n"), signature: signature === "" ? null : signature };
}
