/**
 * smtp-server runs patched: internals/patches/smtp-server+3.21.6.patch, applied by patch-package at
 * install (package.json `postinstall`). Its own refusal of AUTH before STARTTLS answers
 * `538 Error: Must issue a STARTTLS command first`, without the enhanced status code RFC 4954 gives it
 * (5.7.11) and docs/api.md#smtp-reply-codes promises; the patch makes it ENCRYPTION_REQUIRED, in
 * both builds of smtp-connection.js (cjs, esm). It refuses at the AUTH command, before a client is
 * asked for its password: the public API (onAuth) runs only after the password was sent in the clear.
 * The reply carries its own code because the listener keeps smtp-server's enhanced codes hidden (its
 * default `hideENHANCEDSTATUSCODES`). The canary, internals/smtp-server.canary.test.ts, checks the
 * patched lines and the reply of a real server.
 */
export const SMTP_SERVER = {
  dependency: "smtp-server",
  writtenFor: "3.21.6",
  file: "internals/smtp-server.ts",
  patch: "internals/patches/smtp-server+3.21.6.patch",
  recheck:
    "handler_AUTH in dist/*/smtp-connection.js: if its refusal before STARTTLS now carries 5.7.11, delete the patch; " +
    "if not, rebuild it with `npx patch-package smtp-server --patch-dir internals/patches`. " +
    "Either way run lib/entry/submission/smtp-tls.test.ts",
};

/** AUTH before STARTTLS (RFC 4954 §6: 538 5.7.11), from smtp-server (patched) and from our own check alike. */
export const ENCRYPTION_REQUIRED =
  "5.7.11 Encryption required for requested authentication mechanism: issue STARTTLS first.";
