import "../../../server/check-node.mjs"; // first: a clear error on an unsupported Node
import "server-only";
import { flushActivityLog } from "@/lib/records/activity/record-activity";
import { runStandalone } from "@/lib/entry/process/run-standalone";
import { startSubmissionServer } from "./start-submission-server";

// Any number may run behind a TCP load balancer: each message is committed before its 250.
runStandalone({
  command: "npm run smtp",
  noun: "smtp submission",
  tracingName: "smtp",
  embeddedHint: "With the embedded database the server runs the SMTP listener itself.",
  misconfigured: (config) =>
    config.SMTP_SUBMISSION_PORT === undefined && config.SMTP_SUBMISSION_TLS_PORT === undefined
      ? "npm run smtp needs SMTP_SUBMISSION_PORT (587, STARTTLS) or SMTP_SUBMISSION_TLS_PORT (465, implicit TLS)."
      : null,
  start: async () => {
    const listener = (await startSubmissionServer())!;
    return async () => {
      await listener.close();
      await flushActivityLog();
    };
  },
});
