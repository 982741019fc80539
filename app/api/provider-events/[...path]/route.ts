import { providerEventsRouter } from "../../routes";

// POST /api/provider-events/ses|resend, through the one route table (app/api/routes.ts).
export const dynamic = "force-dynamic";

export const GET = providerEventsRouter;
export const HEAD = providerEventsRouter;
export const POST = providerEventsRouter;
export const PUT = providerEventsRouter;
export const PATCH = providerEventsRouter;
export const DELETE = providerEventsRouter;
export const OPTIONS = providerEventsRouter;
