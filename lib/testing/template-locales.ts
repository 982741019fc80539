import { createTestWorkspace } from "./fixtures";
import { callApi } from "./http";

// A template using translation keys and calls to its locale endpoints (app/api/v1/templates/locales*.test.ts).

export const LOCALISED_BODY =
  '<p>{% t "hello", name: name %} {{ "cart.items" | t: count: n }}</p>{% if vip %}{% t "vip.note" %}{% endif %}';
export const EN_MESSAGES = {
  hello: "Hello {name}",
  "cart.items": "{count, plural, one {# item} other {# items}}",
  "vip.note": "Thanks for being a VIP",
};

export async function localisedTemplateApi() {
  const ws = await createTestWorkspace();
  const template = await ws.createTemplate({
    name: "Order receipt",
    subject: "Hi {{ name }}",
    bodyHtml: LOCALISED_BODY,
  });
  const auth = ws.authorization;
  const base = `/api/v1/templates/${template.id}/locales`;
  const put = (locale: string, body: unknown, headers: Record<string, string> = {}) =>
    callApi(`${base}/${locale}`, { method: "PUT", authorization: auth, body, headers });
  const get = (locale: string) => callApi(`${base}/${locale}`, { authorization: auth });
  const remove = (locale: string, headers: Record<string, string> = {}) =>
    callApi(`${base}/${locale}`, { method: "DELETE", authorization: auth, headers });
  const importTable = (locale: string, body: unknown) =>
    callApi(`${base}/${locale}/messages`, { method: "PUT", authorization: auth, body });
  const exportTable = (locale: string) => callApi(`${base}/${locale}/messages`, { authorization: auth });
  return { ws, template, auth, base, put, get, remove, importTable, exportTable };
}
