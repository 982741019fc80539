export interface ApiRouteTable {
  readonly file: string | null;
}
/** The built app's /api/v1 route table (.next/server/app-paths-manifest.json); throws when it cannot be read. */
export function readApiRouteTable(root: string): ApiRouteTable;
/** The built route file and decoded params a path of the API reaches, or null when Next.js should answer it. */
export function matchApiRoute(table: ApiRouteTable, pathname: string): { file: string; params: Record<string, string | string[]> } | null;
