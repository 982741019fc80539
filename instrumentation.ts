/**
 * Next.js calls register() once when the server starts (never during `next build`). Only the Node.js
 * runtime boots the service; the import is dynamic so the Edge bundle and the build never load the
 * database code. Everything else lives in lib/entry/boot/boot.ts.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerProcess } = await import("./lib/entry/boot/boot");
  await startServerProcess();
}
