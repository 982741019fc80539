import "server-only";
import { AppError } from "@/lib/foundation/errors";
import { errorFields, log } from "@/lib/foundation/log";
import { isSnsUrl } from "./sns-certificates";
import type { SnsMessage } from "./sns-message";

const CONFIRM_TIMEOUT_MS = 10_000;

/**
 * The SubscribeURL is signed but checked anyway, so this endpoint never fetches anything else. Anything but a 200
 * → SERVICE_UNAVAILABLE, so SNS sends the confirmation again.
 */
export async function confirmSnsSubscription(message: SnsMessage): Promise<void> {
  const url = message.SubscribeURL ?? "";
  if (!isSnsUrl(url)) {
    throw new AppError("UNAUTHORIZED", "SubscribeURL is not an SNS URL (https://sns.<region>.amazonaws.com/…).", {
      param: "SubscribeURL",
    });
  }
  let status: number;
  try {
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(CONFIRM_TIMEOUT_MS) });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    log.warn("SNS subscription could not be confirmed", { topicArn: message.TopicArn, ...errorFields(error) });
    throw new AppError("SERVICE_UNAVAILABLE", "SNS could not be reached to confirm the subscription; retry later.");
  }
  if (status !== 200) {
    log.warn("SNS refused the subscription confirmation", { topicArn: message.TopicArn, status });
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      `SNS answered HTTP ${status} to the subscription confirmation; retry later.`,
    );
  }
  log.info("SNS subscription confirmed", { topicArn: message.TopicArn });
}
