"use client";

import { useRef, useState, type KeyboardEvent, type MouseEvent } from "react";
import { usePathname } from "next/navigation";
import { Logo } from "./logo";
import { NavLinks, type NavItem } from "./nav-links";

const NAV_ID = "sections-nav";

/**
 * The logo and the dashboard's sections. From `lg` up the list is always shown in the sidebar; below it
 * folds behind a Menu button (a disclosure: the list opens in place, pushing the page down). It closes
 * on Escape and on navigation: it is open only for the path it was opened on, and a click on a link
 * closes it even when the link is the current page.
 */
export function SectionsNav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const open = openOn === pathname;

  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== "Escape" || !open) return;
    setOpenOn(null);
    button.current?.focus();
  }

  function closeOnLink(event: MouseEvent) {
    if ((event.target as Element).closest("a")) setOpenOn(null);
  }

  return (
    <div onKeyDown={closeOnEscape}>
      <div className="flex h-14 items-center justify-between gap-3 px-4">
        <Logo />
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={NAV_ID}
          onClick={() => setOpenOn(open ? null : pathname)}
          className="inline-flex items-center gap-2 rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 lg:hidden"
        >
          <MenuIcon open={open} />
          Menu
        </button>
      </div>
      <nav
        id={NAV_ID}
        aria-label="Sections"
        onClick={closeOnLink}
        className={`${open ? "block" : "hidden"} border-t border-slate-200 px-2 py-2 lg:block lg:border-t-0 lg:pt-0 lg:pb-4`}
      >
        <NavLinks items={items} />
      </nav>
    </div>
  );
}

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth={2}>
      {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
    </svg>
  );
}
