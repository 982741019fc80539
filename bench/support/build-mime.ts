/**
 * tsx bench/support/build-mime.ts [--count 20000]
 *
 * CPU microseconds per buildMime call for a typical message (HTML ~2 KB, a text part, one recipient,
 * group-mail unsubscribe header), the current builder against the MailComposer one it replaced
 * (build-mime-reference.ts). Calls are sequential and awaited, as the worker makes them.
 */
import { parseArgs } from "node:util";
import { buildMime, type MailFields } from "@/lib/delivery/mime/build-mime";
import { buildMimeWithMailComposer } from "@/lib/testing/build-mime-reference";

const { values: args } = parseArgs({ options: { count: { type: "string", default: "20000" } } });
const COUNT = Number(args.count);

const paragraph =
  '<tr><td style="padding:12px 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:22px;color:#333333">' +
  'Thanks for your order. We will let you know when it ships; track it any time from <a href="https://shop.example.com/orders/1234?utm_source=email" style="color:#0066cc">your account</a>.</td></tr>\n';
const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Your order</title></head><body style="margin:0;padding:0">\n<table role="presentation" width="100%">\n${paragraph.repeat(6)}</table></body></html>`;
const text =
  "Thanks for your order.\n\nWe will let you know when it ships; track it any time from your account:\nhttps://shop.example.com/orders/1234\n\n".repeat(
    3,
  );

function fieldsFor(i: number): MailFields {
  return {
    from: "Acme Shop <orders@shop.example.com>",
    to: [`Reader ${i} <reader${i}@example.org>`],
    cc: [],
    bcc: [],
    replyTo: null,
    subject: `Your order #${1000 + i} is confirmed`,
    html,
    text,
    references: null,
    attachments: [],
    listUnsubscribe: `https://mail.example.com/u/em_${i.toString(36).padStart(20, "0")}?t=abcdefghijklmnopqrstuvwxyz0123456789`,
  };
}

async function measure(name: string, build: typeof buildMime): Promise<void> {
  for (let i = 0; i < 2000; i++) await build(`em_warm${i}`, fieldsFor(i)); // JIT warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < COUNT; i++) await build(`em_${i}`, fieldsFor(i));
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - started;
  const micros = (used.user + used.system) / COUNT;
  console.log(
    `${name.padEnd(14)} ${micros.toFixed(1).padStart(7)} µs CPU/msg  (${((wall * 1000) / COUNT).toFixed(1)} µs wall)`,
  );
}

console.log(`html ${html.length} chars, text ${text.length} chars, ${COUNT} messages`);
await measure("MailComposer", buildMimeWithMailComposer);
await measure("buildMime", buildMime);
