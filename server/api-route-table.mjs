// The public API's route table as the build wrote it, and the match Next.js's router would make, for
// server/direct-routes.mjs. Read from .next/server/app-paths-manifest.json (every app route and its
// built file), so a route added under app/api/v1 is in the table after the next build with no list to
// keep. Matching follows Next.js's order: at each segment a static name, then a [param], then a
// [...catchAll], backtracking when the rest of the path does not fit; static names are compared
// undecoded (Next.js answers /api/v1/email%5Fmessages from the catch-all) and param values are
// decoded with decodeURIComponent, as Next.js does. A path Next.js would first normalise or redirect
// (a trailing or doubled slash, a dot segment, a character outside RFC 3986's path set) is not
// matched here, so Next.js answers it as before.
import fs from "node:fs";
import path from "node:path";

/** The API's base path in the build; /v1/... reaches it through next.config.ts's rewrite. */
const API_PREFIX = "/api/v1/";
const REWRITTEN_PREFIX = "/v1/";

/** Characters Next.js serves as they are: anything else (a backslash, a space, `|`) is normalised first. */
const PLAIN_PATH = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/**
 * The table of the built app's /api/v1 routes: a tree of path segments whose leaves name the built
 * route file (relative to .next/server). Throws when the manifest is missing or unreadable.
 */
export function readApiRouteTable(root) {
  const manifestPath = path.join(root, ".next", "server", "app-paths-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  const table = emptyNode();
  // next.config.ts's rewrite of /v1/... applies only when no app route answers the path itself.
  table.rewriteApplies = !Object.keys(manifest).some((page) => withoutGroups(page).startsWith(REWRITTEN_PREFIX));
  for (const [page, file] of Object.entries(manifest)) {
    const route = withoutGroups(page);
    if (!route.startsWith(API_PREFIX) || !route.endsWith("/route")) continue;
    addRoute(table, route.slice(API_PREFIX.length, -"/route".length).split("/"), path.join(root, ".next", "server", file));
  }
  return table;
}

/** A page's URL path: route groups, `(name)` folders, are not part of it. */
function withoutGroups(page) {
  return page.replace(/\/\([^/)]*\)(?=\/)/g, "");
}

function emptyNode() {
  return { file: null, statics: new Map(), param: null, catchAll: null, opaque: false };
}

/** A path that reaches an opaque node is Next.js's: it has a route there this table does not mirror. */
const NEXT_DECIDES = Symbol("Next.js decides");

function addRoute(node, segments, file) {
  for (const segment of segments) {
    const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
    if (catchAll) {
      node.catchAll = { name: catchAll[1], file };
      return;
    }
    const param = /^\[(\w+)\]$/.exec(segment);
    // An optional catch-all ([[...x]]), another form, or a second param name at one level (which
    // Next.js refuses at build time): every path from here on stays with Next.js.
    if ((segment.includes("[") && !param) || (param && node.param && node.param.name !== param[1])) {
      node.opaque = true;
      return;
    }
    if (param) {
      node.param ??= { name: param[1], node: emptyNode() };
      node = node.param.node;
    } else {
      if (!node.statics.has(segment)) node.statics.set(segment, emptyNode());
      node = node.statics.get(segment);
    }
  }
  node.file = file;
}

/**
 * The route a path of the API (`/api/v1/...` or `/v1/...`, without its query) reaches and its params,
 * or null when it is not an API path this table can answer for Next.js.
 */
export function matchApiRoute(table, pathname) {
  let rest;
  if (pathname.startsWith(API_PREFIX)) rest = pathname.slice(API_PREFIX.length);
  else if (pathname.startsWith(REWRITTEN_PREFIX) && table.rewriteApplies) rest = pathname.slice(REWRITTEN_PREFIX.length);
  else return null;
  if (!PLAIN_PATH.test(rest)) return null;
  const segments = rest.split("/");
  for (const segment of segments) if (segment === "" || DOT_SEGMENT.test(segment)) return null;
  const match = matchFrom(table, segments, 0, {});
  return match === NEXT_DECIDES ? null : match;
}

/** The match from `node` on, null when nothing fits (the caller backtracks), or NEXT_DECIDES. */
function matchFrom(node, segments, index, params) {
  if (node.opaque) return NEXT_DECIDES;
  if (index === segments.length) return node.file ? { file: node.file, params } : null;
  const segment = segments[index];
  const child = node.statics.get(segment);
  const fromStatic = child && matchFrom(child, segments, index + 1, params);
  if (fromStatic) return fromStatic;
  if (node.param) {
    const value = decode(segment);
    if (value === null) return NEXT_DECIDES;
    const fromParam = matchFrom(node.param.node, segments, index + 1, { ...params, [node.param.name]: value });
    if (fromParam) return fromParam;
  }
  if (node.catchAll) {
    const values = segments.slice(index).map(decode);
    if (values.includes(null)) return NEXT_DECIDES;
    return { file: node.catchAll.file, params: { ...params, [node.catchAll.name]: values } };
  }
  return null;
}

/** decodeURIComponent, or null for a segment that is not percent-encoded UTF-8 (the HTTP server refuses those first). */
function decode(segment) {
  if (!segment.includes("%")) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
