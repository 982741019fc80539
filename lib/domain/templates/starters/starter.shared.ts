/**
 * A starter of the template gallery as stored in generated.ts: the react-email component rendered once
 * to Liquid HTML by `npm run build:starters`. Pure data, so server code can import it (server code
 * cannot render React to HTML at runtime).
 *
 * `bodyText` is null on purpose: the renderer derives the text part from the rendered HTML (after the
 * loops ran, links as `text [url]`). Converting the Liquid source to text beforehand would run the
 * converter over the tags themselves (it upper-cases headings, `{{ USER.NAME }}`, and breaks them).
 */
export interface StarterTemplate {
  key: string;
  name: string;
  description: string;
  /** Liquid. */
  subject: string;
  bodyHtml: string;
  bodyText: string | null;
  /** The sample data: it becomes the new template's first scenario, "Sample". */
  variables: Record<string, unknown>;
}

export const STARTER_SCENARIO_NAME = "Sample";
