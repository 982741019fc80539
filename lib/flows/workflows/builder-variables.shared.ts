import { missingVariables, templateVariables } from "@/lib/domain/templates/variables.shared";
import { ADDRESS_FIELDS, type SendStepDraft, type StepDraft } from "./builder.shared";

// Pure: the builder shows them live, and the server computes each template's list with the same function.
/** Variables a Liquid source reads; a source that does not parse (yet: the user is typing) reads none. */
export function safeVariables(sources: string[]): string[] {
  const found: string[] = [];
  for (const source of sources) {
    try {
      found.push(...templateVariables([source]));
    } catch {}
  }
  return [...new Set(found)];
}

/** The variables a send step's address fields use (`{{ user.email }}` → user.email). */
export function addressVariables(step: SendStepDraft): string[] {
  return safeVariables(ADDRESS_FIELDS.map((field) => step[field]));
}

/** Every variable the workflow needs: each send step's address fields, then its template's, in order. */
export function workflowVariables(steps: StepDraft[], templateVariablesOf: (templateId: string) => string[]): string[] {
  const all = new Set<string>();
  for (const step of steps) {
    if (step.type !== "sendEmail") continue;
    for (const path of [...addressVariables(step), ...templateVariablesOf(step.templateId)]) all.add(path);
  }
  return [...all];
}

/** The needed paths the sample does not hold (rendering is lenient: they would render empty). */
export function missingSampleVariables(paths: string[], sample: Record<string, unknown>): string[] {
  return missingVariables(
    paths.map((path) => `{{ ${path} }}`),
    sample,
  );
}

/** `user.email`, `items[0].name` → ["user", "email"], ["items", 0, "name"]. */
function pathSegments(path: string): Array<string | number> {
  return [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) =>
    match[2] !== undefined ? Number(match[2]) : match[1],
  );
}

/** Sample variables with every needed path; "test@example.org" where the name says email, so a test run can send. */
export function variablesSkeleton(paths: string[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = pathSegments(path);
    let node: Record<string | number, unknown> = root;
    segments.forEach((segment, index) => {
      const last = index === segments.length - 1;
      const existing = node[segment];
      if (last) {
        if (existing === undefined) node[segment] = /e-?mail/i.test(String(segment)) ? "test@example.org" : "";
        return;
      }
      const wantArray = typeof segments[index + 1] === "number";
      if (typeof existing !== "object" || existing === null) node[segment] = wantArray ? [] : {};
      node = node[segment] as Record<string | number, unknown>;
    });
  }
  return root;
}

/** Parses the sample-variables text: an object, or the reason it is not one. */
export function parseSampleVariables(text: string): { variables: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === "" ? "{}" : text);
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { error: 'The variables must be a JSON object, like {"user": {…}}.' };
  return { variables: value as Record<string, unknown> };
}
