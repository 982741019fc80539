import type { ColumnBaseConfig, ColumnBuilderBaseConfig } from "drizzle-orm";
import { PgJsonb, PgJsonbBuilder, timestamp, type AnyPgTable, type PgJsonbBuilderInitial } from "drizzle-orm/pg-core";
import { wellFormedJson } from "../well-formed-json";

/** Millisecond precision everywhere: the API shows milliseconds and cursors compare exact values. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();

class WellFormedJsonb<T extends ColumnBaseConfig<"json", "PgJsonb">> extends PgJsonb<T> {
  override mapToDriverValue(value: T["data"]): string {
    return wellFormedJson(value);
  }
}

class WellFormedJsonbBuilder<T extends ColumnBuilderBaseConfig<"json", "PgJsonb">> extends PgJsonbBuilder<T> {
  // Drizzle's builders create their column in build() (internal to drizzle, hence untyped there).
  build(table: AnyPgTable<{ name: string }>) {
    return new WellFormedJsonb(table, this.config as never);
  }
}

/** Every jsonb column: a lone surrogate in a value is stored as U+FFFD instead of failing the insert. */
export function jsonb<TName extends string>(name: TName): PgJsonbBuilderInitial<TName> {
  return new WellFormedJsonbBuilder(name);
}
