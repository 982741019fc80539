import { describe, expect, it } from "vitest";
import { parseInboundListSearch } from "./inbound-list-search";

const parse = (query: string) => parseInboundListSearch(new URLSearchParams(query));

describe("parseInboundListSearch", () => {
  it("reads the filters under the API's names, empty fields as no filter, days as whole UTC days", () => {
    const result = parse(
      "address=Support@In.Example.com&status=QUARANTINED&dmarc=fail&spam=&createdFrom=2026-11-01&createdTo=2026-11-02",
    );
    expect(result).toMatchObject({
      ok: true,
      query: {
        address: "support@in.example.com",
        status: "QUARANTINED",
        dmarc: "fail",
        createdAt: { gte: new Date("2026-11-01T00:00:00.000Z"), lt: new Date("2026-11-03T00:00:00.000Z") },
        cursor: null,
      },
    });
    expect(result.ok && result.query.spam).toBeUndefined();
  });

  it("names the field of a bad value", () => {
    expect(parse("createdFrom=yesterday")).toMatchObject({ ok: false, param: "createdFrom" });
    expect(parse("createdFrom=2026-11-02&createdTo=2026-11-01")).toMatchObject({ ok: false, param: "createdTo" });
    expect(parse("status=LOST")).toMatchObject({ ok: false, param: "status" });
    expect(parse("routeId=irt_%00")).toMatchObject({ ok: false, param: "routeId" });
    expect(parse("address=a%00@b.example")).toMatchObject({ ok: false, param: "address" });
    expect(parse("cursor.after=a&cursor.before=b")).toMatchObject({ ok: false, param: "cursor.before" });
  });

  it("keeps a cursor", () => {
    expect(parse("cursor.after=inm_0123456789abcdef")).toMatchObject({
      ok: true,
      query: { cursor: { direction: "after", id: "inm_0123456789abcdef" } },
    });
  });
});
