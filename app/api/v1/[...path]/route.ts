import { apiRouter } from "../../routes";

// Every path under /api/v1 (and /v1, rewritten here by next.config.mjs) goes through the one route
// table (app/api/routes.ts); answers are built per request, never at build time.
export const dynamic = "force-dynamic";

export const GET = apiRouter;
export const HEAD = apiRouter;
export const POST = apiRouter;
export const PUT = apiRouter;
export const PATCH = apiRouter;
export const DELETE = apiRouter;
export const OPTIONS = apiRouter;
