import "server-only";
import type { Resolver } from "node:dns/promises";

/** TXT records of a name (each record's strings joined), or why the lookup failed. */
export type TxtLookup = { records: string[] } | { error: string };

// NXDOMAIN and "no TXT records" mean nothing is published; anything else is a failed lookup.
const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

export async function lookupTxt(resolver: Resolver, host: string): Promise<TxtLookup> {
  try {
    const answers = await resolver.resolveTxt(host);
    return { records: answers.map((chunks) => chunks.join("")) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (ABSENT.has(code)) return { records: [] };
    return { error: `${code || "error"} looking up ${host}` };
  }
}
