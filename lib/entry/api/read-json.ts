import { AppError } from "@/lib/foundation/errors";
import { assertSafeJson } from "./input-guard";

export const MB = 1024 * 1024;

/**
 * Reads a JSON body, refusing it while reading once it passes `maxBytes` (a 200 MB body is never
 * buffered). Content-Type must be JSON; an empty body is `undefined` when `optional`. What it returns
 * holds no NUL and nests at most MAX_BODY_DEPTH levels (./input-guard.ts).
 */
export async function readJsonBody(request: Request, maxBytes: number, optional = false): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const contentType = request.headers.get("content-type") ?? "";
  const text = await readCapped(request, maxBytes);
  if (text.trim() === "") {
    if (optional) return undefined;
    throw new AppError("INVALID_JSON", "The request body is empty; send a JSON object.");
  }
  if (contentType && !/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) {
    throw new AppError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Content-Type ${contentType.split(";")[0]} is not supported; send application/json.`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("INVALID_JSON", "The request body is not valid JSON.");
  }
  assertSafeJson(body);
  return body;
}

async function readCapped(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    // A client that hangs up mid-body is its own problem, not a database outage: answer 400.
    const { done, value } = await reader.read().catch(() => {
      throw new AppError("INVALID_JSON", "The request body could not be read to its end.");
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function tooLarge(maxBytes: number): AppError {
  // Limits under 1 MB (the attachment request's 64 KB) would round to "0 MB".
  const limit = maxBytes < MB ? `${Math.round(maxBytes / 1024)} KB` : `${Math.round(maxBytes / MB)} MB`;
  return new AppError("PAYLOAD_TOO_LARGE", `The request body is larger than ${limit}.`);
}
