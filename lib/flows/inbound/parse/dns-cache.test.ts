import { describe, expect, it } from "vitest";
import { cachedResolver } from "./dns-cache";

/** A resolver that counts its queries; `answers` by "type name", an Error's code makes it fail like node:dns. */
function counting(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const resolve = async (name: string, rrtype: string) => {
    asked.push(`${rrtype} ${name}`);
    const answer = answers[`${rrtype} ${name.toLowerCase()}`];
    if (typeof answer === "string") throw Object.assign(new Error(answer), { code: answer });
    return answer;
  };
  return { asked, resolve };
}

describe("cachedResolver", () => {
  it("asks once per name and type within its lifetime, then again", async () => {
    let clock = 1_000;
    const dns = counting({ "TXT example.org": [["v=spf1 -all"]], "MX example.org": [{ exchange: "mx", priority: 1 }] });
    const resolve = cachedResolver(dns.resolve, { maxAgeMs: 60_000, now: () => clock });
    expect(await resolve("example.org", "TXT")).toEqual([["v=spf1 -all"]]);
    expect(await resolve("Example.ORG", "TXT")).toEqual([["v=spf1 -all"]]);
    await resolve("example.org", "MX");
    expect(dns.asked).toEqual(["TXT example.org", "MX example.org"]);
    clock += 60_000;
    await resolve("example.org", "TXT");
    expect(dns.asked).toEqual(["TXT example.org", "MX example.org", "TXT example.org"]);
  });

  it("shares one query between concurrent questions and gives each caller its own copy", async () => {
    const dns = counting({ "TXT example.org": [["a"]] });
    const resolve = cachedResolver(dns.resolve);
    const [first, second] = (await Promise.all([
      resolve("example.org", "TXT"),
      resolve("example.org", "TXT"),
    ])) as string[][][];
    first[0].push("changed by a caller");
    expect(second).toEqual([["a"]]);
    expect(await resolve("example.org", "TXT")).toEqual([["a"]]);
    expect(dns.asked).toEqual(["TXT example.org"]);
  });

  it("keeps 'no such name' and 'no such records' as answers, but asks again after a failed query", async () => {
    const dns = counting({
      "TXT missing.test": "ENOTFOUND",
      "TXT empty.test": "ENODATA",
      "TXT down.test": "ESERVFAIL",
    });
    const resolve = cachedResolver(dns.resolve);
    for (let i = 0; i < 2; i++) {
      await expect(resolve("missing.test", "TXT")).rejects.toMatchObject({ code: "ENOTFOUND" });
      await expect(resolve("empty.test", "TXT")).rejects.toMatchObject({ code: "ENODATA" });
      await expect(resolve("down.test", "TXT")).rejects.toMatchObject({ code: "ESERVFAIL" });
    }
    expect(dns.asked).toEqual(["TXT missing.test", "TXT empty.test", "TXT down.test", "TXT down.test"]);
  });

  it("holds at most maxEntries answers, forgetting the oldest first", async () => {
    const dns = counting({ "TXT a.test": [["a"]], "TXT b.test": [["b"]], "TXT c.test": [["c"]] });
    const resolve = cachedResolver(dns.resolve, { maxEntries: 2 });
    await resolve("a.test", "TXT");
    await resolve("b.test", "TXT");
    await resolve("c.test", "TXT");
    await resolve("c.test", "TXT");
    await resolve("b.test", "TXT");
    await resolve("a.test", "TXT");
    expect(dns.asked).toEqual(["TXT a.test", "TXT b.test", "TXT c.test", "TXT a.test"]);
  });
});
