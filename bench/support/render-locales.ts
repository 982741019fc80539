/**
 * `npm run bench:render -- --locales`: does a render's cost grow with the number of locale variants?
 * (docs/benchmarks.md). One template with 30 locales (the default and 29 variants, each with its message
 * table and subject) against the same template with its default locale only, in one process on a
 * scratch database of the PostgreSQL server. Each render is the send path's content step
 * (lib/sending/render-content.ts `renderContent`, as a single send calls it: the template row with its
 * variants' tags, the chain's rows, resolveTemplateVariant, the Liquid render), and apart from it the
 * renderer alone (resolveTemplateVariant + renderTemplate over rows already read). The 30-locale
 * template is asked for each of its locales in turn, the 1-locale one for its default, in alternating
 * rounds (the machine is shared); prints this process's CPU per render (process.cpuUsage) and the ratio.
 * A benchmark, not a test.
 */
import os from "node:os";
import { closeDb, getDb, installDbHandle, openPostgres } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { createTemplate } from "@/lib/domain/templates/create-template";
import { getSendTemplateIn, readChainVariants } from "@/lib/domain/templates/get-send-template";
import { chooseLocale } from "@/lib/domain/templates/locale-tag.shared";
import { renderTemplate } from "@/lib/domain/templates/render.shared";
import { resolveTemplateVariant } from "@/lib/domain/templates/template-variant.shared";
import { createWorkspace } from "@/lib/domain/workspaces/create-workspace";
import { parseSendDraft } from "@/lib/sending/parse-send-request";
import { renderContent, type Memo } from "@/lib/sending/render-content";
import { scratchPostgres } from "./server";

export const LOCALES = [
  "en", "fr", "fr-CA", "de", "de-AT", "es", "es-MX", "it", "pt", "pt-BR", "nl", "sv", "da", "nb", "fi",
  "pl", "cs", "hu", "ro", "tr", "el", "ru", "uk", "ar", "he", "ja", "ko", "zh-Hans", "zh-Hant", "hi",
]; // prettier-ignore

const KEYS = ["title", "intro", "thanks", "shipping", "help", "footer", "legal", "cta"];

const BODY = `<!doctype html><html dir="{{ dir }}" lang="{{ locale }}"><body style="font-family:sans-serif">
<h1>{% t "title", name: customer.name %}</h1>
<p>{% t "intro" %} <strong>{{ order.number }}</strong>: {% t "items", count: order.items.size %}.</p>
<table>{% for item in order.items %}<tr><td>{{ item.title | truncate: 40 }}</td><td>{{ item.quantity | number }}</td><td>{{ item.price | money: "EUR" }}</td></tr>{% endfor %}</table>
<p>{% t "thanks" %} {{ order.placedAt | date: "long" }} — {{ order.total | money: "EUR" }}</p>
<p>{% t "shipping" %}</p>
${'<p>{% t "help" %} <a href="https://example.com/help">{{ "cta" | t }}</a></p>\n'.repeat(8)}
<p>{% t "footer" %}</p><p>{% t "legal" %}</p></body></html>`;

const VARIABLES = {
  customer: { name: "Ada Lovelace" },
  order: {
    number: "A-1042",
    total: 86.5,
    placedAt: "2026-11-27T10:00:00Z",
    items: [
      { title: "Notebook, dotted, A5", quantity: 2, price: 12.5 },
      { title: "Fountain pen", quantity: 1, price: 49 },
      { title: "Ink, blue-black", quantity: 1, price: 12.5 },
    ],
  },
};

/** A translator's table for one locale: every key, a plural, an argument. */
function messagesFor(locale: string): Record<string, string> {
  const table: Record<string, string> = {
    title: `[${locale}] Your order, {name}`,
    items: `[${locale}] {count, plural, =0 {no items} one {# item} other {# items}}`,
  };
  for (const key of KEYS.slice(1)) table[key] = `[${locale}] The ${key} text of this message, translated.`;
  return table;
}

type Measured = { cpuUs: number; wallUs: number };

function measure(renders: number, one: (index: number) => unknown): Measured {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < renders; index++) one(index);
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / renders, wallUs: ((performance.now() - started) * 1000) / renders };
}

async function measureAsync(renders: number, one: (index: number) => Promise<unknown>): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < renders; index++) await one(index);
  const used = process.cpuUsage(cpu);
  return { cpuUs: (used.user + used.system) / renders, wallUs: ((performance.now() - started) * 1000) / renders };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function setUp() {
  const workspace = await createWorkspace({ name: "Bench locales", testMode: false });
  const base = { workspaceId: workspace.id, subject: "Order {{ order.number }}", bodyHtml: BODY };
  const single = await createTemplate({
    ...base,
    name: "One locale",
    locales: { defaultLocale: "en", variants: [{ locale: "en", messages: messagesFor("en") }] },
  });
  const many = await createTemplate({
    ...base,
    name: "Thirty locales",
    locales: {
      defaultLocale: "en",
      variants: LOCALES.map((locale) => ({
        locale,
        ...(locale === "en" ? {} : { subject: `[${locale}] Order {{ order.number }}` }),
        messages: messagesFor(locale),
      })),
    },
  });
  return { workspace: { id: workspace.id, defaultLocale: null }, single, many };
}

type Cases = Awaited<ReturnType<typeof cases>>;
type Results = Record<"pathOne" | "pathManyEn" | "pathMany" | "aloneOne" | "aloneManyEn" | "aloneMany", number[]>;

/** What is measured: the send path's content step per template, and the renderer alone over rows already read. */
async function cases() {
  const { workspace, single, many } = await setUp();
  const db = await getDb();
  const noMemo: Memo = async (_key, load) => load();
  const command = (templateId: string, locale: string) =>
    parseSendDraft({ templateId, to: "ada@example.org", variables: VARIABLES, locale });
  const sendPath = (commands: ReturnType<typeof command>[]) => (index: number) =>
    renderContent(db, workspace, commands[index % commands.length], (name) => name, noMemo, null);
  // Each locale's chain rows read once, as the send path reads them.
  const rowsOf = async (templateId: string, locales: string[]) => {
    const template = await getSendTemplateIn(db, workspace.id, templateId);
    return Promise.all(
      locales.map(async (locale) => {
        const { chain } = chooseLocale(locale, template.defaultLocale, template.locales);
        return { template: { ...template, variants: await readChainVariants(db, template.id, chain) }, locale };
      }),
    );
  };
  type Rows = Awaited<ReturnType<typeof rowsOf>>;
  const rendererOnly = (rows: Rows) => (index: number) => {
    const { template, locale } = rows[index % rows.length];
    const resolved = resolveTemplateVariant(template, locale);
    return renderTemplate(resolved.source, VARIABLES, { strict: template.strict, locale: resolved.localeContext });
  };
  const manyRows = await rowsOf(many.id, LOCALES);
  return {
    pathOne: sendPath([command(single.id, "en")]),
    pathManyEn: sendPath([command(many.id, "en")]),
    pathMany: sendPath(LOCALES.map((locale) => command(many.id, locale))),
    aloneOne: rendererOnly(await rowsOf(single.id, ["en"])),
    // The 30-locale template asked for the same locale as the 1-locale one: only the number of variants differs.
    aloneManyEn: rendererOnly(await rowsOf(many.id, ["en"])),
    aloneMany: rendererOnly(manyRows),
    aloneLocale: (locale: string) => rendererOnly(manyRows.filter((row) => row.locale === locale)),
  };
}

async function round(run: Cases, renders: number, results: Results, index: number) {
  const pathOne = await measureAsync(renders, run.pathOne);
  const pathManyEn = await measureAsync(renders, run.pathManyEn);
  const pathMany = await measureAsync(renders, run.pathMany);
  const aloneOne = measure(renders * 4, run.aloneOne);
  const aloneManyEn = measure(renders * 4, run.aloneManyEn);
  const aloneMany = measure(renders * 4, run.aloneMany);
  results.pathOne.push(pathOne.cpuUs);
  results.pathManyEn.push(pathManyEn.cpuUs);
  results.pathMany.push(pathMany.cpuUs);
  results.aloneOne.push(aloneOne.cpuUs);
  results.aloneManyEn.push(aloneManyEn.cpuUs);
  results.aloneMany.push(aloneMany.cpuUs);
  const us = (value: number) => `${value.toFixed(0)} µs`;
  console.log(
    `round ${index}: send path ${us(pathOne.cpuUs)} CPU (${us(pathOne.wallUs)} wall) with 1 locale, ${us(pathManyEn.cpuUs)} with 30 (en), ${us(pathMany.cpuUs)} with 30 (each in turn); renderer alone ${us(aloneOne.cpuUs)} vs ${us(aloneManyEn.cpuUs)} (30, en) and ${us(aloneMany.cpuUs)} (30, each locale in turn)`,
  );
}

function report(run: Cases, renders: number, results: Results) {
  const us = (values: number[]) => `${median(values).toFixed(0)} µs`;
  const ratio = (a: number[], b: number[]) => `${((median(b) / median(a) - 1) * 100).toFixed(1)} %`;
  const { pathOne, pathManyEn, pathMany, aloneOne, aloneManyEn, aloneMany } = results;
  console.log(`median of ${pathOne.length} rounds, CPU of this process per render:`);
  console.log(
    `  send path's content step (template row, chain rows, resolve, render; ${renders} a round), en: 1 locale ${us(pathOne)}, 30 locales ${us(pathManyEn)}: ${ratio(pathOne, pathManyEn)}`,
  );
  console.log(
    `  send path, the 30-locale template asked for each locale in turn (2–3 chain rows instead of 1): ${us(pathMany)}: ${ratio(pathOne, pathMany)}`,
  );
  console.log(
    `  renderer alone (resolveTemplateVariant + renderTemplate; ${renders * 4} a round), en: 1 locale ${us(aloneOne)}, 30 locales ${us(aloneManyEn)}: ${ratio(aloneOne, aloneManyEn)}`,
  );
  console.log(
    `  renderer alone, the 30-locale template asked for each locale in turn: ${us(aloneMany)}: ${ratio(aloneOne, aloneMany)} (each language's own formatting included)`,
  );
  const perLocale = LOCALES.map((locale) => `${locale} ${measure(renders, run.aloneLocale(locale)).cpuUs.toFixed(0)}`);
  console.log(`  renderer alone per locale (µs): ${perLocale.join(", ")}`);
}

export async function runLocaleBench(pgUrl: string, renders: number, rounds: number): Promise<void> {
  const database = await scratchPostgres(pgUrl);
  if (!database) return;
  const handle = await openPostgres(database.url, 2);
  installDbHandle(handle);
  try {
    await migrateDatabase(handle);
    const run = await cases();
    const check = await run.aloneLocale("fr-CA")(0);
    if (!check.subject.startsWith("[fr-CA]")) throw new Error(`fr-CA rendered ${check.subject}`);
    // Warm-up: every locale parsed, its formatters made, the JIT settled.
    for (let index = 0; index < 20 * LOCALES.length; index++) {
      await run.pathMany(index);
      await run.pathOne(index);
      await run.pathManyEn(index);
      run.aloneMany(index);
      run.aloneOne(index);
      run.aloneManyEn(index);
    }
    const loadAtStart = os.loadavg()[0];
    const results: Results = {
      pathOne: [],
      pathManyEn: [],
      pathMany: [],
      aloneOne: [],
      aloneManyEn: [],
      aloneMany: [],
    };
    for (let index = 1; index <= rounds; index++) await round(run, renders, results, index);
    report(run, renders, results);
    console.log(
      `load average (1 min): ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0].toFixed(2)} at the end`,
    );
  } finally {
    await closeDb();
    await database.drop();
  }
}
