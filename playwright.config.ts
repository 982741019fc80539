import "./server/check-node.mjs"; // first: a clear error on an unsupported Node
import { defineConfig, devices } from "@playwright/test";
import {
  E2E_BASE_URL,
  E2E_BOUNCE_DOMAIN,
  E2E_DATA_DIR,
  E2E_INBOUND_PORT,
  E2E_OWNER_STATE,
  E2E_PORT,
  E2E_SEED_API_KEY,
  E2E_SMTP_PORT,
} from "./e2e/fixtures";

const CI = Boolean(process.env.CI);

/**
 * Playwright drives the built app (next build, then server/server.mjs as `npm start` runs it) in
 * Debian's Chromium; no browser is downloaded. The server gets a fresh embedded database and seeds
 * the e2e key at boot.
 */
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    // Without the networking flags Chromium keeps trying to reach the internet (docs/development.md#traps, trap 11).
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  },
};

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: CI,
  reporter: "list",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  use: {
    baseURL: E2E_BASE_URL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    // First: /setup creates the owner and saves the signed-in session for every other spec.
    { name: "setup", testMatch: /ui\/setup\.spec\.ts/, use: { ...chromium } },
    {
      name: "chromium",
      dependencies: ["setup"],
      testIgnore: /ui\/setup\.spec\.ts/,
      use: { ...chromium, storageState: E2E_OWNER_STATE },
    },
  ],
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node server/start.mjs --hostname 127.0.0.1 --port ${E2E_PORT}`,
    url: `${E2E_BASE_URL}/login`,
    timeout: 600_000,
    reuseExistingServer: !CI,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      PORT: String(E2E_PORT),
      APP_URL: E2E_BASE_URL,
      DATA_DIR: E2E_DATA_DIR,
      // Always the embedded database, even when the shell points at a PostgreSQL server.
      DATABASE_URL: "",
      SEED_DEMO: "true",
      SEED_API_KEY: E2E_SEED_API_KEY,
      RUN_WORKER: "true",
      DELIVERY_PROVIDER: "local",
      LOG_LEVEL: "warn",
      // Domain verification asks the DNS server e2e/ui/admin.spec.ts starts on this port.
      DNS_SERVERS: "127.0.0.1:5391",
      // e2e/ui/webhooks.spec.ts delivers to a receiver it runs on loopback, over plain HTTP.
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WEBHOOKS_ALLOW_HTTP: "true",
      // e2e/ui/providers.spec.ts adds an SMTP connection to a relay on loopback (nothing listens there; it is never sent through).
      PROVIDERS_ALLOW_PRIVATE: "true",
      // e2e/ui/wording.spec.ts submits a message over SMTP, from this host only (no TLS certificate here).
      SMTP_SUBMISSION_PORT: String(E2E_SMTP_PORT),
      SMTP_SUBMISSION_HOST: "127.0.0.1",
      SMTP_ALLOW_INSECURE_AUTH: "true",
      // e2e/ui/inbound.spec.ts's "Simulate a reply" hands a reply to the inbound listener here, from this host only.
      SMTP_INBOUND_PORT: String(E2E_INBOUND_PORT),
      SMTP_INBOUND_HOST: "127.0.0.1",
      BOUNCE_DOMAIN: E2E_BOUNCE_DOMAIN,
    },
  },
});
