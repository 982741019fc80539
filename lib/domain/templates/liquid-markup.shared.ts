// React escapes a Liquid tag typed into a block (`{{ &quot;now&quot; }}`), which would no longer parse: inside Liquid
// delimiters only, its entities are turned back into characters (Liquid escapes output at render time).
const ENTITIES: Record<string, string> = {
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
};

export function unescapeLiquidTags(html: string): string {
  return html.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (tag) =>
    tag.replace(/&quot;|&#x27;|&#39;|&amp;|&lt;|&gt;/g, (entity) => ENTITIES[entity]),
  );
}
