/**
 * The mail of `npm run bench:inbound`: what a customer's mail client sends back to a transactional mail, about 20 KB.
 * A text part and its HTML alternative, a few new paragraphs over the quoted original ("On … wrote:" and "> " lines,
 * a <blockquote> in the HTML), In-Reply-To and References naming one of our sent messages (3 mails in 4; the 4th
 * starts a conversation, its References naming only the customer's own earlier mail), DKIM-signed by the customer's
 * domain, whose SPF and DMARC records the bench's DNS server holds: every check passes, as for most real replies.
 */
import { generateKeyPairSync } from "node:crypto";
import nodemailer from "nodemailer";

export const CUSTOMER_DOMAIN = "customer.bench.test";
export const INBOUND_DOMAIN = "inbound.bench.test";
export const INBOUND_ADDRESS = `support@${INBOUND_DOMAIN}`;
export const DKIM_SELECTOR = "bench";
/** Customers the mails come from (the thread fallback and participants see a realistic spread). */
const CUSTOMERS = 500;

/** The id of the i-th sent message the bench seeds (mail i replies to it); as `em_…`, our Message-ID's left part. */
export const sentMessageId = (i: number) => `em_B${String(i + 1).padStart(15, "0")}`;

export interface SenderKey {
  privateKey: string;
  /** The TXT record of `<selector>._domainkey.<domain>`. */
  dkimRecord: string;
}

export function newSenderKey(): SenderKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const der = publicKey.export({ type: "spki", format: "der" }).toString("base64");
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    dkimRecord: `v=DKIM1; k=rsa; p=${der}`,
  };
}

/** The TXT records the bench's DNS server answers: SPF for loopback, the DKIM key, DMARC p=reject. */
export function senderDnsRecords(key: SenderKey): Array<[name: string, records: string[]]> {
  return [
    [CUSTOMER_DOMAIN, ["v=spf1 ip4:127.0.0.1 -all"]],
    [`${DKIM_SELECTOR}._domainkey.${CUSTOMER_DOMAIN}`, [key.dkimRecord]],
    [`_dmarc.${CUSTOMER_DOMAIN}`, ["v=DMARC1; p=reject"]],
  ];
}

export interface BenchMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
}

/** Builds and signs mails `from`..`from + count - 1` (once, before the clock starts: the senders only stream them). */
export async function buildBenchMails(key: SenderKey, from: number, count: number): Promise<BenchMail[]> {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    dkim: { domainName: CUSTOMER_DOMAIN, keySelector: DKIM_SELECTOR, privateKey: key.privateKey },
  });
  const mails: BenchMail[] = [];
  for (let i = from; i < from + count; i++) {
    const customer = `customer${i % CUSTOMERS}@${CUSTOMER_DOMAIN}`;
    const own = `<CA${i.toString(36)}x${(i * 7919).toString(36)}@mail.${CUSTOMER_DOMAIN}>`;
    const reply = i % 4 !== 3;
    const ours = `<${sentMessageId(i)}@example.com>`;
    const words = new Words(i);
    const subject = reply ? `Re: Your order ${10_000 + i} has shipped` : `Question about invoice ${20_000 + i}`;
    const fresh = Array.from({ length: 7 }, () => words.paragraph(66));
    const quoted = Array.from({ length: 17 }, () => words.paragraph(48));
    const date = new Date(Date.UTC(2026, 10, 20, 9, 0, 0) + i * 1000);
    const info = (await composer.sendMail({
      envelope: { from: customer, to: [INBOUND_ADDRESS] },
      from: `Customer ${i % CUSTOMERS} <${customer}>`,
      to: INBOUND_ADDRESS,
      subject,
      messageId: `<bench-${i}.${Date.now().toString(36)}@mail.${CUSTOMER_DOMAIN}>`,
      date,
      inReplyTo: reply ? ours : own,
      references: reply ? [own, ours] : [own],
      text: textBody(fresh, quoted, date),
      html: htmlBody(fresh, quoted, date),
    })) as { message: Buffer };
    mails.push({ envelope: { from: customer, to: [INBOUND_ADDRESS] }, raw: info.message });
  }
  return mails;
}

function textBody(fresh: string[], quoted: string[], date: Date): string {
  const quote = quoted
    .map((paragraph) =>
      wrap(paragraph, 72)
        .map((line) => `> ${line}`)
        .join("\n"),
    )
    .join("\n>\n");
  return `${fresh.map((paragraph) => wrap(paragraph, 76).join("\n")).join("\n\n")}\n\nBest regards,\nA customer\n\nOn ${date.toUTCString()}, Shop <hello@example.com> wrote:\n${quote}\n`;
}

function htmlBody(fresh: string[], quoted: string[], date: Date): string {
  const p = (text: string) => `<p style="margin:0 0 12px 0;font-family:Arial,sans-serif;font-size:14px">${text}</p>`;
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><div dir="ltr">${fresh.map(p).join("\n")}` +
    `<p>Best regards,<br>A customer</p></div><div class="gmail_quote"><div dir="ltr" class="gmail_attr">On ${date.toUTCString()}, Shop &lt;hello@example.com&gt; wrote:<br></div>` +
    `<blockquote class="gmail_quote" style="margin:0 0 0 .8ex;border-left:1px #ccc solid;padding-left:1ex">${quoted.map(p).join("\n")}</blockquote></div></body></html>`
  );
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

const VOCABULARY = (
  "order parcel delivery invoice account refund address tracking number package week morning yesterday today " +
  "thanks please could would should arrived missing damaged colour size replacement return label courier store " +
  "support team question answer still again already before after because however also maybe soon quickly the a " +
  "we you it was is not have has had received ordered sent paid charged twice card payment confirm update check"
).split(" ");

/** Deterministic words per mail (a tiny LCG): every mail's text differs, every run's mails are the same. */
class Words {
  constructor(private seed: number) {}
  private next(): number {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.seed;
  }
  paragraph(words: number): string {
    const out = Array.from({ length: words }, () => VOCABULARY[this.next() % VOCABULARY.length]);
    out[0] = out[0][0].toUpperCase() + out[0].slice(1);
    return `${out.join(" ")}.`;
  }
}
