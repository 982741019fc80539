/**
 * Values shared by playwright.config.ts (which hands them to the server it starts) and the specs.
 * The server seeds its demo workspace with this exact key (SEED_API_KEY), since the test process
 * cannot open the server's embedded database.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The SMTP submission listener of the e2e server (loopback only, AUTH without TLS). */
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 3125);
/** The inbound listener of the e2e server (loopback only): replies and mail to inbound domains come in here. */
export const E2E_INBOUND_PORT = Number(process.env.E2E_INBOUND_PORT ?? 3126);
/** The e2e server's BOUNCE_DOMAIN: return paths and reply tokens (`r-…@`) are addressed to it. */
export const E2E_BOUNCE_DOMAIN = "bounces.e2e.postwerk.test";
/** Wiped before every run, so each run starts from a fresh database and a freshly seeded demo. */
export const E2E_DATA_DIR = ".data/e2e";

export const E2E_API_USERNAME = "key_E2E0000000000000";
export const E2E_API_PASSWORD = "e2e-secret-e2e-secret-e2e-secret-00";
export const E2E_SEED_API_KEY = `${E2E_API_USERNAME}:${E2E_API_PASSWORD}`;

export const e2eHttpCredentials = { username: E2E_API_USERNAME, password: E2E_API_PASSWORD };

export function basicAuth(username = E2E_API_USERNAME, password = E2E_API_PASSWORD): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

/** The first owner, created through /setup by e2e/ui/setup.spec.ts; its session is saved for the other specs. */
export const E2E_OWNER = { name: "Olivia Owner", email: "owner@e2e.test", password: "owner-password-e2e" };
export const E2E_OWNER_STATE = "e2e/.auth/owner.json";
