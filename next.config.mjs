// Plain ESM, not TypeScript: the production artefact (scripts/assemble-artefact.mjs) carries this file and
// the server loads it at start, where no TypeScript transpiler is installed (docs/self-hosting.md#the-artefact).
import path from "node:path";
import { fileURLToPath } from "node:url";

// This file's folder, not the working directory: a build started from elsewhere still roots here, and a
// lockfile in a parent folder must not move the workspace root (docs/development.md#traps, trap 8).
const root = path.dirname(fileURLToPath(import.meta.url));

/** @type {import("next").NextConfig} */
const nextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  // A self-contained server under .next/standalone with only the node_modules files it uses: the artefact.
  output: "standalone",
  // These run only on the server and must not be bundled (native/WASM assets, optional drivers). The
  // standalone processes (scripts/build-processes.mjs) keep the same list external.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pg-boss",
    "postgres",
    "nodemailer",
    "smtp-server",
    "mailparser",
    "liquidjs",
    "@aws-sdk/client-s3",
    "@aws-sdk/s3-request-presigner",
    "@opentelemetry/sdk-node",
  ],
  poweredByHeader: false,
  // unauthorized() lets a page answer 401, so a browser asks again after wrong Basic credentials.
  experimental: { authInterrupts: true },
  // `{APP_URL}/v1/...` reaches the same handlers as `{APP_URL}/api/v1/...` (docs/api.md#decided-base-url).
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
};

export default nextConfig;
