import { handlers } from "@/app/_lib/auth";

// Auth.js endpoints: sign-in, sign-out, CSRF token, session, magic-link callback.
export const { GET, POST } = handlers;
