import { isPlainObject } from "@/lib/foundation/validation.shared";
import { LOCALE_VARIABLES } from "./locale-liquid.shared";
import { variableSegments } from "./render.shared";

/** Variables every render receives without the caller giving them (docs/api.md#decided-unsubscribe-groups-suppression-contacts). */
const PROVIDED = new Set<string>(["unsubscribeUrl", ...LOCALE_VARIABLES]);

function formatPath(segments: Array<string | number>): string {
  return segments
    .map((segment, index) => (typeof segment === "number" ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join("");
}

/** The distinct variable paths the given Liquid sources read, in first-use order (`user.name`, `items`). */
export function templateVariables(sources: Array<string | null | undefined>): string[] {
  const seen = new Set<string>();
  for (const source of sources) {
    if (!source) continue;
    for (const segments of variableSegments(source)) {
      if (!PROVIDED.has(String(segments[0]))) seen.add(formatPath(segments));
    }
  }
  return [...seen];
}

function hasPath(data: unknown, segments: Array<string | number>): boolean {
  let value: unknown = data;
  for (const segment of segments) {
    if (
      Array.isArray(value) &&
      (typeof segment === "number" || segment === "size" || segment === "first" || segment === "last")
    ) {
      if (typeof segment !== "number") return value.length > 0 || segment === "size";
      value = value[segment];
    } else if (isPlainObject(value) && Object.hasOwn(value, String(segment))) {
      value = value[String(segment)];
    } else if (typeof value === "string" && segment === "size") {
      return true;
    } else {
      return false;
    }
    if (value === undefined) return false;
  }
  return true;
}

/** The variable paths the sources read that `data` does not hold: what strict mode would refuse. */
export function missingVariables(sources: Array<string | null | undefined>, data: Record<string, unknown>): string[] {
  const missing = new Set<string>();
  for (const source of sources) {
    if (!source) continue;
    for (const segments of variableSegments(source)) {
      if (PROVIDED.has(String(segments[0]))) continue;
      if (!hasPath(data, segments)) missing.add(formatPath(segments));
    }
  }
  return [...missing];
}

/** The value at a variable path (plain objects and array indexes only), or undefined. */
function valueAt(data: unknown, segments: Array<string | number>): unknown {
  let value: unknown = data;
  for (const segment of segments) {
    if (Array.isArray(value) && typeof segment === "number") value = value[segment];
    else if (isPlainObject(value) && Object.hasOwn(value, String(segment))) value = value[String(segment)];
    else return undefined;
  }
  return value;
}

/**
 * The variable paths the sources read that render empty with `data`: missing, or null, or an empty or blank string
 * (the content check's "empty_variables", docs/deliverability.md#content-checks).
 */
export function blankVariables(sources: Array<string | null | undefined>, data: Record<string, unknown>): string[] {
  const blank = new Set(missingVariables(sources, data));
  for (const source of sources) {
    if (!source) continue;
    for (const segments of variableSegments(source)) {
      if (PROVIDED.has(String(segments[0]))) continue;
      const value = valueAt(data, segments);
      if (value === null || (typeof value === "string" && value.trim() === "")) blank.add(formatPath(segments));
    }
  }
  return [...blank];
}
