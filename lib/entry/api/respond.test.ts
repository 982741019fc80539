import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/foundation/errors";
import { errorFields } from "@/lib/foundation/log";
import { databaseUnavailableCode } from "@/db/unavailable";
import { errorReply } from "./respond";

const serverUrl = process.env.DATABASE_URL;

/** An error as postgres.js or Node raise it: a code, perhaps wrapped as another error's cause. */
const withCode = (code: string) => Object.assign(new Error(`failure ${code}`), { code });

describe("errorReply: the database being unavailable is 503 with Retry-After, never 500", () => {
  it.each([
    ["53300", "too_many_connections"],
    ["53400", "configuration_limit_exceeded"],
    ["57P01", "admin_shutdown"],
    ["57P02", "crash_shutdown"],
    ["57P03", "cannot_connect_now"],
    ["08000", "connection_exception"],
    ["08001", "sqlclient_unable_to_establish_sqlconnection"],
    ["08003", "connection_does_not_exist"],
    ["08004", "sqlserver_rejected_establishment_of_sqlconnection"],
    ["08006", "connection_failure"],
    ["08P01", "protocol_violation"],
    ["ECONNREFUSED", "socket refused"],
    ["ECONNRESET", "socket reset"],
    ["CONNECTION_CLOSED", "postgres.js: connection closed"],
    ["CONNECT_TIMEOUT", "postgres.js: connect timeout"],
  ])("%s (%s)", (code) => {
    const reply = errorReply(new Error("query failed", { cause: withCode(code) }));
    expect(reply.status).toBe(503);
    expect(reply.headers).toMatchObject({ "retry-after": "5" });
    expect(reply.body).toMatchObject({ error: { code: "SERVICE_UNAVAILABLE" } });
  });

  it("a request's own fault or an unknown error is not mistaken for an outage", () => {
    for (const code of ["23505", "22P02", "42P01", "54001", "NOT_FOUND", "ENOENT"]) {
      expect(databaseUnavailableCode(withCode(code))).toBeNull();
    }
    expect(errorReply(withCode("23505")).status).toBe(500);
    expect(errorReply(new AppError("NOT_FOUND", "Nope.")).status).toBe(404);
  });

  it.skipIf(!serverUrl)("a real too_many_connections from PostgreSQL (CONNECTION LIMIT 0) is 503", async () => {
    const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
    const suffix = `${process.pid}_${Math.floor(Math.random() * 1e6)}`;
    const database = `limit0_${suffix}`;
    const role = `limited_${suffix}`;
    try {
      // Superusers are exempt from connection limits: connect as an ordinary role.
      await admin.unsafe(`create role ${role} login`);
      await admin.unsafe(`create database ${database} connection limit 0`);
      const url = new URL(serverUrl!);
      url.pathname = `/${database}`;
      url.username = role;
      url.password = "";
      const client = postgres(url.toString(), { max: 1, onnotice: () => {}, connect_timeout: 5 });
      const error = await client`select 1`.then(
        () => null,
        (caught: unknown) => caught,
      );
      await client.end({ timeout: 1 });
      expect(databaseUnavailableCode(error)).toBe("53300");
      expect(errorReply(error)).toMatchObject({ status: 503, body: { error: { code: "SERVICE_UNAVAILABLE" } } });
    } finally {
      await admin.unsafe(`drop database if exists ${database} with (force)`);
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    }
  });
});

describe("errorFields: log lines that show the cause", () => {
  it("a plain object is its JSON, not [object Object]; the first code of the cause chain is kept", () => {
    expect(errorFields({ message: "queue stalled", retry: true })).toEqual({
      error: '{"message":"queue stalled","retry":true}',
    });
    expect(errorFields(new Error("outer", { cause: withCode("53300") }))).toEqual({
      error: "Error: outer",
      code: "53300",
    });
    expect(errorFields("text")).toEqual({ error: "text" });
  });
});
