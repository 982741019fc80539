import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";

/** The Inbound page's filters, named like `GET /v1/inbound_messages`' query parameters. */
export const INBOUND_FILTER_PARAMS = [
  "address",
  "routeId",
  "status",
  "spf",
  "dkim",
  "dmarc",
  "spam",
  "createdFrom",
  "createdTo",
] as const;
export type InboundFilterValues = Record<(typeof INBOUND_FILTER_PARAMS)[number], string>;

/** Each check's results a filter offers (the values the message stores). */
const AUTH_RESULTS = ["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror"];
const CHECKS: Array<{ param: "spf" | "dkim" | "dmarc" | "spam"; label: string; values: string[] }> = [
  { param: "spf", label: "SPF", values: AUTH_RESULTS },
  { param: "dkim", label: "DKIM", values: ["pass", "fail", "neutral", "none", "temperror", "permerror"] },
  { param: "dmarc", label: "DMARC", values: ["pass", "fail", "none", "temperror", "permerror"] },
  { param: "spam", label: "Spam", values: ["clean", "spam", "not_checked", "error"] },
];

/**
 * A GET form, like the Emails filters: the URL carries every filter and a new search starts at the first
 * page. The server names a bad value's field; its error sits beside it.
 */
export function InboundFilters({
  values,
  routes,
  error,
}: {
  values: InboundFilterValues;
  routes: Array<{ id: string; pattern: string }>;
  error: { param: string; message: string } | null;
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
        {CHECKS.map((check) => (
          <Field
            key={check.param}
            label={check.label}
            htmlFor={`inbound-filter-${check.param}`}
            error={errorFor(check.param)}
          >
            <Select
              id={`inbound-filter-${check.param}`}
              name={check.param}
              defaultValue={values[check.param]}
              {...invalid(check.param)}
            >
              <option value="">Any result</option>
              {check.values.map((value) => (
                <option key={value} value={value}>
                  {value.replace(/_/g, " ")}
                </option>
              ))}
            </Select>
          </Field>
        ))}
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
