import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SimulatorAddresses, SimulatorNote } from "./simulator-addresses";

describe("the simulator's dashboard parts", () => {
  it("lists every simulator address with what it produces and a copy button", () => {
    const html = renderToStaticMarkup(<SimulatorAddresses />);
    for (const local of ["delivered", "bounced", "soft-bounced", "complained", "delayed", "opened", "clicked"]) {
      expect(html).toContain(`>${local}@simulator.postwerk.test</p>`);
      expect(html).toContain(`aria-label="Copy ${local}@simulator.postwerk.test"`);
    }
    expect(html).toContain("Bounced (permanent); the address is suppressed");
  });

  it("says so on the page of a message to the simulator, and only there", () => {
    const note = (to: string[]) => renderToStaticMarkup(<SimulatorNote message={{ to, cc: [], bcc: [] }} />);
    expect(note(["Ada <bounced+42@simulator.postwerk.test>"])).toContain("Sent to the outcome simulator");
    expect(note(["ada@example.org"])).toBe("");
  });
});
