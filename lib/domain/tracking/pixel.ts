/** The smallest transparent GIF (1×1, 43 bytes), answered for every open-pixel request. */
export const TRANSPARENT_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

/** Never cached anywhere: every display of the message should reach us (proxies like Gmail's still may). */
export const PIXEL_HEADERS: Record<string, string> = {
  "content-type": "image/gif",
  "content-length": String(TRANSPARENT_GIF.length),
  "cache-control": "no-store, no-cache, must-revalidate, max-age=0",
  pragma: "no-cache",
  expires: "0",
};
