import { encodeWord, encodeWords, foldLines } from "@/internals/nodemailer";

/** RFC 2047 Q when Latin letters outnumber the rest, else B: MimeNode's rule. */
export function wordEncoding(value: string): "Q" | "B" {
  let nonLatin = 0;
  let latin = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x08 || code === 0x0b || code === 0x0c || (code >= 0x0e && code <= 0x1f) || code >= 0x80) nonLatin++;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
  }
  return nonLatin < latin ? "Q" : "B";
}

/** Encoded whole when needed: some clients drop the spaces around a partly encoded value. */
export function unstructuredValue(raw: string): string {
  const value = raw.replace(/\r?\n|\r/g, " ");
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(value)
    ? encodeWord(value, wordEncoding(value), 52)
    : encodeWords(value, wordEncoding(value), 52, true);
}

/** One header field, folded at whitespace to lines of at most 76 characters where the value allows. */
export function headerField(key: string, value: string): string {
  return foldLines(`${key}: ${value}`, 76);
}
