import "server-only";
import { verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { AppError, invalidParameter } from "@/lib/foundation/errors";
import { snsSigningKey } from "./sns-certificates";

/** The SNS HTTP(S) envelope (https://docs.aws.amazon.com/sns/latest/dg/http-notification-json.html). */
export const snsMessageSchema = z
  .object({
    Type: z.enum(["Notification", "SubscriptionConfirmation", "UnsubscribeConfirmation"]),
    MessageId: z.string().min(1).max(128),
    TopicArn: z.string().min(1).max(1024),
    Message: z.string(),
    Timestamp: z.string().min(1).max(64),
    SignatureVersion: z.enum(["1", "2"]),
    Signature: z.string().min(1).max(4096),
    SigningCertURL: z.string().min(1).max(2048),
    Subject: z.string().nullish(),
    Token: z.string().max(2048).optional(),
    SubscribeURL: z.string().max(4096).optional(),
  })
  .loose();
export type SnsMessage = z.infer<typeof snsMessageSchema>;

/** SNS retries with the same signed Timestamp for at most an hour: anything older is a replay. */
export const SNS_MAX_AGE_MS = 65 * 60 * 1000;
/** Clock skew tolerated for a Timestamp in the future. */
const MAX_SKEW_MS = 5 * 60 * 1000;

/** The fields each type signs, in SNS's order; absent optional fields (Subject) are left out. */
const SIGNED_FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const;

export function snsCanonicalString(message: SnsMessage): string {
  let text = "";
  for (const field of SIGNED_FIELDS[message.Type]) {
    const value = message[field];
    if (value !== undefined && value !== null) text += `${field}\n${value}\n`;
  }
  return text;
}

/** Not JSON → INVALID_JSON; unsigned → UNAUTHORIZED; malformed → 400 naming the field. */
export function parseSnsMessage(body: string): SnsMessage {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new AppError("INVALID_JSON", "The body is not an SNS message (JSON).");
  }
  const fields = json && typeof json === "object" ? (json as Record<string, unknown>) : {};
  if (typeof fields.Signature !== "string" || typeof fields.SigningCertURL !== "string") {
    // Raw message delivery sends the bare SES event, unsigned: refused like any unsigned body.
    throw new AppError(
      "UNAUTHORIZED",
      "Not a signed SNS message: Signature and SigningCertURL are required (turn raw message delivery off).",
    );
  }
  const parsed = snsMessageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidParameter(issue.path.join("."), `Not an SNS message: ${issue.message}`);
  }
  const message = parsed.data;
  if (message.Type !== "Notification" && (!message.Token || !message.SubscribeURL)) {
    throw invalidParameter(message.Token ? "SubscribeURL" : "Token", `A ${message.Type} needs Token and SubscribeURL.`);
  }
  return message;
}

/** UNAUTHORIZED for a Timestamp outside the window, a certificate not SNS's, or a signature that does not verify. */
export async function verifySnsMessage(message: SnsMessage, now = Date.now()): Promise<void> {
  const signedAt = Date.parse(message.Timestamp);
  if (Number.isNaN(signedAt))
    throw new AppError("UNAUTHORIZED", "The SNS Timestamp is unreadable.", { param: "Timestamp" });
  if (now - signedAt > SNS_MAX_AGE_MS) {
    throw new AppError(
      "UNAUTHORIZED",
      `The SNS message is too old (signed ${message.Timestamp}): refused as a replay.`,
      { param: "Timestamp" },
    );
  }
  if (signedAt - now > MAX_SKEW_MS) {
    throw new AppError("UNAUTHORIZED", `The SNS message is signed in the future (${message.Timestamp}).`, {
      param: "Timestamp",
    });
  }
  const key = await snsSigningKey(message.SigningCertURL);
  const algorithm = message.SignatureVersion === "1" ? "sha1" : "sha256";
  if (!signatureMatches(algorithm, snsCanonicalString(message), key, message.Signature)) {
    throw new AppError("UNAUTHORIZED", "The SNS signature does not match the message.", { param: "Signature" });
  }
}

function signatureMatches(algorithm: string, text: string, key: KeyObject, signature: string): boolean {
  try {
    return verify(algorithm, Buffer.from(text, "utf8"), key, Buffer.from(signature, "base64"));
  } catch {
    // A key of another kind than the signature's (an EC certificate): not SNS's signature either.
    return false;
  }
}
