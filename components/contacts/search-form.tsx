import { buttonClass } from "@/components/ui/button";
import { Input } from "@/components/ui/field";

/** A GET form: the query lands in the URL, so a search is a shareable page like any other. */
export function SearchForm({
  action,
  name,
  label,
  defaultValue,
  placeholder,
}: {
  action: string;
  name: string;
  label: string;
  defaultValue: string;
  placeholder: string;
}) {
  return (
    <form action={action} method="get" role="search" className="mb-4 flex gap-2">
      <label htmlFor={`search-${name}`} className="sr-only">
        {label}
      </label>
      <Input
        id={`search-${name}`}
        name={name}
        type="search"
        defaultValue={defaultValue}
        placeholder={placeholder}
        className="max-w-sm"
        autoCapitalize="none"
        spellCheck={false}
      />
      <button type="submit" className={buttonClass("secondary")}>
        Search
      </button>
    </form>
  );
}
