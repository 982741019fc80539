import { ConfirmSubmit } from "@/components/ui/confirm-submit";

/** Removing is the risky direction (mail flows to the address again), so it asks first. */
export function RemoveSuppressionButton({
  email,
  action,
}: {
  email: string;
  action: (form: FormData) => Promise<void>;
}) {
  return (
    <form action={action}>
      <input type="hidden" name="email" value={email} />
      <ConfirmSubmit
        label="Remove"
        title={`Remove ${email} from the suppression list?`}
        variant="secondary"
        confirmLabel="Remove from list"
      >
        Live messages to {email} are sent again. If the address bounced hard, it will likely bounce again and hurt the
        workspace&apos;s reputation.
      </ConfirmSubmit>
    </form>
  );
}
