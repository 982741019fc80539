import { pretty } from "@react-email/render";

// Starters are written out indented for the code editor. Prettier would split a Liquid tag at its spaces, so they are
// swapped for a private-use character while it formats.
const LIQUID_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const KEEP_TOGETHER = "\uE000";

export async function formatLiquidHtml(html: string): Promise<string> {
  const guarded = html.replace(LIQUID_TAG, (tag) => tag.replace(/ /g, KEEP_TOGETHER));
  const formatted = await pretty(guarded, { printWidth: 120 });
  return formatted.replaceAll(KEEP_TOGETHER, " ");
}
