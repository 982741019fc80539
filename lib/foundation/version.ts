import packageJson from "@/package.json" with { type: "json" };

// The one place the service's version is read: the dashboard footer, /api/health/live, the CLI's --version,
// the "server ready" log line and postwerk_build_info all show this. A JSON import, so Next.js's bundle, tsx
// and Vitest each inline it and no cwd or file path is involved. Server code only: the whole file is inlined.
export const VERSION: string = packageJson.version;
