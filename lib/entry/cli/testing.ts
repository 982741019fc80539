import postgres from "postgres";
import { runCli, type RunCliOptions } from "./run-cli";

/** Runs the CLI in-process and keeps what it printed (tests only). */
export async function cli(argv: string[], options?: RunCliOptions) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(
    argv,
    { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text) },
    options,
  );
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n"), json: () => JSON.parse(stdout.join("\n")) };
}

/** Drops the database a PostgreSQL URL names and makes it again, empty: as after losing the server (tests only). */
export async function recreateEmptyDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = postgres(Object.assign(new URL(url), { pathname: "/postgres" }).toString(), {
    max: 1,
    onnotice: () => {},
  });
  try {
    await admin.unsafe(`drop database ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
}
