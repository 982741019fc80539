import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { setLogLevel } from "@/lib/foundation/log";
import { createCliDatabase } from "./database";
import { processIo } from "./io";
import { runCli } from "./run-cli";

// The database is opened here, before dispatch, so tests run the same commands in-process through runCli.
setLogLevel("warn"); // info lines on stdout would corrupt --json output

// Created on first need: env() is read only then, so `help` works even with a bad configuration.
let database: ReturnType<typeof createCliDatabase> | undefined;
let code = 1;
try {
  code = await runCli(process.argv.slice(2), processIo, {
    prepareDatabase: (need) => (database ??= createCliDatabase()).prepare(need),
  });
} finally {
  await database?.close().catch((error) => processIo.stderr(`Error while closing the database: ${String(error)}`));
}
process.exitCode = code;
