import { boolean, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { columnList, decodeRows } from "./column-rows";
import { PgDialect } from "drizzle-orm/pg-core";

const t = pgTable("t", {
  odd: text(`we"ird\\name'); process.exit(1); ("`),
  at: timestamp("at", { withTimezone: true, mode: "date" }),
  doc: jsonb("doc"),
  on: boolean("on"),
  n: integer("n"),
});
const columns = { odd: t.odd, at: t.at, doc: t.doc, on: t.on, n: t.n };

describe("decodeRows", () => {
  it("reads each column by its name, decodes as the column does, and keeps nulls", () => {
    const rows = [
      { [t.odd.name]: "a", at: "2026-11-27 19:46:33.123+00", doc: '{"x":[1,2]}', on: true, n: 7 },
      { [t.odd.name]: null, at: null, doc: { already: "parsed" }, on: false, n: 0 },
      { at: undefined },
    ];
    const decoded = decodeRows(rows, columns);
    expect(decoded).toEqual([
      { odd: "a", at: new Date("2026-11-27T19:46:33.123Z"), doc: { x: [1, 2] }, on: true, n: 7 },
      { odd: null, at: null, doc: { already: "parsed" }, on: false, n: 0 },
      { odd: null, at: null, doc: null, on: null, n: null },
    ]);
    // PGlite's answer holds its rows in an object; the decoder made for these columns is reused.
    expect(decodeRows({ rows: [rows[0]] }, columns)).toEqual([decoded[0]]);
  });

  it("names each column in the select list as the table does", () => {
    const { sql } = new PgDialect().sqlToQuery(columnList(columns));
    expect(sql).toBe(`"we""ird\\name'); process.exit(1); (""", "at", "doc", "on", "n"`);
  });
});
