import "server-only";
import { headers } from "next/headers";
import { authenticateApiKey, type ApiPrincipal } from "@/lib/api-keys/authenticate-api-key";
import { AppError } from "@/lib/errors";

/**
 * Until dashboard sign-in lands, the pages take the API's own HTTP Basic credentials and show only
 * that key's workspace. proxy.ts has already asked the browser when no header came; here the key
 * is checked for real. Null means the credentials name no live key; other failures propagate.
 */
export async function requestPrincipal(): Promise<ApiPrincipal | null> {
  const authorization = (await headers()).get("authorization");
  try {
    return await authenticateApiKey(authorization);
  } catch (error) {
    if (error instanceof AppError && error.code === "UNAUTHORIZED") return null;
    throw error;
  }
}
