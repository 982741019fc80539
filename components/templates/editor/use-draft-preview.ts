"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { PreviewRequest, PreviewResult } from "./types";

export const PREVIEW_DEBOUNCE_MS = 150;

/** The value as it was `delay` ms after it last changed (compared by content, not identity). */
function useDebounced<T>(value: T, delay: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState({ key, value });
  useEffect(() => {
    if (key === settled.key) return;
    const timer = setTimeout(() => setSettled({ key, value }), delay);
    return () => clearTimeout(timer);
    // `value` is described by `key`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, delay, settled.key]);
  return settled.value;
}

async function fetchPreview(request: PreviewRequest, signal: AbortSignal): Promise<PreviewResult> {
  const response = await fetch("/templates/preview", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify(request),
    signal,
    cache: "no-store",
  });
  const isJson = response.headers.get("content-type")?.includes("application/json");
  if (!isJson)
    throw new Error(
      response.redirected
        ? "Your session ended: sign in again to see the preview."
        : `The preview answered ${response.status}.`,
    );
  const body = (await response.json()) as { data?: PreviewResult; error?: { message: string } };
  if (!response.ok || !body.data) throw new Error(body.error?.message ?? `The preview answered ${response.status}.`);
  return body.data;
}

/**
 * The live preview: the draft through POST /templates/preview (the one renderer) ~150 ms after typing
 * pauses. Keyed on the draft and data, so an answer always belongs to the text it was asked for; while
 * the next one is on its way the previous preview stays up (keepPreviousData), and a request for text
 * that has changed since is aborted when its query is left (signal).
 */
export function useDraftPreview(request: PreviewRequest | null) {
  const settled = useDebounced(request, PREVIEW_DEBOUNCE_MS);
  const query = useQuery({
    // Null: no preview wanted (the studio's second pane while the default locale is shown).
    enabled: settled !== null,
    queryKey: ["template-preview", settled],
    queryFn: ({ signal }) => fetchPreview(settled!, signal),
    placeholderData: keepPreviousData,
    // The same draft and data always render the same: no need to ask twice.
    staleTime: Infinity,
    gcTime: 30_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const pending = query.isFetching || JSON.stringify(settled) !== JSON.stringify(request);
  return { ...query, pending };
}
