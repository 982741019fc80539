import "server-only";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerOptions } from "smtp-server";
import { env, type Env } from "@/lib/foundation/env";
import { log } from "@/lib/foundation/log";
import { acceptSubmittedMail } from "./accept-submitted-mail";
import { authenticate, checkMailFrom, checkRcptTo } from "./submission-handlers";
import { readTlsPair, watchTlsFiles, type TlsFileWatch } from "@/lib/foundation/tls-files";

export type SubmissionSettings = Pick<
  Env,
  | "SMTP_SUBMISSION_PORT"
  | "SMTP_SUBMISSION_TLS_PORT"
  | "SMTP_SUBMISSION_HOST"
  | "SMTP_SUBMISSION_HOSTNAME"
  | "SMTP_TLS_CERT"
  | "SMTP_TLS_KEY"
  | "SMTP_ALLOW_INSECURE_AUTH"
  | "SMTP_MAX_MESSAGE_BYTES"
>;

export interface SubmissionListener {
  /** The bound ports (0 in the settings picks a free one: tests). */
  port: number | null;
  tlsPort: number | null;
  close(): Promise<void>;
}

/** STARTTLS and implicit-TLS ports, both optional (docs/self-hosting.md#smtp-submission); null when neither is set. */
export async function startSubmissionServer(
  overrides: Partial<SubmissionSettings> & { tlsReloadIntervalMs?: number } = {},
): Promise<SubmissionListener | null> {
  const settings: SubmissionSettings = { ...env(), ...overrides };
  const {
    SMTP_SUBMISSION_PORT: port,
    SMTP_SUBMISSION_TLS_PORT: tlsPort,
    SMTP_TLS_CERT: cert,
    SMTP_TLS_KEY: key,
  } = settings;
  if (port === undefined && tlsPort === undefined) return null;
  if (!cert || !key) {
    if (tlsPort !== undefined) throw new Error("SMTP_SUBMISSION_TLS_PORT needs SMTP_TLS_CERT and SMTP_TLS_KEY.");
    if (!settings.SMTP_ALLOW_INSECURE_AUTH) {
      throw new Error(
        "SMTP_SUBMISSION_PORT needs SMTP_TLS_CERT and SMTP_TLS_KEY (AUTH requires STARTTLS), or SMTP_ALLOW_INSECURE_AUTH=true for clients on this host only.",
      );
    }
  }
  const pair = cert && key ? readTlsPair(cert, key) : null;
  const servers: SMTPServer[] = [];
  const plain = port === undefined ? null : createServer(settings, pair, false);
  const secure = tlsPort === undefined ? null : createServer(settings, pair, true);
  let watch: TlsFileWatch | null = null;
  try {
    const boundPort = plain ? await listen(plain, port!, settings.SMTP_SUBMISSION_HOST, servers) : null;
    const boundTlsPort = secure ? await listen(secure, tlsPort!, settings.SMTP_SUBMISSION_HOST, servers) : null;
    if (cert && key)
      watch = watchTlsFiles(
        cert,
        key,
        (next) => servers.forEach((server) => server.updateSecureContext(next)),
        overrides.tlsReloadIntervalMs,
      );
    log.info("smtp submission listening", { port: boundPort, tlsPort: boundTlsPort, tls: Boolean(pair) });
    return { port: boundPort, tlsPort: boundTlsPort, close: () => closeAll(servers, watch) };
  } catch (error) {
    await closeAll(servers, watch);
    throw error;
  }
}

function createServer(
  settings: SubmissionSettings,
  pair: { key: Buffer; cert: Buffer } | null,
  secure: boolean,
): SMTPServer {
  const maxBytes = settings.SMTP_MAX_MESSAGE_BYTES;
  const allowInsecure = settings.SMTP_ALLOW_INSECURE_AUTH;
  const options: SMTPServerOptions = {
    secure,
    ...(pair ?? {}),
    name: settings.SMTP_SUBMISSION_HOSTNAME,
    banner: "Postwerk SMTP submission",
    size: maxBytes,
    authMethods: ["PLAIN", "LOGIN"],
    // smtp-server's own rule refuses AUTH before TLS; ours (mayAuthenticate) allows it on loopback only.
    allowInsecureAuth: allowInsecure,
    disabledCommands: pair ? [] : ["STARTTLS"],
    authRequiredMessage:
      "5.7.0 Authentication required: AUTH with an API key first. This service relays for no one else.",
    disableReverseLookup: true,
    logger: false,
    onAuth: (auth, session, callback) => {
      authenticate(auth, session, allowInsecure).then((user) => callback(null, { user }), callback);
    },
    onMailFrom: (address, session, callback) => {
      checkMailFrom(address, session).then(() => callback(), callback);
    },
    onRcptTo: (address, session, callback) => {
      try {
        checkRcptTo(address, session);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    onData: (stream, session, callback) => {
      acceptSubmittedMail(stream, session, maxBytes).then((text) => callback(null, text), callback);
    },
  };
  const server = new SMTPServer(options);
  server.on("error", (error) => log.warn("smtp submission: connection error", { error: error.message }));
  return server;
}

function listen(server: SMTPServer, port: number, host: string, servers: SMTPServer[]): Promise<number> {
  return new Promise((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(port, host, () => {
      server.server.off("error", reject);
      servers.push(server);
      resolve((server.server.address() as AddressInfo).port);
    });
  });
}

async function closeAll(servers: SMTPServer[], watch: TlsFileWatch | null): Promise<void> {
  watch?.stop();
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
}
