import { describe, expect, it } from "vitest";
import { DNS_OFF, judgeRequirements, organizationalDomain, type RequirementInput } from "./judge-requirements";
import { REQUIREMENT_IDS, worstStatus, type RequirementLine } from "./requirement-lines.shared";

const domain = { name: "acme.test", dkimSelector: "pw1", dkimPublicKey: "MIIBIjANBgkq" };
const DKIM = `v=DKIM1; k=rsa; p=${domain.dkimPublicKey}`;

/** Everything in order for an SMTP relay at smtp.relay.test over smtps://, no BOUNCE_DOMAIN, quiet rates. */
function input(change: Partial<RequirementInput> = {}): RequirementInput {
  return {
    domain,
    spf: { records: ["v=spf1 a:smtp.relay.test ~all"] },
    dkim: { records: [DKIM] },
    dmarc: { host: "_dmarc.acme.test", lookup: { records: ["v=DMARC1; p=none; rua=mailto:d@acme.test"] } },
    sending: {
      provider: "smtp",
      smtpUrl: "smtps://user:pass@smtp.relay.test:465",
      smtpRejectUnauthorized: true,
      appUrl: "https://mail.acme.test",
    },
    rates: { sent: 10_000, delivered: 9_900, bounced: 50, complained: 2 },
    ...change,
  };
}

const byId = (lines: RequirementLine[]) => Object.fromEntries(lines.map((line) => [line.id, line]));
const statuses = (change: Partial<RequirementInput> = {}) =>
  Object.fromEntries(judgeRequirements(input(change)).map((line) => [line.id, line.status]));

describe("sender requirements, line by line", () => {
  it("all pass when the records, the relay, the URL and the rates are in order; every line names the providers", () => {
    const lines = judgeRequirements(input());
    expect(lines.map((line) => line.id)).toEqual([...REQUIREMENT_IDS]);
    expect(lines.filter((line) => line.status !== "pass")).toEqual([]);
    expect(worstStatus(lines)).toBe("pass");
    expect(lines.every((line) => line.requiredBy.join() === "Gmail,Yahoo,Microsoft")).toBe(true);
    expect(byId(lines).dmarc.why).toContain("p=none");
  });

  it("SPF: missing, two records, lacking the relay (merged fix), +all, ?all", () => {
    const missing = byId(judgeRequirements(input({ spf: { records: ["google-site-verification=x"] } }))).spf;
    expect(missing).toMatchObject({ status: "fail", fix: 'TXT acme.test "v=spf1 a:smtp.relay.test ~all"' });
    expect(statuses({ spf: { records: ["v=spf1 ~all", "v=spf1 a:smtp.relay.test ~all"] } }).spf).toBe("fail");
    const lacking = byId(judgeRequirements(input({ spf: { records: ["v=spf1 include:_spf.google.com -all"] } }))).spf;
    expect(lacking.status).toBe("fail");
    expect(lacking.fix).toBe('TXT acme.test "v=spf1 include:_spf.google.com a:smtp.relay.test -all"');
    expect(statuses({ spf: { records: ["v=spf1 a:smtp.relay.test +all"] } }).spf).toBe("fail");
    expect(statuses({ spf: { records: ["v=spf1 a:smtp.relay.test ?all"] } }).spf).toBe("warn");
  });

  it("DKIM: missing or another key fails, and so do DKIM alignment and DMARC when SPF cannot carry it", () => {
    const lines = byId(
      judgeRequirements(
        input({
          dkim: { records: ["v=DKIM1; k=rsa; p=OTHER"] },
          sending: { ...input().sending, bounceDomain: "bounces.elsewhere.test" },
        }),
      ),
    );
    expect(lines.dkim).toMatchObject({ status: "fail", fix: `TXT pw1._domainkey.acme.test "${DKIM}"` });
    expect(lines.dkim_alignment.status).toBe("fail");
    expect(lines.spf_alignment.status).toBe("warn");
    expect(lines.dmarc_pass.status).toBe("fail");
    // With an aligned return path, SPF carries DMARC alone.
    expect(statuses({ dkim: { records: [] } }).dmarc_pass).toBe("pass");
  });

  it("DMARC: missing, two records, no valid policy fail with the record to publish; an inherited policy passes", () => {
    const missing = byId(
      judgeRequirements(input({ dmarc: { host: "_dmarc.acme.test", lookup: { records: [] } } })),
    ).dmarc;
    expect(missing).toMatchObject({
      status: "fail",
      fix: 'TXT _dmarc.acme.test "v=DMARC1; p=none; rua=mailto:dmarc@acme.test"',
    });
    const two = { host: "_dmarc.acme.test", lookup: { records: ["v=DMARC1; p=none", "v=DMARC1; p=reject"] } };
    expect(statuses({ dmarc: two }).dmarc).toBe("fail");
    expect(statuses({ dmarc: { host: "_dmarc.acme.test", lookup: { records: ["v=DMARC1; p=maybe"] } } }).dmarc).toBe(
      "fail",
    );
    const sub = { ...domain, name: "mail.acme.test" };
    const inherited = { host: "_dmarc.acme.test", lookup: { records: ["v=DMARC1; p=reject; sp=quarantine"] } };
    const line = byId(judgeRequirements(input({ domain: sub, dmarc: inherited }))).dmarc;
    expect(line).toMatchObject({ status: "pass", why: "Policy p=quarantine (inherited from _dmarc.acme.test)." });
  });

  it("alignment: BOUNCE_DOMAIN under the organizational domain aligns; SES and Resend warn with the provider's fix", () => {
    const sending = input().sending;
    expect(statuses({ sending: { ...sending, bounceDomain: "bounces.acme.test" } }).spf_alignment).toBe("pass");
    expect(
      statuses({ domain: { ...domain, name: "news.acme.test" }, sending: { ...sending, bounceDomain: "b.acme.test" } })
        .spf_alignment,
    ).toBe("pass");
    const ses = byId(
      judgeRequirements(
        input({ spf: { records: ["v=spf1 include:amazonses.com ~all"] }, sending: { ...sending, provider: "ses" } }),
      ),
    );
    expect(ses.spf).toMatchObject({ status: "pass" });
    expect(ses.spf_alignment).toMatchObject({
      status: "warn",
      fix: "Set a custom MAIL FROM domain in SES, e.g. bounce.acme.test.",
    });
    expect(ses.relay_tls.status).toBe("pass");
    expect(organizationalDomain("mail.example.co.uk")).toBe("example.co.uk");
  });

  it("one-click unsubscribe needs a public https APP_URL; TLS to the relay warns unless smtps or requireTLS", () => {
    const sending = input().sending;
    expect(statuses({ sending: { ...sending, appUrl: "http://mail.acme.test" } }).one_click_unsubscribe).toBe("fail");
    expect(statuses({ sending: { ...sending, appUrl: "https://localhost:3000" } }).one_click_unsubscribe).toBe("warn");
    expect(statuses({ sending: { ...sending, smtpUrl: "smtp://smtp.relay.test:587" } }).relay_tls).toBe("warn");
    expect(statuses({ sending: { ...sending, smtpUrl: "smtp://smtp.relay.test:587?requireTLS=true" } }).relay_tls).toBe(
      "pass",
    );
    expect(statuses({ sending: { ...sending, smtpRejectUnauthorized: false } }).relay_tls).toBe("warn");
  });

  it("complaint rate against 0.1 % and 0.3 %, bounce rate against 2 % and 5 %; too few messages say so", () => {
    const rates = (complained: number, bounced: number) => ({ sent: 10_000, delivered: 10_000, bounced, complained });
    expect(statuses({ rates: rates(9, 0) }).complaint_rate).toBe("pass");
    expect(statuses({ rates: rates(10, 0) }).complaint_rate).toBe("warn");
    expect(statuses({ rates: rates(30, 0) }).complaint_rate).toBe("fail");
    expect(statuses({ rates: rates(0, 199) }).bounce_rate).toBe("pass");
    expect(statuses({ rates: rates(0, 200) }).bounce_rate).toBe("warn");
    expect(statuses({ rates: rates(0, 500) }).bounce_rate).toBe("fail");
    const few = byId(judgeRequirements(input({ rates: { sent: 40, delivered: 40, bounced: 20, complained: 5 } })));
    expect(few.complaint_rate).toMatchObject({
      status: "pass",
      why: "40 delivered in 30 days: too few to measure a rate.",
    });
    expect(byId(judgeRequirements(input({ rates: rates(30, 0) }))).complaint_rate.why).toBe(
      "30 complaints for 10000 delivered: 0.3 %, at or above Gmail's 0.3 % line.",
    );
  });

  it("a failed lookup or DNS switched off warns (never fails), and DMARC's outcome is then unconfirmed", () => {
    const off = { error: DNS_OFF };
    const lines = byId(
      judgeRequirements(input({ spf: off, dkim: off, dmarc: { host: "_dmarc.acme.test", lookup: off } })),
    );
    expect([lines.spf.status, lines.dkim.status, lines.dmarc.status, lines.dmarc_pass.status]).toEqual([
      "warn",
      "warn",
      "warn",
      "warn",
    ]);
    expect(lines.spf.fix).toBe("DOMAIN_VERIFICATION=dns");
    const timeout = byId(judgeRequirements(input({ dkim: { error: "ETIMEOUT looking up pw1._domainkey.acme.test" } })));
    expect(timeout.dkim).toMatchObject({ status: "warn", fix: null });
    expect(timeout.dkim.why).toContain("ETIMEOUT");
  });
});
