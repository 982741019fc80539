import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // A lockfile in a parent folder must not move the workspace root (docs/development.md#traps, trap 8).
  turbopack: { root: process.cwd() },
  outputFileTracingRoot: process.cwd(),
  // These run only on the server and must not be bundled (native/WASM assets, optional drivers).
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
