/**
 * What the profiling aids of bench:delivery read from the machine: CPU seconds of processes (from
 * /proc, so PostgreSQL's backends count too) and the statements the PostgreSQL server logged.
 */
import fs from "node:fs";

export const PG_LOG = "/var/log/postgresql/postgresql-15-main.log";
const TICK = 100; // USER_HZ

/** utime + stime in seconds of every process whose command line matches. */
export function cpuOf(match: (cmdline: string, pid: number) => boolean): number {
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (!match(cmdline, pid)) continue;
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / TICK;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

export function descendants(root: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    const pid = Number(entry);
    if (!pid) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // gone
    }
  }
  const all = new Set([root]);
  const stack = [root];
  while (stack.length) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (all.has(child)) continue;
      all.add(child);
      stack.push(child);
    }
  }
  return all;
}

export function statementsBetween(offset: number, end: number, database: string): Map<string, { count: number; ms: number }> {
  const text = fs.readFileSync(PG_LOG).subarray(offset, end).toString("utf8");
  const stats = new Map<string, { count: number; ms: number }>();
  const lines = text.split("\n");
  for (const [index, line] of lines.entries()) {
    if (!line.includes(`@${database} `)) continue;
    const found = /duration: ([\d.]+) ms\s+(?:execute [^:]*|statement): (.*)$/.exec(line);
    if (!found) continue;
    const key = (found[2].trim() || lines[index + 1]?.trim() || "").replace(/\$\d+/g, "$").replace(/\s+/g, " ").slice(0, 140);
    const entry = stats.get(key) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += Number(found[1]);
    stats.set(key, entry);
  }
  return stats;
}
