import { Badge, type BadgeTone } from "@/components/ui/badge";
import { CIRCUIT_WORDS, type CircuitState } from "./words";

const TONES: Record<CircuitState, BadgeTone> = { closed: "success", open: "danger", half_open: "warning" };

const MEANING: Record<CircuitState, string> = {
  closed: "Messages go through it.",
  open: "Failing: messages skip it for their fallbacks until it is tried again.",
  half_open: "Being tried again: one message probes it; a success closes it, a failure opens it again.",
};

/** A connection's circuit breaker: closed (in use), open (skipped after failures) or half-open (probed). */
export function CircuitBadge({ state }: { state: CircuitState }) {
  return (
    <span title={MEANING[state]} data-testid="circuit-state" data-state={state}>
      <Badge tone={TONES[state]}>circuit {CIRCUIT_WORDS[state]}</Badge>
    </span>
  );
}
