"use client";

import { useSyncExternalStore } from "react";
import { formatLocal, formatUtc } from "./time-format.shared";

const noChanges = () => () => {};

/**
 * One instant in the reader's own zone and locale, the exact UTC value on hover. The server renders
 * UTC (it cannot know the browser's zone); the browser swaps in its zone after hydration, which
 * useSyncExternalStore does without a hydration mismatch.
 */
export function LocalTime({ iso, milliseconds = false }: { iso: string; milliseconds?: boolean }) {
  const text = useSyncExternalStore(
    noChanges,
    () => formatLocal(iso, milliseconds),
    () => formatUtc(iso, milliseconds),
  );
  return (
    <time dateTime={iso} title={formatUtc(iso, true)} className="tabular-nums">
      {text}
    </time>
  );
}
