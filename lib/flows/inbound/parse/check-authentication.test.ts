import { generateKeyPairSync } from "node:crypto";
import { Resolver } from "node:dns/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dkimTxtRecord } from "@/lib/delivery/mime/dkim-keys";
import { dkimSign } from "@/lib/delivery/mime/dkim-sign";
import { startDnsServer, type TestDnsServer } from "@/lib/testing/dns-server";
import { checkAuthentication, type DnsResolve } from "./check-authentication";

let dns: TestDnsServer;
let resolver: DnsResolve;

beforeAll(async () => {
  dns = await startDnsServer();
  const client = new Resolver({ timeout: 2000, tries: 1 });
  client.setServers([`127.0.0.1:${dns.port}`]);
  resolver = (name, rrtype) => client.resolve(name, rrtype);
});
afterAll(() => dns.close());

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const publicKeyBase64 = publicKey.export({ type: "spki", format: "der" }).toString("base64");

function mail(from: string): string {
  return [
    `From: Sender <${from}>`,
    "To: support@inbound.postwerk.test",
    "Subject: Re: your receipt",
    "Date: Sat, 28 Nov 2026 10:00:00 +0000",
    `Message-ID: <reply-1@${from.split("@")[1]}>`,
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Thanks, that answers it.",
    "",
  ].join("\r\n");
}

describe("checkAuthentication (mailauth against a DNS server the test controls)", () => {
  it("passes SPF, DKIM and DMARC for a mail signed by its From domain and sent from a permitted IP", async () => {
    dns.setTxt("sender-one.test", ["v=spf1 ip4:192.0.2.10 -all"]);
    dns.setTxt("postwerk._domainkey.sender-one.test", [dkimTxtRecord(publicKeyBase64)]);
    dns.setTxt("_dmarc.sender-one.test", ["v=DMARC1; p=reject"]);
    const signed = await dkimSign(mail("ana@sender-one.test"), {
      domainName: "sender-one.test",
      keySelector: "postwerk",
      privateKey,
    });
    const verdict = await checkAuthentication(
      Buffer.from(signed),
      { ip: "192.0.2.10", helo: "mx.sender-one.test", mailFrom: "ana@sender-one.test" },
      { resolver },
    );
    expect(verdict).toMatchObject({ spf: "pass", dkim: "pass", dmarc: "pass", arc: "none", dmarcPolicy: "reject" });
    expect(verdict.details).toMatchObject({
      spf: { domain: "sender-one.test" },
      dkim: [{ domain: "sender-one.test", selector: "postwerk", result: "pass", aligned: true }],
      dmarc: { domain: "sender-one.test", p: "reject" },
    });
    expect(verdict.details.authenticationResults).toMatch(/dmarc=pass/);
  });

  it("fails DMARC with policy reject when the From domain has no aligned pass (SPF passes for another domain)", async () => {
    dns.setTxt("bank-two.test", ["v=spf1 ip4:192.0.2.20 -all"]);
    dns.setTxt("_dmarc.bank-two.test", ["v=DMARC1; p=reject"]);
    dns.setTxt("spoofer.test", ["v=spf1 ip4:198.51.100.7 -all"]);
    const verdict = await checkAuthentication(
      Buffer.from(mail("ceo@bank-two.test")),
      { ip: "198.51.100.7", helo: "mx.spoofer.test", mailFrom: "bounce@spoofer.test" },
      { resolver },
    );
    expect(verdict).toMatchObject({ spf: "pass", dkim: "none", dmarc: "fail", dmarcPolicy: "reject" });
  });

  it("says none for every check when the domain publishes nothing", async () => {
    const verdict = await checkAuthentication(
      Buffer.from(mail("someone@nothing-here.test")),
      { ip: "203.0.113.5", helo: "mx.nothing-here.test", mailFrom: "someone@nothing-here.test" },
      { resolver },
    );
    expect(verdict).toMatchObject({ spf: "none", dkim: "none", dmarc: "none", arc: "none", dmarcPolicy: null });
  });

  it("never throws: a failing resolver is a temperror, and so is a check that does not end in time", async () => {
    const failing: DnsResolve = async () => {
      throw Object.assign(new Error("queryTxt ESERVFAIL"), { code: "ESERVFAIL" });
    };
    const envelope = { ip: "192.0.2.10", helo: "mx.sender-one.test", mailFrom: "ana@sender-one.test" };
    const broken = await checkAuthentication(Buffer.from(mail("ana@sender-one.test")), envelope, {
      resolver: failing,
    });
    expect(broken.spf).toBe("temperror");
    expect(broken.dmarc).toBe("temperror");

    const hanging: DnsResolve = () => new Promise(() => {});
    const stuck = await checkAuthentication(Buffer.from(mail("ana@sender-one.test")), envelope, {
      resolver: hanging,
      timeoutMs: 50,
    });
    expect(stuck).toEqual({
      spf: "temperror",
      dkim: "temperror",
      dmarc: "temperror",
      arc: "temperror",
      dmarcPolicy: null,
      details: { error: "the authentication check timed out" },
    });
  });
});
