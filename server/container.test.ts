import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { settingDefaults } from "@/lib/foundation/env";
import { dockerfileInstructions, readCompose, type ComposeService } from "./deployment-files";

/**
 * The Dockerfile and compose.yaml cannot be built here (no container daemon), so this keeps them true to
 * what can be checked: they run files the artefact has, set only settings lib/foundation/env.ts knows,
 * probe the ports those settings open, and start in the right order. server/artefact.test.ts runs
 * compose.yaml's commands in an assembled artefact.
 */
const root = path.resolve(import.meta.dirname, "..");
// Plain .mjs build scripts, without type declarations: imported by path, typed here.
const { ARTEFACT_PARTS } = (await import(path.join(root, "scripts", "assemble-artefact.mjs"))) as {
  ARTEFACT_PARTS: Array<{ from: string; to: string }>;
};
const { PROCESS_ENTRIES } = (await import(path.join(root, "scripts", "build-processes.mjs"))) as {
  PROCESS_ENTRIES: Record<string, string>;
};
const defaults = settingDefaults();
/** Variables that are not Postwerk settings but are fine to set: Next.js's and the build's own. */
const NOT_SETTINGS = new Set(["NEXT_TELEMETRY_DISABLED", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"]);
const processFiles = Object.keys(PROCESS_ENTRIES).map((name) => `dist/${name}.mjs`);

function inArtefact(file: string): boolean {
  return ARTEFACT_PARTS.some((part) => part.to === file) || processFiles.includes(file);
}

function instructions(name: string): string[] {
  return dockerfileInstructions()
    .filter(([instruction]) => instruction === name)
    .map(([, args]) => args);
}

/** ENV's `NAME=value` pairs (the runtime stage's: the last ENV of each name wins, as in the image). */
function dockerfileEnv(): Record<string, string> {
  const pairs = instructions("ENV").flatMap((args) => args.split(/\s+/));
  return Object.fromEntries(pairs.map((pair) => pair.split("=") as [string, string]));
}

const compose = readCompose();
const postwerkServices = Object.entries(compose.services).filter(([, service]) =>
  service.image?.startsWith("postwerk"),
);
const healthCommand = (service: ComposeService) => (service.healthcheck?.test ?? []).join(" ");

describe("the Dockerfile", () => {
  it("builds on the Node major of package.json's node devDependency", () => {
    const packageJson = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const major = packageJson.devDependencies.node.split(".")[0];
    const images = instructions("FROM").map((args) => args.split(/\s+/)[0]);
    expect(images.filter((image) => image.startsWith("node:")).length).toBe(2); // the dependencies' and the runtime's
    for (const image of images.filter((image) => image.startsWith("node:")))
      expect(image).toMatch(new RegExp(`^node:${major}\\.`));
  });

  it("sets only known settings, serves PORT's default, checks readiness there and runs the artefact's server", () => {
    const env = dockerfileEnv();
    for (const name of Object.keys(env)) expect(name in defaults || NOT_SETTINGS.has(name), name).toBe(true);
    expect(env.PORT).toBe(String(defaults.PORT));
    expect(instructions("EXPOSE")[0].split(/\s+/)).toContain(env.PORT);
    expect(instructions("HEALTHCHECK")[0]).toContain(
      `'http://127.0.0.1:' + (process.env.PORT || ${defaults.PORT}) + '/api/health/ready'`,
    );
    const command = JSON.parse(instructions("CMD")[0]) as string[];
    expect(command[0]).toBe("node");
    expect(inArtefact(command[1]), command[1]).toBe(true);
    expect(instructions("USER")).toEqual(["node"]);
    expect(instructions("VOLUME")).toEqual([env.DATA_DIR]);
    expect(instructions("RUN").some((args) => args.includes("node scripts/assemble-artefact.mjs /artefact"))).toBe(
      true,
    );
    expect(instructions("COPY")).toContain("--from=build /artefact /app");
  });

  it("leaves the host's installed packages, builds and data out of the build context", () => {
    const ignored = fs.readFileSync(path.join(root, ".dockerignore"), "utf8").split("\n");
    for (const entry of ["node_modules", ".next", "dist", ".data", ".env", ".git"])
      expect(ignored, entry).toContain(entry);
  });
});

describe("compose.yaml", () => {
  it("runs every process of the artefact, each a file the artefact has, with known settings only", () => {
    const files = postwerkServices.map(([, service]) => service.command?.[1] ?? "");
    expect(new Set(files)).toEqual(new Set(["server/server.mjs", ...processFiles]));
    for (const [name, service] of postwerkServices) {
      expect(service.command?.[0], name).toBe("node");
      expect(inArtefact(service.command![1]), `${name}: ${service.command![1]}`).toBe(true);
      for (const setting of Object.keys(service.environment ?? {}))
        expect(setting in defaults, `${name}: ${setting} is not a setting of lib/foundation/env.ts`).toBe(true);
    }
  });

  it("migrates once PostgreSQL is healthy, and starts the rest after the migrations", () => {
    const { postgres, migrate } = compose.services;
    expect(healthCommand(postgres)).toContain("pg_isready");
    expect(migrate.command).toEqual(["node", "dist/cli.mjs", "db", "migrate"]);
    expect(migrate.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    for (const [name, service] of postwerkServices.filter(([name]) => name !== "migrate"))
      expect(service.depends_on, name).toEqual({ migrate: { condition: "service_completed_successfully" } });
    expect(compose.services.app.environment?.RUN_WORKER).toBe("false");
  });

  it("probes each service on the port its settings open, maps those ports and the Dockerfile exposes them", () => {
    const { app, worker, smtp, inbound } = compose.services;
    expect(app.environment?.PORT).toBe(String(defaults.PORT));
    expect(healthCommand(app)).toContain(`http://127.0.0.1:${app.environment?.PORT}/api/health/ready`);
    expect(healthCommand(worker)).toContain(`http://127.0.0.1:${worker.environment?.WORKER_HEALTH_PORT}/health/ready`);
    expect(healthCommand(inbound)).toContain(
      `http://127.0.0.1:${inbound.environment?.INBOUND_HEALTH_PORT}/health/ready`,
    );
    expect(healthCommand(smtp)).toContain(`connect(${smtp.environment?.SMTP_SUBMISSION_PORT}, '127.0.0.1')`);
    const exposed = instructions("EXPOSE")[0].split(/\s+/);
    const listening = ["PORT", "SMTP_SUBMISSION_PORT", "SMTP_SUBMISSION_TLS_PORT", "SMTP_INBOUND_PORT"];
    const health = ["WORKER_HEALTH_PORT", "INBOUND_HEALTH_PORT"];
    for (const [name, service] of postwerkServices) {
      const own = listening.map((setting) => service.environment?.[setting]).filter(Boolean);
      for (const mapping of service.ports ?? [])
        expect(own, `${name}: ${mapping}`).toContain(mapping.split(":").at(-1));
      for (const port of [...own, ...health.map((setting) => service.environment?.[setting]).filter(Boolean)])
        expect(exposed, `${name}: port ${port}`).toContain(port);
    }
  });
});

describe("the systemd units (deploy/systemd)", () => {
  const folder = path.join(root, "deploy", "systemd");
  const units = fs.readdirSync(folder).filter((file) => file.endsWith(".service"));

  it("run each process of the artefact with Node, setting only known settings", () => {
    const started = new Set<string>();
    for (const unit of units) {
      const lines = fs.readFileSync(path.join(folder, unit), "utf8").split("\n");
      const exec = lines.find((line) => line.startsWith("ExecStart="))!;
      const file = /\/usr\/bin\/node ([^\s']+)/.exec(exec)?.[1] ?? "";
      expect(inArtefact(file), `${unit}: ${file}`).toBe(true);
      started.add(file);
      const assignments = lines
        .filter((line) => line.startsWith("Environment="))
        .flatMap((line) => line.slice("Environment=".length).split(/\s+/));
      const inline = [...exec.matchAll(/\b([A-Z][A-Z0-9_]+)=/g)].map((match) => `${match[1]}=`);
      for (const assignment of [...assignments, ...inline]) {
        const name = assignment.split("=")[0];
        expect(name in defaults, `${unit}: ${name} is not a setting of lib/foundation/env.ts`).toBe(true);
      }
    }
    expect(started).toEqual(new Set(["server/server.mjs", "dist/worker.mjs", "dist/smtp.mjs", "dist/inbound.mjs"]));
  });
});
