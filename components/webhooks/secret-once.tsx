import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { FormMessage } from "@/components/ui/field";

/** A signing secret shown the one time it exists in clear (creation or rotation); only its sealed form is stored. */
export function SecretOnce({
  title,
  secret,
  testId,
  children,
}: {
  title: string;
  secret: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <section className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 p-4" data-testid={testId}>
      <h2 className="text-sm font-semibold text-emerald-900">{title}</h2>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 font-mono text-sm break-all" data-testid={`${testId}-value`}>
          {secret}
        </code>
        <CopyButton value={secret} label="Copy the signing secret" />
      </div>
      <FormMessage tone="success">
        This is the only time the secret is shown. Store it where the receiver reads it.
      </FormMessage>
      {children ? <p className="text-sm text-emerald-900">{children}</p> : null}
    </section>
  );
}
