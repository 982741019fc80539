import "server-only";
import { env } from "@/lib/foundation/env";
import type { DeliveryProvider } from "./provider";
import { localProvider } from "./providers/local/local-provider";
import { resendProvider } from "./providers/resend/resend-provider";
import { getSesProvider } from "./providers/ses/ses-provider";
import { getSmtpProvider } from "./providers/smtp/smtp-provider";

/** Called when workers start, so a misconfiguration stops the process with a plain message, not failed jobs. */
export function getDeliveryProvider(): DeliveryProvider {
  const name = env().DELIVERY_PROVIDER;
  switch (name) {
    case "local":
      return localProvider;
    case "resend": {
      const { RESEND_API_KEY, RESEND_BASE_URL } = env();
      if (!RESEND_API_KEY) {
        throw new Error(
          "DELIVERY_PROVIDER=resend needs RESEND_API_KEY: an API key with sending access from https://resend.com/api-keys.",
        );
      }
      return resendProvider({ apiKey: RESEND_API_KEY, baseUrl: RESEND_BASE_URL });
    }
    case "smtp":
      return getSmtpProvider();
    case "ses":
      return getSesProvider();
  }
}
