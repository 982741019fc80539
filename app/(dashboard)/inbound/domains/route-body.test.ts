import { describe, expect, it } from "vitest";
import { routeBodyFromForm } from "./route-body";

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

describe("routeBodyFromForm", () => {
  it("lists the actions in the order they run, and the policies", () => {
    const body = routeBodyFromForm(
      form({
        pattern: " Support@in.example.com ",
        webhook: "on",
        forwardTo: "desk@example.org",
        workflowId: "wf_0123456789abcdef",
        dmarcFailAction: "quarantine",
        spamThreshold: "5.5",
        spamAction: "reject",
        enabled: "on",
      }),
    );
    expect(body).toEqual({
      pattern: "Support@in.example.com",
      name: null,
      actions: [
        { type: "webhook" },
        { type: "forward", to: "desk@example.org" },
        { type: "workflow", workflowId: "wf_0123456789abcdef" },
      ],
      dmarcFailAction: "quarantine",
      spamThreshold: 5.5,
      spamAction: "reject",
      enabled: true,
    });
  });

  it("makes a route with a refusal code a reject route alone, and an unchecked box disabled", () => {
    const body = routeBodyFromForm(
      form({ pattern: "*@in.example.com", webhook: "on", rejectCode: "550", rejectMessage: "No such desk" }),
    );
    expect(body.actions).toEqual([{ type: "reject", code: 550, message: "No such desk" }]);
    expect(body.enabled).toBe(false);
    expect(body.spamThreshold).toBeNull();
  });

  it("passes a number that does not parse on as text, for the schema to name the field", () => {
    expect(routeBodyFromForm(form({ pattern: "a@b.example", spamThreshold: "lots" })).spamThreshold).toBe("lots");
  });
});
