import { unknownPath } from "@/lib/entry/api/with-api-key";

// Every other path under /v1: the JSON 404 envelope, never an HTML page
export const GET = unknownPath;
export const POST = unknownPath;
export const PUT = unknownPath;
export const PATCH = unknownPath;
export const DELETE = unknownPath;
