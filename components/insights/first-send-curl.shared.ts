import { SIMULATOR_DOMAIN } from "@/lib/foundation/addresses/simulator.shared";
import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";

export interface FirstSendSettings {
  /** APP_URL: the API is served under it at /api/v1. */
  appUrl: string;
  deliveryProvider: string;
  /** The shown workspace's test mode: live mail then goes only to members and simulator addresses. */
  testMode: boolean;
}

/** A workspace's first send: from the test sender, to an address this workspace and provider accept as is. */
export function firstSendBody(settings: FirstSendSettings) {
  // The local inbox keeps any address; elsewhere only the simulator's stay on this machine (and pass test mode).
  const anyAddress = settings.deliveryProvider === "local" && !settings.testMode;
  return {
    from: TEST_SENDER,
    to: anyAddress ? "Ada <ada@example.org>" : `delivered@${SIMULATOR_DOMAIN}`,
    subject: "Hello from Postwerk",
    bodyHtml: '<p>It works. <a href="https://example.org">A link</a></p>',
  };
}

/** The curl the Overview shows; the key comes from the shell, as the README and the boot banner export it. */
export function firstSendCurl(settings: FirstSendSettings): string {
  const json = JSON.stringify(firstSendBody(settings)).replaceAll("'", "'\\''"); // a `'` ends the quoting: '\''
  return [
    `curl ${settings.appUrl}/api/v1/email_messages \\`,
    `  -u "$KEY_USERNAME:$KEY_PASSWORD" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${json}'`,
  ].join("\n");
}
