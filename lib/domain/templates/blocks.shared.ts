import { ReaderDocumentSchema, renderToStaticMarkup } from "@usewaypoint/email-builder";
import { unescapeLiquidTags } from "./liquid-markup.shared";

// A blocks template is compiled to Liquid HTML in the editor and stored as bodyHtml, then renders like any other.
// Browser and Node only: the library needs React context, which the server-components build lacks.
export type BlocksDocument = Record<string, { type: string; data: Record<string, unknown> }>;

export const ROOT_BLOCK_ID = "root";

/** Null when the document is well formed, else the first problem in words. */
export function blocksDocumentProblem(document: unknown): string | null {
  const parsed = ReaderDocumentSchema.safeParse(document);
  if (!parsed.success) return parsed.error.issues[0]?.message ?? "is not a valid block document";
  if (!(ROOT_BLOCK_ID in (parsed.data as object))) return `has no "${ROOT_BLOCK_ID}" block`;
  return null;
}

/** The html element names the render's direction and language (docs/templates.md#localisation): `rtl` for Arabic. */
export function blocksToLiquidHtml(document: BlocksDocument): string {
  const html = unescapeLiquidTags(renderToStaticMarkup(document as never, { rootBlockId: ROOT_BLOCK_ID }));
  return html.replace(/<html>/, '<html dir="{{ dir }}" lang="{{ locale }}">');
}

/** A new blocks template: a heading, a paragraph and a button, on the default layout. */
export function emptyBlocksDocument(): BlocksDocument {
  return {
    root: {
      type: "EmailLayout",
      data: {
        backdropColor: "#F5F5F5",
        canvasColor: "#FFFFFF",
        textColor: "#262626",
        fontFamily: "MODERN_SANS",
        childrenIds: ["heading", "text", "button"],
      },
    },
    heading: {
      type: "Heading",
      data: {
        props: { text: 'Hello {{ name | default: "there" }}', level: "h2" },
        style: { padding: { top: 24, bottom: 8, left: 24, right: 24 } },
      },
    },
    text: {
      type: "Text",
      data: {
        props: { text: "Write your message here." },
        style: { padding: { top: 8, bottom: 8, left: 24, right: 24 } },
      },
    },
    button: {
      type: "Button",
      data: {
        props: { text: "Open", url: "{{ url }}" },
        style: { padding: { top: 16, bottom: 24, left: 24, right: 24 } },
      },
    },
  };
}
