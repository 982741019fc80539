import "server-only";
import fs from "node:fs";
import { simpleParser } from "mailparser";
import nodemailer from "nodemailer";
import { inboundListenerAddress } from "@/lib/flows/inbound/simulate-reply";
import { emit, leadingArgument, optionalString, UsageError, type CliCommand } from "../io";

/**
 * `npm run cli -- inbound send FILE.eml` (docs/inbound.md#quick-start-on-a-laptop): hands a mail to the running inbound
 * listener over SMTP, so it takes the MX path a real sender's mail takes: RCPT TO checks, parsing, routes, threads.
 */
export const inboundSendCommands: Record<string, CliCommand> = {
  "inbound send": {
    usage: "inbound send FILE.eml [--to ADDRESS] [--from ADDRESS] [--host HOST] [--port N] [--json]",
    summary: "Send a .eml file into this installation's inbound listener (envelope from its headers unless given).",
    database: "none",
    async run(args, context) {
      const options = {
        to: { type: "string" },
        from: { type: "string" },
        host: { type: "string" },
        port: { type: "string" },
      } as const;
      const { value: file, flags: values } = leadingArgument(args, "FILE.eml", options);
      let raw: Buffer;
      try {
        raw = fs.readFileSync(file);
      } catch (error) {
        throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
      }
      const headers = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
      const addresses = (field: typeof headers.to) =>
        (Array.isArray(field) ? field : field ? [field] : []).flatMap((entry) =>
          entry.value.map((one) => one.address ?? ""),
        );
      const to =
        optionalString(values, "to") ?? [...addresses(headers.to), ...addresses(headers.cc)].filter(Boolean).join(",");
      if (!to) throw new UsageError("The mail has no To or Cc address: give one with --to.");
      const from = optionalString(values, "from") ?? addresses(headers.from)[0] ?? "";
      const listener = listenerOf(optionalString(values, "host"), optionalString(values, "port"));
      const transport = nodemailer.createTransport({
        host: listener.host,
        port: listener.port,
        secure: false,
        ignoreTLS: true,
      });
      try {
        const info = await transport.sendMail({ envelope: { from, to: to.split(",") }, raw });
        emit(context, { response: info.response, accepted: info.accepted, rejected: info.rejected }, [
          `Handed to ${listener.host}:${listener.port}: ${info.response}`,
        ]);
      } catch (error) {
        const reason = (error as { response?: string; code?: string }).response ?? (error as Error).message;
        throw new UsageError(`The inbound listener at ${listener.host}:${listener.port} refused it: ${reason}`);
      } finally {
        transport.close();
      }
    },
  },
};

function listenerOf(host: string | undefined, port: string | undefined): { host: string; port: number } {
  const configured = inboundListenerAddress();
  const chosenPort = port === undefined ? configured?.port : Number(port);
  if (!chosenPort || !Number.isInteger(chosenPort) || chosenPort < 1 || chosenPort > 65535) {
    throw new UsageError("No inbound listener is configured here: give --port (and --host), or set SMTP_INBOUND_PORT.");
  }
  return { host: host ?? configured?.host ?? "127.0.0.1", port: chosenPort };
}
