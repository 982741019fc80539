import { pretty } from "@react-email/render";

/**
 * Starters land in the code editor, so they are written out indented, one element a line, instead of
 * the single minified line React renders. Prettier wraps long text at spaces, which would split a
 * Liquid tag over two lines (`{{\n order.total }}`): still valid Liquid, but hard to read and to search.
 * So the spaces inside tags are swapped for a private-use character while it formats, then restored.
 */
const LIQUID_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const KEEP_TOGETHER = "\uE000";

export async function formatLiquidHtml(html: string): Promise<string> {
  const guarded = html.replace(LIQUID_TAG, (tag) => tag.replace(/ /g, KEEP_TOGETHER));
  const formatted = await pretty(guarded, { printWidth: 120 });
  return formatted.replaceAll(KEEP_TOGETHER, " ");
}
