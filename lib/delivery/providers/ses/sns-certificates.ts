import "server-only";
import { X509Certificate, type KeyObject } from "node:crypto";
import { env } from "@/lib/foundation/env";
import { AppError } from "@/lib/foundation/errors";
import { errorFields, log } from "@/lib/foundation/log";

// A forger can name any URL in a message: only HTTPS to an AWS host makes the certificate AWS's.
const SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** Certificates are about 2 KB; a far larger answer is not one. */
const MAX_CERTIFICATE_BYTES = 16 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_CACHED = 64;
const REFUSAL_KEPT_MS = 60_000;

/** A URL SNS itself serves; SNS_TEST_TRUSTED_ORIGIN (tests only, lib/foundation/env.ts) adds one origin. */
export function isSnsUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  const testOrigin = env().SNS_TEST_TRUSTED_ORIGIN;
  if (testOrigin && url.origin === new URL(testOrigin).origin) return true;
  return url.protocol === "https:" && url.port === "" && !url.username && !url.password && SNS_HOST.test(url.hostname);
}

const cache = new Map<string, Promise<X509Certificate>>();

/**
 * The SigningCertURL certificate's key, fetched once per URL. An untrusted URL, a non-certificate or an expired
 * one → UNAUTHORIZED; no answer → SERVICE_UNAVAILABLE (SNS retries 5xx).
 */
export async function snsSigningKey(certificateUrl: string): Promise<KeyObject> {
  if (!certificateUrl.endsWith(".pem") || !isSnsUrl(certificateUrl)) {
    throw new AppError(
      "UNAUTHORIZED",
      "SigningCertURL is not an SNS certificate (https://sns.<region>.amazonaws.com/….pem).",
      { param: "SigningCertURL" },
    );
  }
  let pending = cache.get(certificateUrl);
  if (!pending) {
    pending = fetchCertificate(certificateUrl);
    cache.set(certificateUrl, pending);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
    // A refusal is kept a minute, so forged URLs on SNS's host cannot make us fetch per request.
    pending.catch((error: unknown) => {
      const keepMs = error instanceof AppError && error.code === "UNAUTHORIZED" ? REFUSAL_KEPT_MS : 0;
      setTimeout(() => cache.get(certificateUrl) === pending && cache.delete(certificateUrl), keepMs).unref();
    });
  }
  const certificate = await pending;
  const now = Date.now();
  if (now > Date.parse(certificate.validTo) || now < Date.parse(certificate.validFrom)) {
    cache.delete(certificateUrl);
    throw new AppError("UNAUTHORIZED", "The SNS signing certificate is not valid at this time.", {
      param: "SigningCertURL",
    });
  }
  return certificate.publicKey;
}

async function fetchCertificate(url: string): Promise<X509Certificate> {
  let pem: string;
  try {
    const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new AppError("UNAUTHORIZED", `SigningCertURL answered HTTP ${response.status}, not a certificate.`, {
        param: "SigningCertURL",
      });
    }
    pem = await readCapped(response);
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.warn("SNS signing certificate could not be fetched", { url, ...errorFields(error) });
    throw new AppError("SERVICE_UNAVAILABLE", "The SNS signing certificate could not be fetched; retry later.");
  }
  try {
    return new X509Certificate(pem);
  } catch {
    throw new AppError("UNAUTHORIZED", "SigningCertURL does not hold an X.509 certificate.", {
      param: "SigningCertURL",
    });
  }
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_CERTIFICATE_BYTES) {
      await reader.cancel();
      throw new AppError(
        "UNAUTHORIZED",
        `SigningCertURL answered more than ${MAX_CERTIFICATE_BYTES / 1024} KB: not a certificate.`,
        { param: "SigningCertURL" },
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function clearSnsCertificateCacheForTests(): void {
  cache.clear();
}
