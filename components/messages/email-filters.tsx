import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { Field, Input, Select } from "@/components/ui/field";

export const STATUSES = ["PENDING", "SUCCEEDED", "PAUSED", "FAILED", "DELETED", "CANCELLED"] as const;
export const SOURCES = [
  "API",
  "BATCH",
  "WORKFLOW",
  "SANDBOX_API",
  "SANDBOX_BATCH",
  "SANDBOX_WORKFLOW",
  "PREVIEW",
] as const;

export interface EmailFilterValues {
  subject: string;
  status: string;
  source: string;
  mode: string;
  templateId: string;
  batchId: string;
  to: string;
  metaId: string;
  createdFrom: string;
  createdTo: string;
  scheduled: string;
  limit: string;
}

/**
 * The Emails filters: a GET form, so the URL carries every filter (shareable, back-button safe) and a
 * new search starts at the first page. The server names a bad value's field; its error sits beside it.
 */
export function EmailFilters({
  values,
  tags = [],
  templates,
  error,
}: {
  values: EmailFilterValues;
  /** The `tag` filters in force (repeated in the URL: a message must carry every one). */
  tags?: string[];
  templates: { id: string; name: string }[];
  error: { param: string; message: string } | null;
}) {
  const errorFor = (param: string) => (error?.param === param ? error.message : null);
  const invalid = (param: string) =>
    error?.param === param ? { "aria-invalid": true, "aria-describedby": `filter-${param}-error` } : {};
  const templateKnown = !values.templateId || templates.some((template) => template.id === values.templateId);
  return (
    <form
      method="get"
      action="/emails"
      aria-label="Filter emails"
      className="mb-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2 lg:col-span-4">
          <Field label="Subject" htmlFor="filter-subject" error={errorFor("subject")} hint="Contains, any case">
            <Input
              id="filter-subject"
              name="subject"
              type="search"
              placeholder="Search subjects: receipt, order 1042…"
              defaultValue={values.subject}
              {...invalid("subject")}
            />
          </Field>
        </div>
        {/* The API's status filter (the URL is the API's query), not the delivery state the table leads with. */}
        <Field label="API status" htmlFor="filter-status" error={errorFor("status")}>
          <Select id="filter-status" name="status" defaultValue={values.status} {...invalid("status")}>
            <option value="">Any API status</option>
            {STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </Select>
        </Field>
        <Field label="Source" htmlFor="filter-source" error={errorFor("source")}>
          <Select id="filter-source" name="source" defaultValue={values.source} {...invalid("source")}>
            <option value="">Any source</option>
            {SOURCES.map((source) => (
              <option key={source}>{source}</option>
            ))}
          </Select>
        </Field>
        <Field label="Scheduled" htmlFor="filter-scheduled" error={errorFor("scheduled")}>
          <Select id="filter-scheduled" name="scheduled" defaultValue={values.scheduled} {...invalid("scheduled")}>
            <option value="">Scheduled or not</option>
            <option value="true">Scheduled, still waiting</option>
            <option value="false">Not scheduled</option>
          </Select>
        </Field>
        <Field label="Live or sandbox" htmlFor="filter-mode" error={errorFor("mode")}>
          <Select id="filter-mode" name="mode" defaultValue={values.mode} {...invalid("mode")}>
            <option value="">Live and sandbox</option>
            <option value="live">Live only</option>
            <option value="sandbox">Sandbox only</option>
          </Select>
        </Field>
        <Field label="Template" htmlFor="filter-template" error={errorFor("templateId")}>
          <Select id="filter-template" name="templateId" defaultValue={values.templateId} {...invalid("templateId")}>
            <option value="">Any template</option>
            {templateKnown ? null : <option value={values.templateId}>{values.templateId}</option>}
            {templates.map((template) => (
              <option key={template.id} value={template.id}>
                {template.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Recipient" htmlFor="filter-to" error={errorFor("to")} hint="Exact address">
          <Input
            id="filter-to"
            name="to"
            type="text"
            inputMode="email"
            placeholder="ada@example.org"
            defaultValue={values.to}
            {...invalid("to")}
          />
        </Field>
        <Field label="Meta id" htmlFor="filter-metaId" error={errorFor("metaId")}>
          <Input id="filter-metaId" name="metaId" defaultValue={values.metaId} {...invalid("metaId")} />
        </Field>
        <Field label="Batch id" htmlFor="filter-batchId" error={errorFor("batchId")}>
          <Input
            id="filter-batchId"
            name="batchId"
            placeholder="batch_…"
            defaultValue={values.batchId}
            {...invalid("batchId")}
          />
        </Field>
        <TagFilter tags={tags} error={errorFor("tag")} invalid={invalid("tag")} />
        <div className="grid grid-cols-2 gap-3">
          <Field label="Created from" htmlFor="filter-createdFrom" error={errorFor("createdFrom")}>
            <Input
              id="filter-createdFrom"
              name="createdFrom"
              type="date"
              defaultValue={values.createdFrom}
              {...invalid("createdFrom")}
            />
          </Field>
          <Field label="Created to" htmlFor="filter-createdTo" error={errorFor("createdTo")}>
            <Input
              id="filter-createdTo"
              name="createdTo"
              type="date"
              defaultValue={values.createdTo}
              {...invalid("createdTo")}
            />
          </Field>
        </div>
      </div>
      {values.limit ? <input type="hidden" name="limit" value={values.limit} /> : null}
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonClass("primary")}>
          Apply filters
        </button>
        <Link href="/emails" className={buttonClass("ghost")}>
          Clear
        </Link>
        <span className="text-xs text-slate-500">Dates are whole days in UTC.</span>
      </div>
    </form>
  );
}

/**
 * The tag filters: each one in force is a checked chip (uncheck and apply to drop it), and a field adds one more.
 * All of them are `tag` in the URL, so a message must carry every one (docs/api.md#tags).
 */
function TagFilter({
  tags,
  error,
  invalid,
}: {
  tags: string[];
  error: string | null;
  invalid: Record<string, unknown>;
}) {
  return (
    <Field label="Tags" htmlFor="filter-tag" error={error} hint="name:value, all must match">
      {tags.length > 0 ? (
        <div className="mb-1.5 flex flex-wrap gap-1" data-testid="tag-filter-chips">
          {tags.map((tag) => (
            <label
              key={tag}
              className="inline-flex max-w-full items-center gap-1 rounded bg-indigo-50 px-1.5 py-px font-mono text-[11px] text-indigo-700 ring-1 ring-indigo-200 ring-inset"
            >
              <input type="checkbox" name="tag" value={tag} defaultChecked aria-label={`Filter by ${tag}`} />
              <span className="truncate">{tag}</span>
            </label>
          ))}
        </div>
      ) : null}
      <Input id="filter-tag" name="tag" type="text" placeholder="plan:pro" defaultValue="" {...invalid} />
    </Field>
  );
}
