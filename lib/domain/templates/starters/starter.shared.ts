/**
 * Rendered once to Liquid HTML by `npm run build:starters`. `bodyText` is null on purpose: converting Liquid source to
 * text would mangle the tags (`{{ USER.NAME }}`), so the renderer derives it from the rendered HTML.
 */
export interface StarterTemplate {
  key: string;
  name: string;
  description: string;
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
  /** The sample data: it becomes the new template's first scenario, "Sample". */
  variables: Record<string, unknown>;
}

export const STARTER_SCENARIO_NAME = "Sample";
