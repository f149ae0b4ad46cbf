import { Fragment, useSyncExternalStore, type ReactNode } from 'react';

/** Tailwind's md breakpoint: from here up a wide table fits; below it rows become cards. */
export const WIDE_QUERY = '(min-width: 768px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const mq = window.matchMedia(WIDE_QUERY);
  mq.addEventListener('change', onChange);
  return () => mq.removeEventListener('change', onChange);
}

/** Whether the window is at least md wide; true where it cannot be told (tests without matchMedia). */
export function useWide(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_QUERY).matches : true),
    () => true,
  );
}

export interface Column<T> {
  /** The heading at md and up; also the card's label unless label is given. */
  header: string;
  /** What the heading shows when it is more than its text (a note under it). */
  headerNode?: ReactNode;
  headerTitle?: string;
  cell: (row: T) => ReactNode;
  /** Classes for the value (colour, weight), in the table cell and on the card. */
  className?: (row: T) => string;
  /** Keeps the table cell on one line (a card's half width must wrap). */
  nowrap?: boolean;
  /** Takes the card's whole width (a value too long for half of it). */
  full?: boolean;
  /** Right-aligns the column in the table (figures). */
  right?: boolean;
  /** A test id on the cell and on the card's value. */
  testId?: string;
  /** Shown in the card's title line instead of as a label: value pair (symbol, side). */
  title?: boolean;
}

interface Props<T> {
  label: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string;
  /** The test id of a row (a table row or a card). */
  rowTestId: string;
  /** The row's buttons: the last column at md and up, a button row on a card. */
  actions?: (row: T) => ReactNode;
  /** A full-width note under a row (e.g. a protective order that shrank). */
  after?: (row: T) => ReactNode;
}

const td = 'px-2 py-2';

/**
 * A wide table at md and up; below it (a phone) one card per row, each value
 * with its column's label and the row's actions as buttons, so nothing
 * scrolls sideways. Only one of the two is rendered: a hidden copy would
 * double every row for tests and assistive technology alike.
 */
export function DataTable<T>({ label, rows, columns, rowKey, rowTestId, actions, after }: Props<T>) {
  const wide = useWide();
  if (!wide) return <Cards label={label} rows={rows} columns={columns} rowKey={rowKey} rowTestId={rowTestId} actions={actions} after={after} />;
  const span = columns.length + (actions ? 1 : 0);
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" aria-label={label}>
        <thead className="text-left text-slate-500 dark:text-slate-400">
          <tr>
            {columns.map((c) => (
              <th key={c.header} className={`px-2 py-2 font-medium ${c.right ? 'text-right' : ''}`} title={c.headerTitle}>
                {c.headerNode ?? c.header}
              </th>
            ))}
            {actions && <th className="px-2 py-2 font-medium">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const note = after?.(r);
            return (
              <Fragment key={rowKey(r)}>
                <tr className="border-t border-slate-100 tabular-nums dark:border-slate-800" data-testid={rowTestId}>
                  {columns.map((c) => (
                    <td key={c.header} className={`${td} ${c.nowrap ? 'whitespace-nowrap' : ''} ${c.right ? 'text-right' : ''} ${c.className?.(r) ?? ''}`} data-testid={c.testId}>
                      {c.cell(r)}
                    </td>
                  ))}
                  {actions && <td className={`${td} space-x-1 whitespace-nowrap`}>{actions(r)}</td>}
                </tr>
                {note && (
                  <tr>
                    <td colSpan={span} className="px-2 pb-2">
                      {note}
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Cards<T>({ label, rows, columns, rowKey, rowTestId, actions, after }: Props<T>) {
  const titled = columns.filter((c) => c.title);
  const fields = columns.filter((c) => !c.title);
  return (
    <ul className="space-y-3" aria-label={label}>
      {rows.map((r) => {
        const buttons = actions?.(r);
        const note = after?.(r);
        return (
          <li key={rowKey(r)} className="rounded-md border border-slate-200 p-3 text-sm tabular-nums dark:border-slate-700" data-testid={rowTestId} data-layout="card">
            {titled.length > 0 && (
              <p className="mb-2 flex flex-wrap items-baseline gap-x-2 font-semibold">
                {titled.map((c) => (
                  <span key={c.header} className={c.className?.(r)} data-testid={c.testId}>
                    {c.cell(r)}
                  </span>
                ))}
              </p>
            )}
            <dl className="grid grid-cols-2 gap-x-3 gap-y-2">
              {fields.map((c) => (
                <div key={c.header} className={`min-w-0 ${c.full ? 'col-span-2' : ''}`} data-label={c.header}>
                  <dt className="text-xs text-slate-500 dark:text-slate-400">{c.header}</dt>
                  <dd className={`break-words ${c.className?.(r) ?? ''}`} data-testid={c.testId}>
                    {c.cell(r)}
                  </dd>
                </div>
              ))}
            </dl>
            {note && <div className="mt-2">{note}</div>}
            {buttons && <div className="mt-3 flex flex-wrap gap-2 [&>button]:px-3 [&>button]:py-1.5 [&>button]:text-sm">{buttons}</div>}
          </li>
        );
      })}
    </ul>
  );
}
