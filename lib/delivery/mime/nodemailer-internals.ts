/**
 * Every import of nodemailer's internal modules (`nodemailer/lib/…`) in the product goes through this
 * file. They are not nodemailer's public API: a release may move or change them, and this is the one
 * place to look when upgrading. We use its encoders and SMTP client because they are the ones
 * mail servers have met for years; the message assembly and the pool are our own.
 */
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
