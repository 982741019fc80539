import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;
/** True when it took the request (a POST to a provider-event route); `fallback` (Next.js) serves it if the built module cannot be used. */
export function createDirectRoutes(root: string): (req: IncomingMessage, res: ServerResponse, fallback: Handler) => boolean;
