// Checks that README.md and docs/**/*.md are true about the tree: every relative link's file exists, every #anchor is
// a heading (GitHub's slugs) or an <a id/name>, every repo path they mention (app/…, lib/…, server/start.mjs) exists;
// and every docs/<file>.md#anchor a code comment names resolves. Prints file:line: what is wrong; exits 1 if any.
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TOP = ["app", "lib", "db", "server", "bench", "scripts", "internals", "components", "e2e", "docs"];
// A path starting in a top-level folder, ending in an extension or '/' (a folder); not the tail of a longer path or
// URL (`@/lib/…` is), nor the head of a longer one.
const PATH = new RegExp(
  `(?<![\\w.-])(?<![\\w.-]/)((?:${TOP.join("|")})/[\\w.\\-/\\[\\]()*<>…{}$]*(?:\\.[A-Za-z0-9]+|/))(?![\\w/-]|\\.\\w)`,
  "g",
);
const PLACEHOLDER = /[*<>…{}$]/;
const LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g;
const CODE_DOC_LINK = /(?<![\w.-])(docs\/[\w./-]+\.md)(#[\w-]+)?/g;

const failures = [];
const fail = (file, line, what) => failures.push(`${relative(root, file)}:${line}: ${what}`);

function walk(dir, keep, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, keep, out);
    else if (keep(name)) out.push(path);
  }
  return out;
}

// Lines with a flag saying whether they sit inside a fenced code block (links there are text, paths still count).
function lines(file) {
  let fence = null;
  return readFileSync(file, "utf8")
    .split("\n")
    .map((text) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) {
        fence = fence ? null : marker;
        return { text, code: true };
      }
      return { text, code: fence !== null };
    });
}

// GitHub's heading slug: inline markup to its text, lower-case, punctuation but '-' and '_' dropped, spaces to '-'.
function slug(heading) {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/[`*]/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map();
function anchors(file) {
  if (anchorCache.has(file)) return anchorCache.get(file);
  const found = new Set();
  const seen = new Map();
  for (const { text, code } of lines(file)) {
    if (code) continue;
    const heading = /^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(text);
    if (heading) {
      const base = slug(heading[1]);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      found.add(n ? `${base}-${n}` : base);
    }
    for (const m of text.matchAll(/<a\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) found.add(m[1]);
  }
  anchorCache.set(file, found);
  return found;
}

function checkTarget(from, line, target, base = dirname(from)) {
  const [pathPart, anchor] = target.split("#", 2);
  let file = from;
  if (pathPart) {
    file = pathPart.startsWith("/") ? join(root, decodeURI(pathPart)) : resolve(base, decodeURI(pathPart));
    if (!existsSync(file)) return fail(from, line, `link to ${target}: no file ${relative(root, file)}`);
  }
  if (anchor === undefined || !file.endsWith(".md")) return;
  if (!anchors(file).has(decodeURIComponent(anchor)))
    fail(from, line, `link to ${target}: no heading or <a id> "${anchor}" in ${relative(root, file)}`);
}

const docs = [join(root, "README.md"), ...walk(join(root, "docs"), (name) => name.endsWith(".md"))];
for (const file of docs) {
  lines(file).forEach(({ text, code }, i) => {
    if (!code) {
      for (const m of text.replace(/`[^`]*`/g, "").matchAll(LINK)) {
        const target = m[1] ?? m[2];
        if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) checkTarget(file, i + 1, target);
      }
    }
    for (const [, path] of text.replace(/\]\([^)\s]*\)/g, "]").matchAll(PATH))
      if (!PLACEHOLDER.test(path) && !existsSync(join(root, path))) fail(file, i + 1, `no ${path} in the repo`);
  });
}

const codeDirs = ["app", "lib", "db", "server", "internals", "components"];
for (const dir of codeDirs) {
  for (const file of walk(join(root, dir), (name) => /\.(ts|tsx|mjs|cjs)$/.test(name))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((text, i) => {
        for (const m of text.matchAll(CODE_DOC_LINK)) checkTarget(file, i + 1, m[1] + (m[2] ?? ""), root);
      });
  }
}

for (const failure of failures) console.error(failure);
if (failures.length) process.exit(1);
