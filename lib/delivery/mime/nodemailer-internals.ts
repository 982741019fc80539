/**
 * Every import of nodemailer's internal modules (`nodemailer/lib/…`) in the product goes through this
 * file. They are not nodemailer's public API: a release may move or change them, and this is the one
 * place to look when upgrading. We use its encoders and SMTP client because they are the ones
 * mail servers have met for years; the message assembly and the pool are our own.
 */
/**
 * addressparser stays for the MIME address headers only (lib/delivery/mime/mime-addresses.ts); every
 * other reading of an address goes through lib/addresses (email-addresses). Replacing it here would
 * change the headers and envelopes built from entries the API accepts, which must stay what
 * MailComposer built: `jane@example.com (Jane)` goes out as `Jane <jane@example.com>` (addressparser
 * makes a lone comment the name; email-addresses drops it), `"a b"@example.com` keeps its quotes
 * (email-addresses gives the unquoted `a b@example.com`), and group syntax
 * (`Friends: a@x.org, b@x.org;`) is read at all (lib/addresses reads single mailboxes).
 */
export { default as addressparser, type Address } from "nodemailer/lib/addressparser";
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
