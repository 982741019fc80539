/** Small stroke icons for the outline's row actions (system fonts lack some symbol glyphs). */
const PATHS = {
  up: "M8 13V3M3.5 7.5 8 3l4.5 4.5",
  down: "M8 3v10M3.5 8.5 8 13l4.5-4.5",
  duplicate: "M5.5 5.5h7v7h-7zM3.5 10.5v-7h7",
  delete: "M4 4l8 8M12 4l-8 8",
} as const;

export type OutlineIconName = keyof typeof PATHS;

export function OutlineIcon({ name }: { name: OutlineIconName }) {
  return (
    <svg
      viewBox="0 0 16 16"
      className="h-3.5 w-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
