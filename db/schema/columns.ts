import { timestamp } from "drizzle-orm/pg-core";

/** Millisecond precision everywhere: the API shows milliseconds and cursors compare exact values. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });

export const createdAt = () => ts("created_at").notNull().defaultNow();
export const updatedAt = () => ts("updated_at").notNull().defaultNow();
