import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import { bridgeSettingsFrom, startStdioBridge } from "./stdio-bridge";

// `npm run -s mcp` (docs/mcp.md): stdout carries the protocol, so every word for a person goes to stderr.
const settings = bridgeSettingsFrom(process.env);
if (typeof settings === "string") {
  console.error(`postwerk mcp: ${settings}`);
  process.exit(1);
}
const bridge = await startStdioBridge(settings);
// The client closing stdin, or stopping the process, ends the session.
const stop = () => void bridge.close().finally(() => process.exit(0));
process.stdin.once("end", stop);
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
