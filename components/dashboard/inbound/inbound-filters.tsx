import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";

/** The Inbound page's filters, named like `GET /v1/inbound_messages`' query parameters. */
export const INBOUND_FILTER_PARAMS = ["address", "routeId", "status", "verdict", "createdFrom", "createdTo"] as const;
export type InboundFilterValues = Record<(typeof INBOUND_FILTER_PARAMS)[number], string>;

/** What the verdict filter offers: the API's `verdict` values. */
export const VERDICT_CHOICES: Array<{ value: string; label: string }> = [
  { value: "dmarc_pass", label: "DMARC passed" },
  { value: "dmarc_fail", label: "DMARC failed" },
  { value: "spf_fail", label: "SPF failed" },
  { value: "dkim_fail", label: "DKIM failed" },
  { value: "spam", label: "Spam" },
];

/**
 * A GET form, like the Emails filters: the URL carries every filter and a new search starts at the first
 * page. The server names a bad value's field; its error sits beside it.
 */
export function InboundFilters({
  values,
  routes,
  error,
  verdicts = VERDICT_CHOICES,
}: {
  values: InboundFilterValues;
  routes: Array<{ id: string; pattern: string }>;
  error: { param: string; message: string } | null;
  verdicts?: Array<{ value: string; label: string }>;
}) {
  const errorFor = (param: string) => (error?.param === param ? error.message : null);
  const invalid = (param: string) =>
    error?.param === param ? { "aria-invalid": true, "aria-describedby": `inbound-filter-${param}-error` } : {};
  const routeKnown = !values.routeId || routes.some((route) => route.id === values.routeId);
  return (
    <form
      method="get"
      action="/inbound"
      aria-label="Filter inbound mail"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field label="Address" htmlFor="inbound-filter-address" error={errorFor("address")} hint="Recipient or sender">
          <Input
            id="inbound-filter-address"
            name="address"
            type="text"
            inputMode="email"
            placeholder="support@in.example.com"
            defaultValue={values.address}
            {...invalid("address")}
          />
        </Field>
        <Field label="Route" htmlFor="inbound-filter-routeId" error={errorFor("routeId")}>
          <Select id="inbound-filter-routeId" name="routeId" defaultValue={values.routeId} {...invalid("routeId")}>
            <option value="">Any route</option>
            {routeKnown ? null : <option value={values.routeId}>{values.routeId}</option>}
            {routes.map((route) => (
              <option key={route.id} value={route.id}>
                {route.pattern}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Status" htmlFor="inbound-filter-status" error={errorFor("status")}>
          <Select id="inbound-filter-status" name="status" defaultValue={values.status} {...invalid("status")}>
            <option value="">Received or quarantined</option>
            <option value="RECEIVED">Received</option>
            <option value="QUARANTINED">Quarantined</option>
          </Select>
        </Field>
        <Field label="Checks" htmlFor="inbound-filter-verdict" error={errorFor("verdict")}>
          <Select id="inbound-filter-verdict" name="verdict" defaultValue={values.verdict} {...invalid("verdict")}>
            <option value="">Any result</option>
            {verdicts.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Received from" htmlFor="inbound-filter-createdFrom" error={errorFor("createdFrom")}>
          <Input
            id="inbound-filter-createdFrom"
            name="createdFrom"
            type="date"
            defaultValue={values.createdFrom}
            {...invalid("createdFrom")}
          />
        </Field>
        <Field label="Received to" htmlFor="inbound-filter-createdTo" error={errorFor("createdTo")}>
          <Input
            id="inbound-filter-createdTo"
            name="createdTo"
            type="date"
            defaultValue={values.createdTo}
            {...invalid("createdTo")}
          />
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass("primary")}>
          Apply filters
        </button>
        <Link href="/inbound" className={buttonClass("ghost")}>
          Clear
        </Link>
        <span className="text-xs text-slate-500">Dates are whole days in UTC.</span>
      </div>
    </form>
  );
}
