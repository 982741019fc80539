/**
 * A small, inert picture of an email: the HTML in a `sandbox=""` frame (no scripts, no forms, no
 * navigation) drawn at 600 px and scaled down with classes (a strict style-src CSP holds).
 */
export function EmailThumbnail({ html, title }: { html: string; title: string }) {
  return (
    <div
      className="pointer-events-none flex h-[240px] w-full justify-center overflow-hidden rounded-md border border-slate-200 bg-slate-50"
      aria-hidden
    >
      <div className="w-[240px] shrink-0">
        <iframe
          title={title}
          sandbox=""
          srcDoc={html}
          tabIndex={-1}
          referrerPolicy="no-referrer"
          className="fixed-palette h-[600px] w-[600px] origin-top-left scale-[0.4] border-0 bg-white"
        />
      </div>
    </div>
  );
}
