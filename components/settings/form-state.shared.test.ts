import { describe, expect, it } from "vitest";
import { invitationNotice } from "./form-state.shared";

describe("invitationNotice", () => {
  it("says where the mail went: delivered, or kept in the System mail inbox by the local provider", () => {
    expect(invitationNotice("ada@example.com", false)).toBe("Invitation sent to ada@example.com.");
    expect(invitationNotice("ada@example.com", true)).toContain("in the System mail workspace's inbox");
  });
});
