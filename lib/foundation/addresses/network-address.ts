import { BlockList, isIP } from "node:net";

// Where a server-side request may go: webhooks (flows/webhooks/target-guard.ts) and provider connections judge addresses here.

/** Refused whatever the operator allows: the cloud metadata services. */
const METADATA = new BlockList();
METADATA.addAddress("169.254.169.254", "ipv4");
METADATA.addAddress("fd00:ec2::254", "ipv6");

/** Loopback, private, link-local, CGNAT, unspecified, multicast and reserved ranges (IPv4 and IPv6). */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  PRIVATE.addSubnet(network, prefix, "ipv6");
}

/** IPv4-mapped IPv6 is checked as IPv4. */
export function addressKind(address: string): "metadata" | "private" | "public" {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const ip = mapped ? mapped[1] : address;
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  if (METADATA.check(ip, family)) return "metadata";
  return PRIVATE.check(ip, family) ? "private" : "public";
}
