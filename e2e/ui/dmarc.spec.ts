import nodemailer from "nodemailer";
import { expect, test, type Page } from "@playwright/test";
import {
  FORWARDER_IP,
  RELAY_IP,
  SENDER_DOMAIN,
  SPOOF_IP,
  googleReportXml,
  gzip,
  microsoftReportXml,
  reportFilename,
  zip,
} from "../../lib/flows/inbound/dmarc/testing";
import { startDnsServer, type TestDnsServer } from "../../lib/testing/dns-server";
import { docsScreenshot } from "../docs-screenshot";
import { E2E_INBOUND_PORT } from "../fixtures";

// DMARC aggregate reports (docs/deliverability.md#dmarc-reports): an inbound route with the "Store DMARC reports"
// action, made in the dashboard, takes a Google-style (zip) and a Microsoft-style (gzip) report over SMTP; the worker's
// inbound-actions job stores them, and the sending domain's page shows the pass rate, what a stricter policy would stop
// and each source. With DELIVERY_PROVIDER=local nothing is this deployment's path, and the test DNS server holds no PTR
// records: every source is unknown, without a reverse DNS name.

// playwright.config.ts points the server's DNS_SERVERS here: the inbound domain's MX check, the reverse lookups.
const DNS_PORT = 5391;
const marker = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const senderDomain = `dmarc-sender-${marker}.test`;
const inboundDomain = `dmarc-e2e-${marker}.test`;

let dns: TestDnsServer;

test.beforeAll(async () => {
  dns = await startDnsServer({ port: DNS_PORT });
});
test.afterAll(async () => {
  await dns?.close();
});
test.use({ viewport: { width: 1440, height: 900 } });

/** The fixture's report for our sending domain, covering the last two days (the summary reads the last 30). */
function forOurDomain(xml: string, end: number): string {
  return xml
    .replace(new RegExp(SENDER_DOMAIN.replace(".", "\\."), "gi"), senderDomain)
    .replace(/<begin>\d+<\/begin>/, `<begin>${end - 86_400}</begin>`)
    .replace(/<end>\d+<\/end>/, `<end>${end}</end>`);
}

async function sendReport(attachment: { filename: string; content: Buffer }, from: string): Promise<void> {
  const transport = nodemailer.createTransport({
    host: "127.0.0.1",
    port: E2E_INBOUND_PORT,
    secure: false,
    ignoreTLS: true,
  });
  try {
    await transport.sendMail({
      from,
      to: `dmarc@${inboundDomain}`,
      subject: `Report domain: ${senderDomain} Submitter: ${from.split("@")[1]} ${marker}`,
      text: "This is an aggregate report from a mailbox provider.",
      attachments: [attachment],
    });
  } finally {
    transport.close();
  }
}

/** Adds the sending domain the reports are about; answers its page's path. */
async function addSendingDomain(page: Page): Promise<string> {
  await page.goto("/domains");
  await page.getByLabel("Domain", { exact: true }).fill(senderDomain);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page).toHaveURL(/\/domains\/dom_[0-9A-Za-z]{16}$/);
  return new URL(page.url()).pathname;
}

/** Adds the inbound domain, publishes its MX on the test DNS server and verifies it: mail to it is then accepted. */
async function addInboundDomain(page: Page): Promise<void> {
  await page.goto("/inbound/domains");
  await page.getByRole("textbox", { name: "Domain" }).fill(inboundDomain);
  await page.getByRole("button", { name: "Add inbound domain" }).click();
  await expect(page).toHaveURL(/\/inbound\/domains\/idom_[0-9A-Za-z]{16}$/);
  const mxHost = (await page.getByTestId("mx-value").textContent())!.trim();
  dns.setMx(inboundDomain, [{ priority: 10, exchange: mxHost }]);
  await page.getByRole("button", { name: "Verify MX record" }).click();
  await expect(page.getByTestId("verify-result")).toContainText("Verified");
}

/** The route, through the dashboard form: the "Store DMARC reports" checkbox is its dmarc action. */
async function addDmarcRoute(page: Page): Promise<void> {
  const pattern = `dmarc@${inboundDomain}`;
  const add = page.getByRole("form", { name: "Add a route" });
  await add.getByLabel("Recipient pattern").fill(pattern);
  await add.getByLabel("Send the email.received webhook").uncheck();
  await add.getByLabel("Store DMARC reports").check();
  await add.getByRole("button", { name: "Add route" }).click();
  const route = page.locator(`[data-testid="inbound-route"][data-pattern="${pattern}"]`);
  await expect(route.locator("p").first()).toHaveText("store, store DMARC reports");
  // Editing shows the action as saved.
  await route.getByText("Edit").click();
  const edit = route.getByRole("form", { name: `Edit route ${pattern}` });
  await expect(edit.getByLabel("Store DMARC reports")).toBeChecked();
  await expect(edit.getByLabel("Send the email.received webhook")).not.toBeChecked();
}

/** Two reports as Google (zip) and Microsoft (gzip) send them; Microsoft's is the newer, with p=quarantine. */
async function sendReports(): Promise<void> {
  const end = Math.floor(Date.now() / 1000) - 86_400;
  const google = forOurDomain(googleReportXml({ reportId: `google-${marker}` }), end - 3_600);
  const microsoft = forOurDomain(microsoftReportXml({ reportId: `outlook-${marker}` }), end);
  const named = (filename: string) => filename.replace(SENDER_DOMAIN, senderDomain);
  const googleXmlName = named(reportFilename.google).replace(/\.zip$/, ".xml");
  await sendReport(
    { filename: named(reportFilename.google), content: zip(googleXmlName, google) },
    "noreply-dmarc-support@google.com",
  );
  await sendReport(
    { filename: named(reportFilename.microsoft), content: gzip(microsoft) },
    "dmarcreport@microsoft.com",
  );
}

/** Sideways overflow of the page, and of the sources table beyond its frame (it then scrolls inside it). */
function overflow(page: Page): Promise<{ page: number; table: number }> {
  return page.evaluate(() => {
    const table = document.querySelector('table[aria-label="DMARC sources"]')!;
    return {
      page: document.documentElement.scrollWidth - window.innerWidth,
      table: table.scrollWidth - table.parentElement!.clientWidth,
    };
  });
}

test("DMARC reports: a route stores them, and the domain's page shows pass rate, failing mail and sources", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const domainPath = await addSendingDomain(page);
  const card = page.getByTestId("dmarc");
  await expect(card).toContainText("No DMARC reports in the last 30 days");
  await expect(card).toContainText("rua=");
  await addInboundDomain(page);
  await addDmarcRoute(page);
  await sendReports();

  // The worker's inbound-actions job stores them on its own: reload until both show.
  await page.goto(domainPath);
  await expect(async () => {
    await page.reload();
    await expect(card).toContainText("2 reports", { timeout: 1_000 });
  }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });
  await expect(card).toContainText("google.com");
  await expect(card).toContainText("Enterprise Outlook");
  await expect(card).toContainText("p=quarantine");
  // Each report: 120 relayed (pass), 7 spoofed (fail), 3 forwarded (DKIM survives): 246 of 260 pass.
  await expect(page.getByTestId("dmarc-pass-rate")).toHaveText(
    "94.6 % of 260 messages pass DMARC (SPF or DKIM aligned).",
  );
  const failing = page.getByTestId("dmarc-failing");
  await expect(failing).toContainText("14 messages from unknown sources would be stopped (possible spoofing)");
  await expect(failing).toContainText("0 from your own sending path; 0 from known services");
  await expect(page.getByTestId("dmarc-fix-first")).toHaveCount(0);

  // Most messages first; nothing is this deployment's (DELIVERY_PROVIDER=local) nor named by reverse DNS.
  const sources = page.getByTestId("dmarc-source");
  const cells = (ip: string) => page.locator(`[data-testid="dmarc-source"][data-ip="${ip}"]`).getByRole("cell");
  await expect(sources).toHaveCount(3);
  await expect(sources.first()).toHaveAttribute("data-ip", RELAY_IP);
  for (const ip of [RELAY_IP, SPOOF_IP, FORWARDER_IP])
    await expect(sources.and(page.locator(`[data-ip="${ip}"]`))).toHaveAttribute("data-kind", "unknown");
  await expect(cells(SPOOF_IP)).toHaveText([SPOOF_IP, "—", "Unknown", "14", "0 (0 %)", "0", "0"]);
  await expect(cells(RELAY_IP).nth(4)).toHaveText("240 (100 %)");
  // Forwarded: DKIM survives, SPF checks the forwarder.
  await expect(cells(FORWARDER_IP).nth(5)).toHaveText("0");
  await expect(cells(FORWARDER_IP).nth(6)).toHaveText("6");
  await docsScreenshot(page, "domain-dmarc");

  // The table fits its frame on a laptop; on a phone it scrolls inside it, never the page.
  await page.setViewportSize({ width: 1366, height: 768 });
  expect((await overflow(page)).table).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  expect((await overflow(page)).page).toBeLessThanOrEqual(0);
});
