// Header lines as people read them: unfolded, RFC 2047 encoded words decoded. mailparser keeps the raw lines in
// order (headerLines) but decodes only the headers it knows, and its decoder is not a dependency of ours.

const ENCODED_WORD = /=\?([^?\s]{1,64})\?([bBqQ])\?([^?\s]*)\?=/g;
/** Whitespace between two encoded words is not part of the text (RFC 2047 §6.2). */
const BETWEEN_WORDS = /(\?=)[ \t]+(?==\?)/g;

function decodeBytes(bytes: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset.replace(/\*.*$/, "").trim()).decode(bytes);
  } catch {
    return bytes.toString("latin1"); // an unknown charset: the bytes as they are
  }
}

function decodeWord(charset: string, encoding: string, text: string): string {
  if (encoding.toUpperCase() === "B") return decodeBytes(Buffer.from(text, "base64"), charset);
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const hex = ch === "=" ? text.slice(i + 1, i + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch === "_") bytes.push(0x20);
    else bytes.push(...Buffer.from(ch, "utf8"));
  }
  return decodeBytes(Buffer.from(bytes), charset);
}

export function decodeHeaderValue(value: string): string {
  return value
    .replace(BETWEEN_WORDS, "$1")
    .replace(ENCODED_WORD, (_, charset: string, encoding: string, text: string) => decodeWord(charset, encoding, text));
}

/** "Name: value\r\n\tfolded" → ["Name", "value folded"]; null for a line with no name. */
export function splitHeaderLine(line: string): [string, string] | null {
  const colon = line.indexOf(":");
  if (colon <= 0) return null;
  const name = line.slice(0, colon).trim();
  const value = line
    .slice(colon + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
  return [name, decodeHeaderValue(value)];
}
