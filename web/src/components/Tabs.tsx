/** A row of tabs (role tablist); the selected one underlined. */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  label,
  className = '',
}: {
  tabs: readonly T[];
  value: T;
  onChange: (t: T) => void;
  label?: string;
  className?: string;
}) {
  return (
    <div role="tablist" aria-label={label} className={`flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-800 ${className}`}>
      {tabs.map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          aria-selected={value === t}
          onClick={() => onChange(t)}
          className={`-mb-px border-b-2 px-4 py-2 text-sm font-medium ${value === t ? 'border-blue-600 text-blue-600 dark:text-blue-400' : 'border-transparent text-slate-500 hover:text-slate-700 dark:hover:text-slate-300'}`}
        >
          {t}
        </button>
      ))}
    </div>
  );
}
