import type { ReactNode } from "react";
import { connection } from "next/server";
import { QueryProvider } from "@/components/providers/query-provider";
import { type NavItem } from "@/components/dashboard/nav-links";
import { SectionsNav } from "@/components/dashboard/sections-nav";
import { WorkspaceSwitcher } from "@/components/dashboard/workspace-switcher";
import { DeliverabilityBanner } from "@/components/sending/deliverability-banner";
import { requireDashboard } from "@/app/_lib/dashboard-context";
import { readDeliverabilityWarning } from "@/lib/domain/workspaces/deliverability-warning";
import { hasRole, type Role } from "@/lib/foundation/access/roles.shared";
import { VERSION } from "@/lib/foundation/version";
import { signOutAction, switchWorkspace } from "./actions";

const NAV: NavItem[] = [
  { href: "/", label: "Overview" },
  { href: "/emails", label: "Emails" },
  { href: "/inbound", label: "Inbound" },
  { href: "/templates", label: "Templates" },
  { href: "/workflows", label: "Workflows" },
  { href: "/batches", label: "Batches" },
  { href: "/workflow-runs", label: "Workflow runs" },
  { href: "/activity", label: "Activity" },
  { href: "/inbox", label: "Local inbox" },
  { href: "/contacts", label: "Contacts" },
  { href: "/groups", label: "Unsubscribe groups" },
  { href: "/api-keys", label: "API keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/domains", label: "Domains" },
  { href: "/providers", label: "Providers" },
  { href: "/settings", label: "Settings" },
];

/** Owners and admins also see the audit log (the page refuses members). */
const ADMIN_NAV: NavItem[] = [{ href: "/audit", label: "Audit log" }];

/** Owners also see how the whole instance is set up (the page refuses everyone else). */
const OWNER_NAV: NavItem[] = [{ href: "/instance", label: "Instance" }];

function navFor(role: Role): NavItem[] {
  if (hasRole(role, "OWNER")) return [...NAV, ...ADMIN_NAV, ...OWNER_NAV];
  return hasRole(role, "ADMIN") ? [...NAV, ...ADMIN_NAV] : NAV;
}

/** The signed-in shell: sections on the left (behind a Menu button on phones), workspace and account on top. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await connection();
  const { user, workspace, workspaces, role } = await requireDashboard();
  return (
    <div className="lg:flex">
      <aside className="border-b border-slate-200 bg-white lg:sticky lg:top-0 lg:h-screen lg:w-60 lg:shrink-0 lg:overflow-y-auto lg:border-r lg:border-b-0">
        <SectionsNav items={navFor(role)} />
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-white px-4 py-2 sm:px-6">
          <WorkspaceSwitcher workspaces={workspaces} currentId={workspace.id} action={switchWorkspace} />
          <div className="flex items-center gap-3 text-sm">
            <span className="hidden text-slate-600 sm:inline" data-testid="signed-in-as">
              {user.email}
            </span>
            <form action={signOutAction}>
              <button type="submit" className="font-medium text-slate-700 hover:text-slate-900">
                Sign out
              </button>
            </form>
          </div>
        </header>
        <main className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-8">
          <DeliverabilityBanner warning={await readDeliverabilityWarning(workspace.id)} />
          <QueryProvider>{children}</QueryProvider>
        </main>
        <footer className="mx-auto max-w-6xl px-4 pb-6 text-xs text-slate-500 sm:px-6" data-testid="version">
          Postwerk {VERSION}
        </footer>
      </div>
    </div>
  );
}
