/** CPU seconds from /proc, for the bench scripts: a process tree (the app) and a database's backends. */
import fs from "node:fs";

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

/** `root` and every process below it. */
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

/** The backends serving one database of the local PostgreSQL 15 (their process title names it). */
export const backendsOf = (database: string) => (cmdline: string) =>
  cmdline.includes(` ${database} `) && cmdline.startsWith("postgres: ");

/** The CPU seconds of the process trees of `roots` and of a database's backends (null: none, e.g. PGlite). */
export function cpuSnapshot(roots: number[], database: string | null): { app: number; db: number } {
  const tree = new Set(roots.flatMap((root) => [...descendants(root)]));
  return { app: cpuOf((_, pid) => tree.has(pid)), db: database ? cpuOf(backendsOf(database)) : 0 };
}

export function loadAverage(): string {
  return fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}
