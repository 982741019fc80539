// The line rules stripReply applies (docs/inbound.md#parsing). Every pattern is anchored, has no nested
// quantifiers and is only tried on lines of at most MAX_MARKER_LINE characters, so its cost stays linear.

/** Longer lines are body text: no client writes an attribution or a header line that long. */
export const MAX_MARKER_LINE = 1000;

/** "On … wrote:" and its translations, as Gmail, Apple Mail, Thunderbird, Yahoo, Fastmail and Proton write it. */
const ATTRIBUTIONS: RegExp[] = [
  /^On\s.*\swrote\s*:$/i, // English
  /^Am\s.*\sschrieb.*:$/i, // German ("Am 28.11.2026 um 10:00 schrieb Jane <j@x>:")
  /^Le\s.*\sa\s+écrit\s*:$/i, // French ("Le … a écrit :")
  /^El\s.*\sescribió\s*:$/i, // Spanish
  /^Op\s.*\sschreef.*:$/i, // Dutch
  /^Il\s.*\sha\s+scritto\s*:$/i, // Italian
  /^(Em|No dia)\s.*\sescreveu\s*:$/i, // Portuguese
  /^Den\s.*\sskrev.*:$/i, // Swedish
  /^(W dniu|Dnia)\s.*\s(pisze|napisał\(a\)|napisał|napisała)\s*:$/i, // Polish
  /^.*\s(napisał\(a\)|napisał|napisała)\s*:$/i, // Polish, Gmail's date-first style
  /^\d{4}年\d{1,2}月\d{1,2}日.*[:：]$/, // Japanese (Gmail, Apple Mail: "2026年11月28日(土) 10:00 山田 <t@x>:")
  /^.*(さんは書きました|が書きました|のメッセージ)[:：]?$/, // Japanese (Thunderbird, Outlook)
  /^.*(写道|寫道)\s*[:：]$/, // Chinese, simplified and traditional
];

/** Lines that open a quoted original whatever follows them. */
const SEPARATORS: RegExp[] = [
  /^-{2,}\s*(Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Oorspronkelijk bericht|Messaggio originale|Mensagem original|Ursprungligt meddelande|Wiadomość oryginalna|原始邮件)\s*-{2,}$/i,
  /^-{2,}\s*(Forwarded message|Forwarded Message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado|Doorgestuurd bericht|Messaggio inoltrato)\s*-{0,}$/i,
  /^(Begin forwarded message|Anfang der weitergeleiteten Nachricht|Début du message réexpédié|Inicio del mensaje reenviado)\s*:$/i,
];

/** Outlook's header block: a From line, then Sent/Date and To/Subject lines (Outlook bolds them in HTML). */
const HEADER_FROM = /^\*?(From|Von|De|Van|Da|Från|Od|Fra|Lähettäjä|差出人|发件人|寄件者)\s*[:：]\*?\s/i;
const HEADER_NEXT =
  /^\*?(Sent|Date|To|Subject|Cc|Gesendet|Datum|An|Betreff|Envoyé|À|Objet|Enviado|Fecha|Para|Asunto|Verzonden|Aan|Onderwerp|Inviato|Data|A|Oggetto|Assunto|Skickat|Till|Ämne|Wysłano|Do|Temat|送信日時|宛先|件名|发送时间|收件人|主题|日期)\s*[:：]\*?(\s|$)/i;

/** The devices mobile clients name in their signature line ("Sent from my iPhone", "Envoyé de mon iPad"). */
const DEVICE =
  "(iPhone|iPad|Android|BlackBerry|Samsung|Galaxy|Huawei|Xiaomi|Pixel|OnePlus|Motorola|Nokia|Windows Phone|mobile|smartphone|phone|Handy|téléphone|teléfono|telefone|telefoon|telefono|mobil|telefonu)[^.!?:]{0,40}";
/** Clients' own signatures, each a whole line; a sentence that merely starts the same way is not one. */
const MOBILE_SIGNATURES = new RegExp(
  "^(" +
    [
      `Sent from my ${DEVICE}`,
      "Sent from (Mail|Outlook|Yahoo Mail) for (Windows|iOS|Android|Mac)[^.!?:]{0,20}",
      "Sent from Yahoo Mail on Android",
      "Sent from Outlook",
      "Get Outlook for (iOS|Android)",
      "Sent with Proton ?Mail( secure email)?\\.?",
      `Envoyé de mon ${DEVICE}`,
      `Von meinem ${DEVICE} gesendet`,
      `Gesendet von meinem ${DEVICE}`,
      `Enviado desde mi ${DEVICE}`,
      `Verzonden (vanaf|met) mijn ${DEVICE}`,
      `Inviato da( il mio)? ${DEVICE}`,
      `Enviado do meu ${DEVICE}`,
      `Skickat från min ${DEVICE}`,
      `Wysłane z (mojego )?${DEVICE}`,
      "iPhoneから送信",
      "从我的 ?iPhone ?发送",
      "发自我的 ?iPhone",
    ].join("|") +
    ")\\.?(\\s*<[^\\s>]{1,200}>)?$",
  "i",
);

const QUOTED = /^[ \t]*>/;
const SIGNATURE_DELIMITER = /^--[ \t]*$/;
/** A rule line Outlook and webmails put above the quoted header block. */
const RULE = /^[ \t]*([_\-=*]{8,}|-{2,})[ \t]*$/;

function shortTrimmed(line: string): string | null {
  if (line.length > MAX_MARKER_LINE) return null;
  return line.trim();
}

export function isQuoted(line: string): boolean {
  return QUOTED.test(line);
}

export function isSignatureDelimiter(line: string): boolean {
  return SIGNATURE_DELIMITER.test(line);
}

export function isRule(line: string): boolean {
  return line.length <= MAX_MARKER_LINE && RULE.test(line);
}

export function isMobileSignature(line: string): boolean {
  const t = shortTrimmed(line);
  return t !== null && MOBILE_SIGNATURES.test(t);
}

export function isAttribution(text: string): boolean {
  const t = shortTrimmed(text);
  return t !== null && t !== "" && ATTRIBUTIONS.some((re) => re.test(t));
}

export function isSeparator(line: string): boolean {
  const t = shortTrimmed(line);
  return t !== null && t !== "" && SEPARATORS.some((re) => re.test(t));
}

/** True when lines[i] opens an Outlook header block (From:, then Sent/Date/To/Subject within four lines). */
export function isHeaderBlock(lines: string[], i: number): boolean {
  const first = shortTrimmed(lines[i]);
  if (first === null || !HEADER_FROM.test(first)) return false;
  let next = 0;
  for (let j = i + 1; j < lines.length && j <= i + 5; j++) {
    const t = shortTrimmed(lines[j]);
    if (t === null) return false;
    if (t === "") continue;
    if (!HEADER_NEXT.test(t)) break;
    next += 1;
  }
  return next >= 2;
}
