import { describe, expect, it } from "vitest";
import { replySubject, subjectKey } from "./subject-key";

describe("subjectKey", () => {
  it.each([
    ["Re: Your order", "your order"],
    ["RE: RE: Your order", "your order"],
    ["Fwd: Re: Your   order ", "your order"],
    ["FW: AW: WG: SV: VS: Your order", "your order"],
    ["Antw: Réf: TR: Your order", "your order"],
    ["[EXT] Re: [ticket #4] Your order", "your order"],
    ["Re[2]: Your order", "your order"],
    ["Re : Your order", "your order"],
    ["Your order", "your order"],
    ["Rename: the file", "rename: the file"],
    ["", ""],
  ])("%j → %j", (subject, key) => {
    expect(subjectKey(subject)).toBe(key);
  });
});

describe("replySubject", () => {
  it("adds Re: once and never doubles it", () => {
    expect(replySubject("Your order")).toBe("Re: Your order");
    expect(replySubject("Re: Your order")).toBe("Re: Your order");
    expect(replySubject("RE: Your order")).toBe("RE: Your order");
    expect(replySubject("Fwd: Your order")).toBe("Re: Fwd: Your order");
    expect(replySubject("")).toBe("Re:");
  });
});
