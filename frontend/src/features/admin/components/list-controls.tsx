import { ADMIN_SEARCH_MAX_LENGTH } from '@likeness/contracts';
import { Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';

/** A table's search box: it asks the server once the typing pauses (the caller debounces). */
export function ListSearch({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="grid gap-1.5 sm:w-72">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
        />
        <Input
          id={id}
          type="search"
          value={value}
          maxLength={ADMIN_SEARCH_MAX_LENGTH}
          placeholder={placeholder}
          autoComplete="off"
          className="h-10 pl-9"
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}

/** A labelled select over the table (status, sort). */
export function ListSelect<TValue extends string>({
  id,
  label,
  value,
  onChange,
  options,
}: {
  id: string;
  label: string;
  value: TValue;
  onChange: (value: TValue) => void;
  options: readonly { value: TValue; label: string }[];
}) {
  return (
    <div className="grid gap-1.5 sm:w-44">
      <Label htmlFor={id}>{label}</Label>
      <NativeSelect
        id={id}
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}

export type SortOrder = 'newest' | 'oldest';
export const sortOptions: readonly { value: SortOrder; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
];

/** A cell's moment: relative in words, the full date and time on hover. */
export function TimeCell({ iso, children }: { iso: string; children: ReactNode }) {
  return (
    <time dateTime={iso} title={new Date(iso).toLocaleString()} className="whitespace-nowrap">
      {children}
    </time>
  );
}

/** How many characters of a long id fit a cell; the whole id is in its title and read out. */
const ID_PREVIEW_LENGTH = 14;

/** A payment's or job's id: long ones shortened on screen, whole on hover, for screen readers and in the CSV. */
export function IdCell({ id }: { id: string }) {
  if (id.length <= ID_PREVIEW_LENGTH + 2) return <span className="font-mono text-xs whitespace-nowrap">{id}</span>;
  return (
    <span title={id} className="font-mono text-xs whitespace-nowrap">
      <span aria-hidden="true">{id.slice(0, ID_PREVIEW_LENGTH)}…</span>
      <span className="sr-only">{id}</span>
    </span>
  );
}
