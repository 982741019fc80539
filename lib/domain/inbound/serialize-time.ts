/** ISO 8601 with milliseconds, or null (the API's timestamps). */
export const iso = (value: Date | null) => (value ? value.toISOString() : null);
