import { FormMessage } from "@/components/ui/field";
import { describeParam, type FieldError } from "@/lib/flows/workflows/builder.shared";

/** After a save: "Saved", or every problem with where it is ("Step 3, To: must not be empty"). */
export function SaveStatus({ errors, saved }: { errors: FieldError[]; saved: string | null }) {
  if (errors.length > 0) {
    return (
      <div
        role="alert"
        data-testid="save-errors"
        className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 ring-1 ring-red-200 ring-inset"
      >
        <p className="font-medium">
          Not saved: {errors.length === 1 ? "1 problem" : `${errors.length} problems`}, marked below.
        </p>
        <ul className="mt-1 list-disc pl-5">
          {errors.map((error, index) => (
            <li key={index}>
              {describeParam(error.param)}: {error.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return saved ? <FormMessage tone="success">{saved}</FormMessage> : null;
}
