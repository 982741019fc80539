import "server-only";
import { env } from "@/lib/env";
import type { DeliveryProvider } from "./provider";
import { localProvider } from "./providers/local";

/**
 * The delivery provider chosen by DELIVERY_PROVIDER (ARCHITECTURE.md rule 6). Called when workers
 * start, so a misconfiguration stops the process with a plain message instead of failing each job.
 */
export function getDeliveryProvider(): DeliveryProvider {
  const name = env().DELIVERY_PROVIDER;
  switch (name) {
    case "local":
      return localProvider;
    case "smtp":
    case "resend":
      throw new Error(
        `DELIVERY_PROVIDER=${name} is not implemented yet. Unset DELIVERY_PROVIDER to use the built-in local inbox provider.`,
      );
  }
}
