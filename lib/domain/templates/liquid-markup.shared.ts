/**
 * React escapes text and attributes when it renders a block document or a react-email starter, so a
 * Liquid tag typed into a block (`{{ "now" | date: "%Y" }}`, `{% if a > 1 %}`) comes out as
 * `{{ &quot;now&quot; … }}` and would no longer parse. Inside Liquid delimiters only, the entities React
 * writes are turned back into characters; the Liquid engine escapes what the tags output at render time.
 */
const ENTITIES: Record<string, string> = { "&quot;": '"', "&#x27;": "'", "&#39;": "'", "&amp;": "&", "&lt;": "<", "&gt;": ">" };

export function unescapeLiquidTags(html: string): string {
  return html.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, (tag) => tag.replace(/&quot;|&#x27;|&#39;|&amp;|&lt;|&gt;/g, (entity) => ENTITIES[entity]));
}
