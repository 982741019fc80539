import { FONT_FAMILIES } from "@/lib/domain/templates/blocks-catalog.shared";

/**
 * What the properties panel shows for each block type, as data: one generic panel renders these, so a
 * property is added in one line. `group` says where the value lives in the block (`props`, `style`, or
 * the root's `data` itself for the email layout). Keys and values follow the EmailBuilder.js zod schemas.
 */
export type FieldGroup = "props" | "style" | "layout";

interface Base {
  group: FieldGroup;
  key: string;
  label: string;
  hint?: string;
}
export type FieldSpec =
  | (Base & { kind: "text" | "textarea" | "color" | "checkbox" | "padding" })
  | (Base & { kind: "number"; min?: number; max?: number })
  | (Base & { kind: "select"; options: [string, string][]; numeric?: boolean });

const LIQUID = "Liquid works here, e.g. {{ user.name }}.";
const align = (group: FieldGroup = "style"): FieldSpec => ({
  kind: "select",
  group,
  key: "textAlign",
  label: "Alignment",
  options: [
    ["left", "Left"],
    ["center", "Center"],
    ["right", "Right"],
  ],
});
const color = (key: string, label: string, group: FieldGroup = "style"): FieldSpec => ({
  kind: "color",
  group,
  key,
  label,
});
const padding: FieldSpec = { kind: "padding", group: "style", key: "padding", label: "Padding" };
const background = color("backgroundColor", "Background color");
const weight: FieldSpec = {
  kind: "select",
  group: "style",
  key: "fontWeight",
  label: "Font weight",
  options: [
    ["normal", "Normal"],
    ["bold", "Bold"],
  ],
};
const fontSize: FieldSpec = { kind: "number", group: "style", key: "fontSize", label: "Font size (px)", min: 0 };
const font = (group: FieldGroup = "style"): FieldSpec => ({
  kind: "select",
  group,
  key: "fontFamily",
  label: "Font",
  options: Object.entries(FONT_FAMILIES),
});

export const LAYOUT_FIELDS: FieldSpec[] = [
  color("backdropColor", "Backdrop color", "layout"),
  color("canvasColor", "Canvas color", "layout"),
  color("textColor", "Text color", "layout"),
  font("layout"),
  color("borderColor", "Border color", "layout"),
  { kind: "number", group: "layout", key: "borderRadius", label: "Border radius (px)", min: 0 },
];

export const BLOCK_FIELDS: Record<string, FieldSpec[]> = {
  Heading: [
    { kind: "textarea", group: "props", key: "text", label: "Heading text", hint: LIQUID },
    {
      kind: "select",
      group: "props",
      key: "level",
      label: "Heading level",
      options: [
        ["h1", "H1"],
        ["h2", "H2"],
        ["h3", "H3"],
      ],
    },
    color("color", "Text color"),
    background,
    align(),
    weight,
    font(),
    padding,
  ],
  Text: [
    { kind: "textarea", group: "props", key: "text", label: "Text", hint: LIQUID },
    { kind: "checkbox", group: "props", key: "markdown", label: "Format as Markdown" },
    color("color", "Text color"),
    background,
    align(),
    fontSize,
    weight,
    font(),
    padding,
  ],
  Button: [
    { kind: "text", group: "props", key: "text", label: "Button text", hint: LIQUID },
    {
      kind: "text",
      group: "props",
      key: "url",
      label: "Button URL",
      hint: "Liquid works here, e.g. https://example.com/orders/{{ order.id }}.",
    },
    color("buttonBackgroundColor", "Button color", "props"),
    color("buttonTextColor", "Button text color", "props"),
    { kind: "checkbox", group: "props", key: "fullWidth", label: "Full width" },
    {
      kind: "select",
      group: "props",
      key: "buttonStyle",
      label: "Shape",
      options: [
        ["rectangle", "Rectangle"],
        ["rounded", "Rounded"],
        ["pill", "Pill"],
      ],
    },
    {
      kind: "select",
      group: "props",
      key: "size",
      label: "Size",
      options: [
        ["x-small", "Extra small"],
        ["small", "Small"],
        ["medium", "Medium"],
        ["large", "Large"],
      ],
    },
    align(),
    background,
    fontSize,
    weight,
    font(),
    padding,
  ],
  Image: [
    {
      kind: "text",
      group: "props",
      key: "url",
      label: "Image URL",
      hint: "A hosted image (https://…); Liquid works. Many email clients block data: images.",
    },
    { kind: "text", group: "props", key: "alt", label: "Alt text" },
    { kind: "text", group: "props", key: "linkHref", label: "Link URL", hint: "Optional; Liquid works." },
    { kind: "number", group: "props", key: "width", label: "Width (px)", min: 1 },
    { kind: "number", group: "props", key: "height", label: "Height (px)", min: 1 },
    align(),
    background,
    padding,
  ],
  Divider: [
    color("lineColor", "Line color", "props"),
    { kind: "number", group: "props", key: "lineHeight", label: "Line height (px)", min: 1 },
    background,
    padding,
  ],
  Spacer: [{ kind: "number", group: "props", key: "height", label: "Height (px)", min: 0 }],
  Html: [
    {
      kind: "textarea",
      group: "props",
      key: "contents",
      label: "HTML",
      hint: "Inserted as is. Liquid works; values are HTML-escaped when rendered.",
    },
    color("color", "Text color"),
    background,
    align(),
    fontSize,
    font(),
    padding,
  ],
  ColumnsContainer: [
    {
      kind: "select",
      group: "props",
      key: "columnsCount",
      label: "Columns",
      options: [
        ["2", "2"],
        ["3", "3"],
      ],
      numeric: true,
    },
    { kind: "number", group: "props", key: "columnsGap", label: "Gap (px)", min: 0 },
    {
      kind: "select",
      group: "props",
      key: "contentAlignment",
      label: "Vertical alignment",
      options: [
        ["top", "Top"],
        ["middle", "Middle"],
        ["bottom", "Bottom"],
      ],
    },
    background,
    padding,
  ],
  Container: [
    background,
    color("borderColor", "Border color"),
    { kind: "number", group: "style", key: "borderRadius", label: "Border radius (px)", min: 0 },
    padding,
  ],
  Avatar: [
    { kind: "text", group: "props", key: "imageUrl", label: "Image URL", hint: LIQUID },
    { kind: "text", group: "props", key: "alt", label: "Alt text" },
    { kind: "number", group: "props", key: "size", label: "Size (px)", min: 1 },
    {
      kind: "select",
      group: "props",
      key: "shape",
      label: "Shape",
      options: [
        ["circle", "Circle"],
        ["square", "Square"],
        ["rounded", "Rounded"],
      ],
    },
    align(),
    padding,
  ],
};
