/**
 * Every import of nodemailer's internal modules (`nodemailer/lib/…`) in the product goes through this
 * file (docs/architecture.md#dependency-internals). They are not nodemailer's public API: a release
 * may move or change them. We use its encoders and SMTP client because they are the ones mail
 * servers have met for years; the message assembly (lib/delivery/mime) and the pool are our own.
 * The canary, internals/nodemailer.canary.test.ts, says what to re-check.
 */
export const NODEMAILER = {
  dependency: "nodemailer",
  writtenFor: "10.6.0",
  file: "internals/nodemailer.ts",
  recheck:
    "each module re-exported here (lib/mime-funcs, lib/qp, lib/shared, lib/smtp-connection): its names, arguments and output, " +
    "then lib/delivery/mime/build-mime-parity.test.ts, dkim-sign.test.ts and lib/delivery/providers/smtp/smtp-pool.test.ts",
};

export {
  buildHeaderValue,
  detectExtension,
  detectMimeType,
  encodeWord,
  encodeWords,
  foldLines,
  parseHeaderValue,
  quoteString,
} from "nodemailer/lib/mime-funcs";
export { encode as qpEncode, wrap as qpWrap } from "nodemailer/lib/qp";
export { normalizeDomain, parseConnectionUrl } from "nodemailer/lib/shared";
export { default as SMTPConnection } from "nodemailer/lib/smtp-connection";
