import { resetEnvForTests } from "@/lib/foundation/env";

/** Sets (or, with undefined, unsets) settings for the tests that follow, and makes env() read them anew. */
export function useSettings(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  resetEnvForTests();
}
