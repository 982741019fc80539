import Link from "next/link";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import {
  hasSimulatorRecipient,
  SIMULATOR_ADDRESSES,
  SIMULATOR_DOMAIN,
} from "@/lib/foundation/addresses/simulator.shared";

/**
 * The Emails page's "Test addresses" panel (docs/dashboard.md): the outcome simulator's fixed
 * addresses with what each produces, so an integrator can see a bounce or a complaint before the first
 * real one.
 */
export function SimulatorAddresses() {
  return (
    <Card
      id="test-addresses"
      title="Test addresses"
      description={`Send to these to see each outcome on a timeline within seconds. Nothing reaches a mailbox; add +anything before the @ for a fresh address (e.g. bounced+42@${SIMULATOR_DOMAIN}).`}
    >
      <ul className="divide-y divide-slate-100" data-testid="simulator-addresses">
        {SIMULATOR_ADDRESSES.map(({ address, produces }) => (
          <li key={address} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
            <div className="min-w-0">
              <p className="font-mono text-xs break-all text-slate-900">{address}</p>
              <p className="text-xs text-slate-500">{produces}</p>
            </div>
            <CopyButton value={address} label={`Copy ${address}`} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** The message page's note when the message went to the simulator: its events are simulated. */
export function SimulatorNote({ message }: { message: { to: string[]; cc: string[]; bcc: string[] } }) {
  if (!hasSimulatorRecipient(message.to, message.cc, message.bcc)) return null;
  return (
    <p
      className="mt-3 rounded-md bg-sky-50 px-3 py-2 text-sm text-sky-800 ring-1 ring-sky-200 ring-inset"
      data-testid="simulator-note"
    >
      Sent to the outcome simulator: no mailbox received this message. About a second after sending, the simulator
      reports the outcome its address names (delivered, bounced, complained…) through the same path as a real provider;
      reload to see it on the timeline.{" "}
      <Link href="/emails#test-addresses" className="font-semibold underline">
        All test addresses
      </Link>
    </p>
  );
}
