import Link from "next/link";

const TABS = [
  { href: "/contacts", label: "Contacts" },
  { href: "/contacts/suppressions", label: "Suppression list" },
] as const;

/** Contacts and the suppression list are two views of the same addresses. */
export function ContactsTabs({ current }: { current: (typeof TABS)[number]["href"] }) {
  return (
    <nav aria-label="Contacts views" className="mb-4 flex gap-1 border-b border-slate-200">
      {TABS.map((tab) => (
        <Link
          key={tab.href}
          href={tab.href}
          aria-current={tab.href === current ? "page" : undefined}
          className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${tab.href === current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900"}`}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
