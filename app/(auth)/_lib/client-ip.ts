import "server-only";
import { headers } from "next/headers";

/** The client's address as the nearest proxy reports it (for throttling only: never for authorization). */
export async function clientIp(): Promise<string> {
  const incoming = await headers();
  return incoming.get("x-forwarded-for")?.split(",")[0]?.trim() || incoming.get("x-real-ip") || "unknown";
}
