/**
 * Next.js calls register() once when the server starts (never during `next build`). Only the Node.js
 * runtime boots the service; the imports are dynamic so the Edge bundle and the build never load the
 * database code. Under the production server (server/server.mjs) it then opens the server's door:
 * the hardened HTTP server with the one route table in front of Next.js.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerProcess } = await import("./lib/entry/boot/boot");
  await startServerProcess();
  const { openServerDoor, productionServerWaiting } = await import("./lib/entry/http/server-door");
  if (!productionServerWaiting()) return;
  const { apiRouter, providerEventsRouter, mcpRouter } = await import("./app/api/routes");
  openServerDoor([apiRouter, providerEventsRouter, mcpRouter]);
}
