/**
 * Postwerk's test sender domain (docs/api.md#the-test-sender): every workspace may send from it while nothing leaves
 * the machine. `.test` is reserved (RFC 2606), so no one can own it or receive mail claiming it.
 */
export const TEST_SENDER_DOMAIN = "postwerk.test";

/** The sender the dashboard's and the README's first examples use. */
export const TEST_SENDER = `Postwerk <test@${TEST_SENDER_DOMAIN}>`;

/** True for a bare address at postwerk.test itself (any case); the simulator's subdomain is a recipient domain, not this. */
export function isTestSenderAddress(address: string): boolean {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase() === TEST_SENDER_DOMAIN;
}

/** True for postwerk.test and every name under it: reserved, so no workspace may add one as its own domain. */
export function isReservedDomainName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === TEST_SENDER_DOMAIN || lower.endsWith(`.${TEST_SENDER_DOMAIN}`);
}
