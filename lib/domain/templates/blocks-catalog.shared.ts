import type { BlocksDocument } from "./blocks.shared";

// Paddings follow emptyBlocksDocument()'s 24px side margin, so added blocks line up with the starter ones.
export const BLOCK_TYPES = [
  "Heading",
  "Text",
  "Button",
  "Image",
  "Divider",
  "Spacer",
  "ColumnsContainer",
  "Container",
  "Html",
  "Avatar",
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

/** What the palette offers, in its order (Avatar is only edited when a document already has one). */
export const PALETTE_BLOCK_TYPES: readonly BlockType[] = [
  "Heading",
  "Text",
  "Button",
  "Image",
  "Divider",
  "Spacer",
  "ColumnsContainer",
  "Container",
  "Html",
];

export const BLOCK_TYPE_LABELS: Record<string, string> = {
  EmailLayout: "Email layout",
  Heading: "Heading",
  Text: "Text",
  Button: "Button",
  Image: "Image",
  Divider: "Divider",
  Spacer: "Spacer",
  ColumnsContainer: "Columns",
  Container: "Container",
  Html: "HTML",
  Avatar: "Avatar",
};

export const FONT_FAMILIES: Record<string, string> = {
  MODERN_SANS: "Modern sans",
  BOOK_SANS: "Book sans",
  ORGANIC_SANS: "Organic sans",
  GEOMETRIC_SANS: "Geometric sans",
  HEAVY_SANS: "Heavy sans",
  ROUNDED_SANS: "Rounded sans",
  MODERN_SERIF: "Modern serif",
  BOOK_SERIF: "Book serif",
  MONOSPACE: "Monospace",
};

/** Inline, so the preview fetches nothing (an empty src would make browsers request the page again). */
export const PLACEHOLDER_IMAGE_URL =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='600' height='200'%3E%3Crect width='600' height='200' fill='%23E2E8F0'/%3E" +
  "%3Ctext x='300' y='112' font-family='sans-serif' font-size='28' fill='%2364748B' text-anchor='middle'%3EImage%3C/text%3E%3C/svg%3E";

const padding = (top: number, bottom: number) => ({ padding: { top, bottom, left: 24, right: 24 } });

const DEFAULTS: Record<BlockType, BlocksDocument[string]["data"]> = {
  Heading: { props: { text: "Heading", level: "h2" }, style: padding(16, 8) },
  Text: { props: { text: "Write your text here." }, style: padding(8, 8) },
  Button: {
    props: {
      text: "Button",
      url: "https://example.com",
      buttonBackgroundColor: "#4F46E5",
      buttonTextColor: "#FFFFFF",
      buttonStyle: "rounded",
      size: "medium",
      fullWidth: false,
    },
    style: { ...padding(16, 16), textAlign: "left" },
  },
  Image: {
    props: { url: PLACEHOLDER_IMAGE_URL, alt: "Image", width: 552 },
    style: { ...padding(8, 8), textAlign: "center" },
  },
  Divider: { props: { lineColor: "#CCCCCC", lineHeight: 1 }, style: padding(16, 16) },
  Spacer: { props: { height: 16 } },
  ColumnsContainer: {
    props: {
      columnsCount: 2,
      columnsGap: 16,
      contentAlignment: "top",
      columns: [{ childrenIds: [] }, { childrenIds: [] }, { childrenIds: [] }],
    },
    style: padding(16, 16),
  },
  Container: { props: { childrenIds: [] }, style: padding(16, 16) },
  Html: { props: { contents: "<p>Your HTML here.</p>" }, style: padding(8, 8) },
  Avatar: {
    props: { imageUrl: PLACEHOLDER_IMAGE_URL, alt: "Avatar", size: 64, shape: "circle" },
    style: { ...padding(16, 16), textAlign: "center" },
  },
};

export function defaultBlock(type: BlockType): BlocksDocument[string] {
  return { type, data: structuredClone(DEFAULTS[type]) };
}

function excerpt(text: string, length = 40): string {
  const flat = text
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/** A short name for a block in the outline: its type and, where it has one, the start of its text. */
export function blockSummary(block: BlocksDocument[string]): string {
  const label = BLOCK_TYPE_LABELS[block.type] ?? block.type;
  const props = (block.data.props ?? {}) as Record<string, unknown>;
  const text = [props.text, props.alt, props.contents].find(
    (value) => typeof value === "string" && value.trim() !== "",
  ) as string | undefined;
  if (block.type === "ColumnsContainer") return `${label} (${props.columnsCount === 3 ? 3 : 2})`;
  if (block.type === "Spacer") return `${label} (${typeof props.height === "number" ? props.height : 16}px)`;
  return text ? `${label}: ${excerpt(text)}` : label;
}
