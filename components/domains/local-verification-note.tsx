import { TEST_SENDER } from "@/lib/foundation/addresses/test-sender.shared";

/** Top-level names never delegated in public DNS (RFC 2606, 6761, 6762, 8375): only DNS_SERVERS could answer for them. */
const PRIVATE_SUFFIXES = [".test", ".example", ".invalid", ".localhost", ".local", ".internal", ".lan", ".home.arpa"];

/**
 * Verification looks the records up in DNS, so a domain whose records nobody can publish there (a local install, an
 * internal name) stays unverified however long one waits: say why, and the ways around it.
 */
export function LocalVerificationNote(props: { domain: string; workspaceId: string; dnsServers: boolean }) {
  const { domain, workspaceId } = props;
  const suffix = PRIVATE_SUFFIXES.find((name) => domain.endsWith(name));
  return (
    <div
      data-testid="local-verification"
      className="space-y-1 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
    >
      <p className="font-medium">
        {suffix && !props.dnsServers
          ? `${domain} cannot verify here: ${suffix} names are never in public DNS, and DNS_SERVERS names no other resolver.`
          : "A domain whose records cannot be published in DNS (a local install, an internal name) cannot verify."}
      </p>
      <p>
        Verify looks the records up in DNS. Without them, either start the server with{" "}
        <code className="font-mono">DOMAIN_VERIFICATION=off</code> and press Verify (domains then count as verified
        without a lookup), or verify it from the CLI (with the embedded database, while the server is stopped):
      </p>
      <p className="font-mono text-xs break-all">
        DOMAIN_VERIFICATION=off npm run cli -- domain verify {domain} --workspace {workspaceId}
      </p>
      <p>
        A new domain can be added verified at once:{" "}
        <code className="font-mono">npm run cli -- domain add --workspace … --name … --verified</code>. To try sending
        before then, send from the test sender <code className="font-mono">{TEST_SENDER}</code>: it works while nothing
        leaves this machine.
      </p>
    </div>
  );
}
