import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";

/** compose.yaml and the Dockerfile, read for the tests that keep them true (container.test.ts, artefact.test.ts). */
const root = path.resolve(import.meta.dirname, "..");

export interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
}

/** compose.yaml with its anchors and merge keys resolved, as Docker Compose reads it. */
export function readCompose(): { services: Record<string, ComposeService> } {
  return parse(fs.readFileSync(path.join(root, "compose.yaml"), "utf8"), { merge: true });
}

/** The Postwerk services' commands by service name (`node <file in the artefact> …`). */
export function composeCommands(): Record<"migrate" | "app" | "worker" | "smtp" | "inbound", string[]> {
  const { services } = readCompose();
  const commands = Object.entries(services).filter(([, service]) => service.image?.startsWith("postwerk"));
  return Object.fromEntries(commands.map(([name, service]) => [name, service.command ?? []])) as ReturnType<
    typeof composeCommands
  >;
}

/** The Dockerfile's instructions, continuation lines joined, as [INSTRUCTION, arguments]. */
export function dockerfileInstructions(): Array<[string, string]> {
  const text = fs.readFileSync(path.join(root, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [instruction, ...rest] = line.split(/\s+/);
      return [instruction.toUpperCase(), rest.join(" ")];
    });
}
