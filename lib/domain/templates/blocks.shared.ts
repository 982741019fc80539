import { ReaderDocumentSchema, renderToStaticMarkup } from "@usewaypoint/email-builder";
import { unescapeLiquidTags } from "./liquid-markup.shared";

/**
 * Visual blocks mode: a template may be an EmailBuilder.js document (a map of block id → block, with
 * the `root` EmailLayout block listing its children). It is compiled to Liquid HTML with
 * `@usewaypoint/email-builder` in the editor (for the preview and at save), and that HTML is stored as the
 * template's `bodyHtml`; from there a blocks template renders through the one renderer like any other.
 *
 * Browser and Node only: the library uses React context, which React's server-components build lacks,
 * so server actions and route handlers never import this module.
 */
export type BlocksDocument = Record<string, { type: string; data: Record<string, unknown> }>;

export const ROOT_BLOCK_ID = "root";

/** Null when the document is well formed, else the first problem in words. */
export function blocksDocumentProblem(document: unknown): string | null {
  const parsed = ReaderDocumentSchema.safeParse(document);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "is not a valid block document";
  if (!(ROOT_BLOCK_ID in (parsed.data as object))) return `has no "${ROOT_BLOCK_ID}" block`;
  return null;
}

/** The Liquid HTML of a block document: what is stored as bodyHtml and rendered with the sample data. */
export function blocksToLiquidHtml(document: BlocksDocument): string {
  return unescapeLiquidTags(renderToStaticMarkup(document as never, { rootBlockId: ROOT_BLOCK_ID }));
}

/** A new blocks template: a heading, a paragraph and a button, on the default layout. */
export function emptyBlocksDocument(): BlocksDocument {
  return {
    root: {
      type: "EmailLayout",
      data: { backdropColor: "#F5F5F5", canvasColor: "#FFFFFF", textColor: "#262626", fontFamily: "MODERN_SANS", childrenIds: ["heading", "text", "button"] },
    },
    heading: { type: "Heading", data: { props: { text: "Hello {{ name | default: \"there\" }}", level: "h2" }, style: { padding: { top: 24, bottom: 8, left: 24, right: 24 } } } },
    text: { type: "Text", data: { props: { text: "Write your message here." }, style: { padding: { top: 8, bottom: 8, left: 24, right: 24 } } } },
    button: { type: "Button", data: { props: { text: "Open", url: "{{ url }}" }, style: { padding: { top: 16, bottom: 24, left: 24, right: 24 } } } },
  };
}
