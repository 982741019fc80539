import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { emailMessages, MESSAGE_STATUSES, type MessageStatus } from "@/db/schema/index";
import type { EventCode } from "./event-codes.shared";
import { COMBINABLE_MOVES, EFFECTS, MOVES_FROM, type TimestampKey } from "./effects";

const m = emailMessages;

/** A constant of the table as an SQL literal (never data): the text stays the same, so it prepares once. */
const literal = (value: string) => sql.raw(`'${value}'`);
const literals = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(", "));

export function statusChange(target: MessageStatus | undefined, status: SQL = sql`${m.status}`): SQL | undefined {
  if (!target) return undefined;
  const from = MOVES_FROM[target];
  if (from.length === MESSAGE_STATUSES.length) return literal(target);
  return sql`case when ${status} in (${literals(from)}) then ${literal(target)} else ${status} end`;
}

/** Bots stay on the timeline but move no timestamp; `settles` (nothing left to send) moves the status as success. */
export function effectChanges(
  code: EventCode,
  at: SQL,
  options: { bot?: boolean; settles?: boolean } = {},
): Partial<Record<TimestampKey | "status", SQL>> {
  const effect = EFFECTS[code];
  const changes: Partial<Record<TimestampKey | "status", SQL>> = {};
  // LEAST/GREATEST ignore NULL in PostgreSQL, so the first event fills an empty column.
  if (effect.first && !options.bot) changes[effect.first] = sql`least(${m[effect.first]}, ${at})`;
  if (effect.last && !options.bot) changes[effect.last] = sql`greatest(${m[effect.last]}, ${at})`;
  const status = statusChange(options.settles ? "SUCCEEDED" : effect.status);
  if (status) changes.status = status;
  return changes;
}

export function effectAssignments(code: EventCode, at: SQL): SQL {
  return sql.join(
    Object.entries(effectChanges(code, at)).map(
      ([key, value]) => sql`, ${sql.identifier(m[key as TimestampKey].name)} = ${value}`,
    ),
  );
}

/** recordEvents' `effects` CTE aggregates per message, and the update's assignments that read them. */
export function combinedEffects(codes: Set<EventCode>): { aggregates: SQL; assignments: SQL } {
  const aggregates: SQL[] = [];
  const assignments: SQL[] = [];
  const byColumn = new Map<string, { key: TimestampKey; kind: "first" | "last"; codes: EventCode[] }>();
  const byMove = new Map<MessageStatus, EventCode[]>();
  for (const code of codes) {
    const effect = EFFECTS[code];
    for (const kind of ["first", "last"] as const) {
      const key = effect[kind];
      if (!key) continue;
      const entry = byColumn.get(`${kind}:${key}`) ?? { key, kind, codes: [] };
      entry.codes.push(code);
      byColumn.set(`${kind}:${key}`, entry);
    }
    if (effect.status) byMove.set(effect.status, [...(byMove.get(effect.status) ?? []), code]);
  }
  const listOf = (list: EventCode[]) =>
    sql.join(
      list.map((code) => sql`${code}`),
      sql`, `,
    );
  let index = 0;
  for (const { key, kind, codes: columnCodes } of byColumn.values()) {
    const alias = sql.identifier(`c${index++}`);
    // LEAST/GREATEST ignore the NULL of "no such event".
    aggregates.push(
      sql`, ${sql.raw(kind === "first" ? "min" : "max")}(at) filter (where not bot and code in (${listOf(columnCodes)})) as ${alias}`,
    );
    assignments.push(
      sql`, ${sql.identifier(m[key].name)} = ${sql.raw(kind === "first" ? "least" : "greatest")}(${m[key]}, effects.${alias})`,
    );
  }
  const moves = COMBINABLE_MOVES.filter((target) => byMove.has(target));
  if (moves.length) {
    const whens = moves.map((target, n) => {
      aggregates.push(sql`, bool_or(code in (${listOf(byMove.get(target)!)})) as ${sql.identifier(`s${n}`)}`);
      return sql` when effects.${sql.identifier(`s${n}`)} and ${m.status} in (${literals(MOVES_FROM[target])}) then ${literal(target)}`;
    });
    assignments.push(sql`, ${sql.identifier(m.status.name)} = case${sql.join(whens)} else ${m.status} end`);
  }
  return { aggregates: sql.join(aggregates), assignments: sql.join(assignments) };
}
