/**
 * A V8 CPU profile of this process over one stretch (node:inspector's Profiler), summarised as the benches print it:
 * the share of samples each function spent in itself, and the same by area (a dependency, a folder of ours, Node's
 * internals, the garbage collector, idle). Shares, not milliseconds: they hold on a loaded machine too.
 */
import fs from "node:fs";
import { Session, type Profiler } from "node:inspector";
import path from "node:path";

export interface ProfileSummary {
  samples: number;
  functions: Array<{ name: string; where: string; share: number }>;
  areas: Array<{ area: string; share: number }>;
}

/** Starts sampling now; `stop` ends it, writes the .cpuprofile to `file` (for Chrome DevTools) and summarises it. */
export async function startCpuProfile(): Promise<{ stop(file: string): Promise<ProfileSummary> }> {
  const session = new Session();
  session.connect();
  const post = <T>(method: string, params?: object) =>
    new Promise<T>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result as T))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 500 });
  await post("Profiler.start");
  return {
    stop: async (file) => {
      const { profile } = await post<{ profile: Profiler.Profile }>("Profiler.stop");
      session.disconnect();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      return summarise(profile);
    },
  };
}

export function summarise(profile: Profiler.Profile, top = 15): ProfileSummary {
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0) || 1;
  const byFunction = new Map<string, { name: string; where: string; hits: number }>();
  const byArea = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const frame = node.callFrame;
    const name = frame.functionName || "(anonymous)";
    const where = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : "";
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, hits: 0 };
    entry.hits += hits;
    byFunction.set(key, entry);
    const area = areaOf(frame.url, name);
    byArea.set(area, (byArea.get(area) ?? 0) + hits);
  }
  const share = (hits: number) => Math.round((hits / total) * 1000) / 10;
  return {
    samples: total,
    functions: [...byFunction.values()]
      .sort((a, b) => b.hits - a.hits)
      .slice(0, top)
      .map((entry) => ({ name: entry.name, where: entry.where, share: share(entry.hits) })),
    areas: [...byArea.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([area, hits]) => ({ area, share: share(hits) })),
  };
}

export function printSummary(summary: ProfileSummary): void {
  console.log(`  self time by area (${summary.samples} samples):`);
  for (const { area, share } of summary.areas) console.log(`    ${share.toFixed(1).padStart(5)} %  ${area}`);
  console.log("  self time by function:");
  for (const { name, where, share } of summary.functions)
    console.log(`    ${share.toFixed(1).padStart(5)} %  ${name}  ${where}`);
}

function shortUrl(url: string): string {
  const file = url.replace(/^file:\/\//, "");
  const modules = file.lastIndexOf("/node_modules/");
  if (modules >= 0) return file.slice(modules + "/node_modules/".length);
  return file.startsWith(process.cwd()) ? path.relative(process.cwd(), file) : file;
}

/** `(garbage collector)`, `(idle)`, `(program)`; a dependency by package; ours by its first two folders; node:… */
function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith("(") ? name : "(native)";
  if (url.startsWith("node:")) return "node internals";
  const short = shortUrl(url);
  if (url.includes("/node_modules/")) {
    const parts = short.split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  return short
    .split("/")
    .slice(0, short.startsWith("lib/") ? 3 : 2)
    .join("/");
}
