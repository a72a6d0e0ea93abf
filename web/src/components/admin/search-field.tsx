import { useId } from "react";
import { SearchIcon } from "@/components/ui/icons";

/** The search box above an admin list (the filtering itself is the caller's). */
export function SearchField({ label, placeholder, value, onChange }: { label: string; placeholder: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="search-field">
      <label className="sr-only" htmlFor={id}>
        {label}
      </label>
      <SearchIcon className="search-field-icon" />
      <input
        id={id}
        className="input search-field-input"
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
