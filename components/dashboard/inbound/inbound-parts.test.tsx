import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { actionWords, type RouteView } from "./route-list";
import { InboundStatusBadge, VerdictChips, verdictTone } from "./verdict-chips";

const route = (actions: RouteView["actions"]): RouteView => ({
  id: "irt_0123456789abcdef",
  name: null,
  pattern: "support@in.example.com",
  kind: "exact",
  actions,
  dmarcFailAction: "accept",
  spamThreshold: null,
  spamAction: "quarantine",
  enabled: true,
});

describe("the Inbound pages' parts", () => {
  it("colours a check by what it says: pass green, fail red, a soft or temporary answer amber, none grey", () => {
    expect(["pass", "PASS", "clean"].map(verdictTone)).toEqual(["success", "success", "success"]);
    expect(["fail", "permerror", "spam"].map(verdictTone)).toEqual(["danger", "danger", "danger"]);
    expect(["softfail", "temperror", "neutral"].map(verdictTone)).toEqual(["warning", "warning", "warning"]);
    expect(["none", "not_checked", "whatever"].map(verdictTone)).toEqual(["neutral", "neutral", "neutral"]);
  });

  it("writes the chips in words, the spam verdict 'not checked' without spamd and with its score with it", () => {
    const chips = (spamStatus: string, spamScore: number | null) =>
      renderToStaticMarkup(
        <VerdictChips verdicts={{ spf: "pass", dkim: "none", dmarc: "fail", spamStatus, spamScore }} />,
      );
    const unchecked = chips("not_checked", null);
    for (const text of ["SPF pass", "DKIM none", "DMARC fail", "spam not checked"])
      expect(unchecked).toContain(`>${text}<`);
    expect(chips("spam", 7.25)).toContain(">spam spam 7.3<");
  });

  it("says Received or Quarantined, with the reason on hover", () => {
    expect(renderToStaticMarkup(<InboundStatusBadge status="RECEIVED" />)).toContain(">Received<");
    const quarantined = renderToStaticMarkup(<InboundStatusBadge status="QUARANTINED" reason="DMARC failed" />);
    expect(quarantined).toContain(">Quarantined<");
    expect(quarantined).toContain('title="DMARC failed"');
  });

  it("says what a route does in the order its actions run; a reject route says only the refusal", () => {
    expect(
      actionWords(
        route([
          { type: "webhook" },
          { type: "forward", to: "desk@example.org" },
          { type: "workflow", workflowId: "wf_1" },
        ]),
      ),
    ).toBe("store, email.received webhook, forward to desk@example.org, start workflow wf_1");
    expect(actionWords(route([]))).toBe("store");
    expect(actionWords(route([{ type: "reject", code: 550, message: "No such desk" }]))).toBe(
      "refuse with 550 No such desk",
    );
  });
});
