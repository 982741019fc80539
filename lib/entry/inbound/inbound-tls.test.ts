import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { X509Certificate } from "node:crypto";
import nodemailer from "nodemailer";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { inboundMessages } from "@/db/schema";
import { addTestInboundDomain } from "@/lib/domain/inbound/route-testing";
import { env } from "@/lib/foundation/env";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { selfSignedCertificate, type TestCertificate } from "@/lib/testing/self-signed-certificate";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { useSettings } from "@/lib/testing/settings";
import { waitFor } from "@/lib/testing/wait-for";
import { startInboundServer, type InboundServer } from "./inbound-server";
import { inboundTls } from "./start-inbound";
import { RawSmtp } from "@/lib/entry/submission/testing";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "inbound-tls-"));
const certFile = path.join(dir, "cert.pem");
const keyFile = path.join(dir, "key.pem");
let withTls: InboundServer;
let plain: InboundServer;
let dns: TestDnsServer;

function writePair(certificate: TestCertificate): string {
  fs.writeFileSync(keyFile, certificate.privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.writeFileSync(certFile, certificate.pem);
  return new X509Certificate(certificate.pem).fingerprint256;
}

const base = {
  port: 0,
  host: "127.0.0.1",
  bounceDomain: null,
  maxBytes: 1024 * 1024,
  maxConnections: 5,
  timeoutMs: 10_000,
};

beforeAll(async () => {
  dns = await startDnsServer();
  useSettings({ DNS_SERVERS: `127.0.0.1:${dns.port}` });
  writePair(selfSignedCertificate("mx.test.local"));
  withTls = await startInboundServer({ ...base, tls: { certPath: certFile, keyPath: keyFile, reloadIntervalMs: 50 } });
  plain = await startInboundServer(base);
});
afterAll(async () => {
  await withTls.close();
  await plain.close();
  await dns.close();
  useSettings({ DNS_SERVERS: undefined });
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends one mail with a client that refuses to go on without STARTTLS. */
async function sendOverTls(port: number, to: string, subject: string): Promise<void> {
  const client = nodemailer.createTransport({
    host: "127.0.0.1",
    port,
    secure: false,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
  });
  try {
    const envelope = { from: "ada@customer.test", to: [to] };
    await client.sendMail({ envelope, from: "ada@customer.test", to, subject, text: "Hello" });
  } finally {
    client.close();
  }
}

/** The certificate a STARTTLS handshake presents now. */
async function presentedFingerprint(port: number): Promise<string> {
  const smtp = await RawSmtp.connect(port);
  try {
    await smtp.reply();
    await smtp.command("EHLO client.test");
    return (await smtp.startTls()).fingerprint256;
  } finally {
    smtp.destroy();
  }
}

describe("STARTTLS on the inbound listener (docs/inbound.md#tls)", () => {
  it("offers STARTTLS with a certificate: a sender requiring TLS delivers, and the mail is stored", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "tls-in.test");
    await route({ pattern: "support@tls-in.test", actions: [] });
    await sendOverTls(withTls.port, "support@tls-in.test", "Over TLS");
    const rows = await (
      await getDb()
    )
      .select({ subject: inboundMessages.subject })
      .from(inboundMessages)
      .where(and(eq(inboundMessages.workspaceId, workspace.id), eq(inboundMessages.recipient, "support@tls-in.test")));
    expect(rows).toEqual([{ subject: "Over TLS" }]);
  });

  it("presents its certificate, and a renewed one to the next handshake without a restart", async () => {
    expect(await presentedFingerprint(withTls.port)).toBe(
      new X509Certificate(fs.readFileSync(certFile)).fingerprint256,
    );
    const renewed = writePair(selfSignedCertificate("mx2.test.local"));
    await waitFor(async () => (await presentedFingerprint(withTls.port)) === renewed, {
      what: "the renewed certificate to be presented",
    });
  });

  it("does not offer STARTTLS without a certificate, and still takes plain mail", async () => {
    const { workspace } = await createTestWorkspace();
    const { route } = await addTestInboundDomain(workspace.id, "plain-in.test");
    await route({ pattern: "support@plain-in.test", actions: [] });
    await expect(sendOverTls(plain.port, "support@plain-in.test", "No TLS")).rejects.toThrow(/STARTTLS/i);
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: plain.port, secure: false, ignoreTLS: true });
    await client.sendMail({
      envelope: { from: "ada@customer.test", to: ["support@plain-in.test"] },
      from: "ada@customer.test",
      to: "support@plain-in.test",
      subject: "Plain",
      text: "Hello",
    });
    client.close();
  });

  it("takes INBOUND_TLS_CERT/KEY when set, else the submission's SMTP_TLS_CERT/KEY", () => {
    const unset = {
      SMTP_TLS_CERT: undefined,
      SMTP_TLS_KEY: undefined,
      INBOUND_TLS_CERT: undefined,
      INBOUND_TLS_KEY: undefined,
    };
    try {
      useSettings({ ...unset, SMTP_TLS_CERT: "/s.pem", SMTP_TLS_KEY: "/s.key" });
      expect(inboundTls(env())).toEqual({ certPath: "/s.pem", keyPath: "/s.key" });
      useSettings({ INBOUND_TLS_CERT: "/i.pem", INBOUND_TLS_KEY: "/i.key" });
      expect(inboundTls(env())).toEqual({ certPath: "/i.pem", keyPath: "/i.key" });
      useSettings(unset);
      expect(inboundTls(env())).toBeUndefined();
      useSettings({ INBOUND_TLS_CERT: "/i.pem" });
      expect(() => env()).toThrow(/INBOUND_TLS_CERT and INBOUND_TLS_KEY go together/);
    } finally {
      useSettings(unset);
    }
  });
});
