/** A footer before `</body>` and a line in the text (docs/api.md#decided-unsubscribe-groups-suppression-contacts), unless already there. */
export function appendUnsubscribeLink(
  body: { bodyHtml: string; bodyText: string },
  url: string,
): { bodyHtml: string; bodyText: string } {
  let { bodyHtml, bodyText } = body;
  if (bodyHtml && !bodyHtml.includes(url)) {
    const footer =
      `<p style="margin-top:24px;font-size:12px;color:#6b7280">` +
      `Don't want these emails? <a href="${escapeAttribute(url)}">Unsubscribe</a>.</p>`;
    const close = bodyHtml.search(/<\/body\s*>/i);
    bodyHtml =
      close === -1 ? `${bodyHtml}\n${footer}` : `${bodyHtml.slice(0, close)}${footer}\n${bodyHtml.slice(close)}`;
  }
  if (!bodyText.includes(url)) bodyText = `${bodyText.replace(/\s+$/, "")}\n\nUnsubscribe: ${url}\n`;
  return { bodyHtml, bodyText };
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
