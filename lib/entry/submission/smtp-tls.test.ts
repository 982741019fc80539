import { X509Certificate } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/foundation/log";
import { createTestWorkspace, readMessageState } from "@/lib/testing/fixtures";
import { selfSignedCertificate, type TestCertificate } from "@/lib/testing/self-signed-certificate";
import { waitFor } from "@/lib/testing/wait-for";
import type { SubmissionListener } from "./start-submission-server";
import { plainAuth, RawSmtp, smtpClient, startTestListener } from "./testing";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "smtp-tls-"));
const certFile = path.join(dir, "cert.pem");
const keyFile = path.join(dir, "key.pem");
let listener: SubmissionListener;
let ws: Awaited<ReturnType<typeof createTestWorkspace>>;

function writePair(certificate: TestCertificate): string {
  fs.writeFileSync(keyFile, certificate.privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.writeFileSync(certFile, certificate.pem);
  return new X509Certificate(certificate.pem).fingerprint256;
}

beforeAll(async () => {
  writePair(selfSignedCertificate("smtp.test.local"));
  listener = await startTestListener({
    SMTP_SUBMISSION_TLS_PORT: 0,
    SMTP_TLS_CERT: certFile,
    SMTP_TLS_KEY: keyFile,
    SMTP_ALLOW_INSECURE_AUTH: false,
    tlsReloadIntervalMs: 50,
  });
  ws = await createTestWorkspace();
});
afterAll(async () => {
  await listener.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The certificate a STARTTLS handshake on the submission port presents now. */
async function presentedFingerprint(): Promise<string> {
  const smtp = await RawSmtp.connect(listener.port!);
  try {
    await smtp.reply();
    await smtp.command("EHLO client.test");
    return (await smtp.startTls()).fingerprint256;
  } finally {
    smtp.destroy();
  }
}

/** The certificate the implicit-TLS port presents now. */
async function implicitTlsFingerprint(): Promise<string> {
  const socket = tls.connect({ host: "127.0.0.1", port: listener.tlsPort!, rejectUnauthorized: false });
  try {
    await new Promise((resolve, reject) => socket.once("secureConnect", resolve).once("error", reject));
    return socket.getPeerCertificate().fingerprint256;
  } finally {
    socket.destroy();
  }
}

describe("TLS on the submission ports", () => {
  it("refuses AUTH before STARTTLS (538 5.7.11, before asking for a password) and takes it after, over the self-signed certificate", async () => {
    const smtp = await RawSmtp.connect(listener.port!);
    try {
      await smtp.reply();
      expect(await smtp.command("EHLO client.test")).toContain("STARTTLS");
      // docs/api.md#smtp-reply-codes; smtp-server's own refusal, patched (internals/smtp-server.ts).
      const refused = "538 5.7.11 Encryption required for requested authentication mechanism: issue STARTTLS first.";
      expect(await smtp.command(`AUTH PLAIN ${plainAuth(ws.key.id, ws.key.password)}`)).toBe(refused);
      expect(await smtp.command("AUTH LOGIN")).toBe(refused);
      await smtp.startTls();
      expect(await smtp.command("EHLO client.test")).toContain("AUTH PLAIN LOGIN");
      expect(await smtp.command(`AUTH PLAIN ${plainAuth(ws.key.id, ws.key.password)}`)).toMatch(/^235/);
    } finally {
      smtp.destroy();
    }
  });

  it("accepts nodemailer with STARTTLS required (587 style) and with implicit TLS (465 style)", async () => {
    const auth = { user: ws.key.id, pass: ws.key.password };
    const tls = { rejectUnauthorized: false };
    const overStartTls = await smtpClient(listener.port!, auth, { ignoreTLS: false, requireTLS: true, tls }).sendMail({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "STARTTLS",
      text: "x",
    });
    const overTls = await smtpClient(listener.tlsPort!, auth, { secure: true, ignoreTLS: false, tls }).sendMail({
      from: "hello@example.com",
      to: "ada@example.org",
      subject: "Implicit TLS",
      text: "x",
    });
    for (const [info, subject] of [
      [overStartTls, "STARTTLS"],
      [overTls, "Implicit TLS"],
    ] as const) {
      const id = /em_\w{16}/.exec(info.response)![0];
      expect((await readMessageState(id)).message.subject).toBe(subject);
    }
  });

  it("serves a renewed certificate without a restart, and keeps the old one when the new files do not match", async () => {
    const first = await presentedFingerprint();
    const renewed = writePair(selfSignedCertificate("smtp.test.local"));
    expect(renewed).not.toBe(first);
    await expect.poll(presentedFingerprint, { timeout: 5000, interval: 100 }).toBe(renewed);
    expect(await implicitTlsFingerprint()).toBe(renewed);
    // A key that does not go with the certificate (a renewal caught halfway): the served one stays.
    const warn = vi.spyOn(log, "warn");
    try {
      fs.writeFileSync(keyFile, selfSignedCertificate().privateKey.export({ type: "pkcs8", format: "pem" }));
      await waitFor(() => warn.mock.calls.some(([message]) => message.includes("keeping the previous certificate")), {
        what: "the watcher to refuse the mismatched key",
      });
    } finally {
      warn.mockRestore();
    }
    expect(await presentedFingerprint()).toBe(renewed);
  });
});
