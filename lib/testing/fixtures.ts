import { addDomain } from "@/lib/domains/add-domain";
import { basicAuthHeader, createApiKey } from "@/lib/api-keys/create-api-key";
import { createTemplate, type CreateTemplateInput } from "@/lib/templates/create-template";
import { createWorkspace } from "@/lib/workspaces/create-workspace";

/**
 * A fresh workspace per test: tests on the shared PostgreSQL database never see each other's rows.
 * Test mode is off unless asked (most tests send to arbitrary addresses); example.com is verified.
 */
export async function createTestWorkspace(options: { testMode?: boolean; name?: string } = {}) {
  const workspace = await createWorkspace({ name: options.name ?? "Test workspace", testMode: options.testMode ?? false });
  const domain = await addDomain({ workspaceId: workspace.id, name: "example.com", verified: true });
  const key = await createApiKey({ workspaceId: workspace.id, name: "test key" });
  return {
    workspace,
    domain,
    key,
    authorization: basicAuthHeader(key.id, key.password),
    createTemplate: (input: Partial<CreateTemplateInput> = {}) =>
      createTemplate({
        workspaceId: workspace.id,
        name: "Welcome",
        subject: "Welcome, {{ name }}",
        bodyHtml: '<p>Hello {{ name }}, <a href="https://example.com/start">get started</a>.</p>',
        fromAddress: "Acme <hello@example.com>",
        ...input,
      }),
  };
}
