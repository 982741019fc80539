import { randomUUID, sign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { selfSignedCertificate } from "./self-signed-certificate";

/**
 * A stand-in for SNS as an HTTP(S) subscriber sees it: it signs messages the way SNS does (the
 * canonical string of each type, SignatureVersion 1 = SHA1withRSA, 2 = SHA256withRSA) with a key whose
 * self-signed certificate it serves, and it answers the SubscribeURL of confirmations. The service
 * trusts its origin only through SNS_TEST_TRUSTED_ORIGIN (a test setting, lib/foundation/env.ts).
 */
export interface FakeSns {
  /** Give as SNS_TEST_TRUSTED_ORIGIN. */
  origin: string;
  certificateUrl: string;
  /** A certificate of another key, also served: a message signed with ours but naming it fails. */
  otherCertificateUrl: string;
  /** Tokens of the SubscribeURL visits. */
  confirmations: string[];
  /** Paths of every GET of a `.pem` (served or not): how often the service fetched a certificate. */
  certificateFetches: string[];
  /** A signed SNS envelope (the JSON body SNS posts) for a Notification. */
  notification(message: string, options?: SignOptions): Record<string, unknown>;
  subscriptionConfirmation(options?: SignOptions & { subscribeUrl?: string }): Record<string, unknown>;
  unsubscribeConfirmation(options?: SignOptions): Record<string, unknown>;
  close(): Promise<void>;
}

export interface SignOptions {
  topicArn?: string;
  messageId?: string;
  timestamp?: Date;
  version?: "1" | "2";
  subject?: string;
  certificateUrl?: string;
}

export const TEST_TOPIC_ARN = "arn:aws:sns:us-east-1:123456789012:postwerk-ses-events";

const FIELDS = {
  Notification: ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"],
  SubscriptionConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
  UnsubscribeConfirmation: ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"],
} as const;

export async function startFakeSns(): Promise<FakeSns> {
  const ours = selfSignedCertificate();
  const other = selfSignedCertificate();
  const confirmations: string[] = [];
  const certificateFetches: string[] = [];
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (url.pathname.endsWith(".pem")) certificateFetches.push(url.pathname);
    if (url.pathname === "/cert.pem") return void response.writeHead(200).end(ours.pem);
    if (url.pathname === "/other.pem") return void response.writeHead(200).end(other.pem);
    if (url.pathname === "/" && url.searchParams.get("Action") === "ConfirmSubscription") {
      confirmations.push(url.searchParams.get("Token") ?? "");
      return void response.writeHead(200, { "content-type": "text/xml" }).end("<ConfirmSubscriptionResponse/>");
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const certificateUrl = `${origin}/cert.pem`;

  function signed(type: keyof typeof FIELDS, fields: Record<string, string | undefined>, options: SignOptions) {
    const version = options.version ?? "1";
    const envelope: Record<string, string | undefined> = {
      Type: type,
      MessageId: options.messageId ?? randomUUID(),
      TopicArn: options.topicArn ?? TEST_TOPIC_ARN,
      Subject: options.subject,
      Timestamp: (options.timestamp ?? new Date()).toISOString(),
      ...fields,
    };
    const text = FIELDS[type]
      .filter((field) => envelope[field] !== undefined)
      .map((field) => `${field}\n${envelope[field]}\n`)
      .join("");
    const signature = sign(version === "1" ? "sha1" : "sha256", Buffer.from(text, "utf8"), ours.privateKey).toString(
      "base64",
    );
    return {
      ...envelope,
      SignatureVersion: version,
      Signature: signature,
      SigningCertURL: options.certificateUrl ?? certificateUrl,
    };
  }

  return {
    origin,
    certificateUrl,
    otherCertificateUrl: `${origin}/other.pem`,
    confirmations,
    certificateFetches,
    notification: (message, options = {}) =>
      signed("Notification", { Message: message, UnsubscribeURL: `${origin}/?Action=Unsubscribe` }, options),
    subscriptionConfirmation: (options = {}) => {
      const token = randomUUID().replaceAll("-", "");
      const topic = options.topicArn ?? TEST_TOPIC_ARN;
      return signed(
        "SubscriptionConfirmation",
        {
          Message: `You have chosen to subscribe to the topic ${topic}.`,
          Token: token,
          SubscribeURL:
            options.subscribeUrl ??
            `${origin}/?Action=ConfirmSubscription&TopicArn=${encodeURIComponent(topic)}&Token=${token}`,
        },
        options,
      );
    },
    unsubscribeConfirmation: (options = {}) =>
      signed(
        "UnsubscribeConfirmation",
        {
          Message: "You have chosen to deactivate subscription.",
          Token: "t0ken",
          SubscribeURL: `${origin}/?Action=ConfirmSubscription&Token=t0ken`,
        },
        options,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An SES event-publishing event (the Message of a Notification), as SES writes it. */
export function sesEvent(
  eventType: string,
  sesMessageId: string,
  detail: Record<string, unknown> = {},
  sentAt = new Date(),
): string {
  return JSON.stringify({
    eventType,
    mail: {
      timestamp: sentAt.toISOString(),
      source: "hello@example.com",
      sendingAccountId: "123456789012",
      messageId: sesMessageId,
      destination: ["ada@example.org"],
      headersTruncated: false,
      tags: { "ses:configuration-set": ["postwerk-events"] },
    },
    ...detail,
  });
}
