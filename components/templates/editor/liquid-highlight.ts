import {
  Decoration,
  MatchDecorator,
  ViewPlugin,
  type DecorationSet,
  type EditorView,
  type ViewUpdate,
} from "@codemirror/view";

/**
 * Marks Liquid output `{{ … }}` and tags `{% … %}` inside any language (HTML, plain text, one-line
 * fields), so they stand out from the markup around them. A decoration rather than a mixed parser:
 * Liquid may sit anywhere in HTML, even inside attribute values, which an HTML grammar would split.
 * MatchDecorator works line by line, so a tag spanning lines is left unmarked.
 */
const output = Decoration.mark({ class: "cm-liquid cm-liquid-output" });
const tag = Decoration.mark({ class: "cm-liquid cm-liquid-tag" });

const decorator = new MatchDecorator({
  regexp: /\{\{.*?\}\}|\{%.*?%\}/g,
  decoration: (match) => (match[0].startsWith("{{") ? output : tag),
});

export const liquidHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorator.createDeco(view);
    }
    update(update: ViewUpdate) {
      this.decorations = decorator.updateDeco(update, this.decorations);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
