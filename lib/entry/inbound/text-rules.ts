import { unclassified, type ClassifiedEvent } from "./classified-event";
import type { InboundReport } from "./parse-report";

/**
 * Plain-text bounces (docs/delivery.md#bounces-from-any-smtp-relay), first match wins: mailbox full → transient;
 * 5.x.x/55x → permanent; 4.x.x/45x → delayed; "user unknown" → permanent; "try again later" → delayed; else unclassified.
 * A reply that does not look like a bounce (auto-reply, person) is kept unclassified, nothing suppressed.
 */
const BOUNCE_SENDER = /mailer-daemon|postmaster|mail delivery (subsystem|system)|microsoftexchange|mail-?daemon/i;
const BOUNCE_SUBJECT =
  /undeliver|undelivered|delivery (status notification|failure|has failed|notification)|mail delivery failed|returned mail|failure notice|could not be delivered|non[- ]?delivery|delivery problem|bounced?\b|unzustellbar|nicht zustellbar/i;
const MAILBOX_FULL =
  /mailbox (is )?full|over ?quota|quota exceeded|exceeded (the|its|their) (storage|quota)|insufficient (system )?storage|mailbox size limit/i;
const HARD_PHRASE =
  /user unknown|unknown user|no such (user|recipient|mailbox|address)|mailbox (is )?(unavailable|not found|does not exist)|does ?n[o']t exist|recipient (address )?rejected|invalid (recipient|mailbox|address)|address rejected|unrouteable address|account (has been )?disabled|no mailbox here|recipient not found|not a valid recipient/i;
const SOFT_PHRASE =
  /temporar(il)?y|try again later|will (be )?retr(y|ied)|delayed|deferred|has not yet been delivered|still trying/i;
const STATUS = /(?:^|[^\d.])([45])\.(\d{1,3})\.(\d{1,3})(?![\d.]*\d)/;
const SMTP_REPLY = /(?:^|[\s(:])(5[05]\d|4[25]\d)[\s-]/m;
/** Where a plain bounce starts quoting the original message: addresses after it are not the failed ones. */
const QUOTE_START =
  /^.*(original message|this is a copy of the message|message headers follow|below this line is a copy|--- ?The header of the original message|^Received: ).*$/im;
const ADDRESS = /[A-Za-z0-9._%+'-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

export function classifyText(report: InboundReport): ClassifiedEvent {
  const bounceLike = BOUNCE_SENDER.test(report.from) || BOUNCE_SUBJECT.test(report.subject);
  if (!bounceLike) {
    return unclassified(
      report,
      report.autoReply ||
        /^(automatic reply|auto(matic)?[- ]?reply|auto:|out of (the )?office|vacation)/i.test(report.subject)
        ? "An automatic reply"
        : "A reply that is no bounce",
    );
  }
  const text = `${report.subject}\n${report.text}`;
  const quoteAt = text.search(QUOTE_START);
  const human = quoteAt >= 0 ? text.slice(0, quoteAt) : text;
  const status = STATUS.exec(human);
  const reply = SMTP_REPLY.exec(human)?.[1];
  // The first 4 KB: a bounce names its addresses up front, and the pattern is quadratic on a long run without "@".
  const recipients = [...new Set(human.slice(0, 4096).match(ADDRESS) ?? [])];
  const line = diagnosticLine(human, status?.[0].trim() ?? reply);
  const details = {
    rule: "",
    status: status ? status.slice(1).join(".") : null,
    smtpReply: reply ?? null,
    diagnostic: line,
    reportSubject: report.subject,
    reportFrom: report.from,
  };
  const base = { type: "text", key: "text", recipients: recipients.length ? recipients : undefined };
  const who = recipients.length ? recipients.join(", ") : "the recipient";
  const hard = (rule: string): ClassifiedEvent => ({
    ...base,
    code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
    suppress: "HARD_BOUNCE",
    message: `Bounced (Permanent) for ${who}: ${line} (plain-text bounce, rule: ${rule}).`,
    details: { ...details, rule, bounceType: "Permanent" },
  });
  const soft = (rule: string): ClassifiedEvent => ({
    ...base,
    code: "EMAIL_MESSAGE_BOUNCE_PROVIDER_EVENT",
    message: `Bounced (Transient) for ${who}: ${line} (plain-text bounce, rule: ${rule}). Not suppressed: the failure is temporary.`,
    details: { ...details, rule, bounceType: "Transient" },
  });
  const delayed = (rule: string): ClassifiedEvent => ({
    ...base,
    code: "EMAIL_MESSAGE_DELIVERY_DELAYED_PROVIDER_EVENT",
    message: `Delivery to ${who} is delayed: ${line} (plain-text notice, rule: ${rule}).`,
    details: { ...details, rule },
  });

  if (MAILBOX_FULL.test(human)) return soft("mailbox full");
  if (status?.[1] === "5" || (!status && reply?.startsWith("5"))) return hard(status ? "5.x.x status" : "5xx reply");
  if (status?.[1] === "4" || (!status && reply?.startsWith("4"))) return delayed(status ? "4.x.x status" : "4xx reply");
  if (HARD_PHRASE.test(human)) return hard("permanent phrase");
  if (SOFT_PHRASE.test(human)) return delayed("temporary phrase");
  return unclassified(report, "A bounce no rule could classify");
}

/** The line carrying the status (or the first non-empty line of the text), trimmed for a sentence. */
function diagnosticLine(text: string, marker: string | undefined): string {
  const lines = text
    .split(/\r?\n/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  const found =
    (marker && lines.find((entry) => entry.includes(marker))) ||
    lines.find((entry) => HARD_PHRASE.test(entry) || MAILBOX_FULL.test(entry) || SOFT_PHRASE.test(entry)) ||
    lines[1] ||
    lines[0] ||
    "";
  return found.replace(/\s+/g, " ").slice(0, 300);
}
