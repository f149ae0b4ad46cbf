import type { IChartApi, IRange, Time } from 'lightweight-charts';
import { useEffect, useState } from 'react';
import { formatDateTime } from '@/lib/format';

/** A chart's visible span, in Unix seconds (null: nothing drawn yet). */
export type Span = { from: number; to: number } | null;

/** Follows what part of its data chart shows (it changes when the reader scrolls, zooms or the chart refits). */
export function useVisibleSpan(chart: IChartApi | null): Span {
  const [span, setSpan] = useState<Span>(null);
  useEffect(() => {
    if (!chart) return;
    const ts = chart.timeScale();
    const on = (r: IRange<Time> | null) => setSpan(r ? { from: Number(r.from), to: Number(r.to) } : null);
    ts.subscribeVisibleTimeRangeChange(on);
    // The chart may have fitted before this subscribed: read where it is now,
    // and again after its next layout.
    const read = () => on(ts.getVisibleRange());
    read();
    const frame = requestAnimationFrame(read);
    return () => {
      cancelAnimationFrame(frame);
      ts.unsubscribeVisibleTimeRangeChange(on);
    };
  }, [chart]);
  return span;
}

const iso = (s: number) => new Date(s * 1000).toISOString();

/**
 * Says which part of a run a chart shows, so a reader never takes the last
 * weeks on screen for the whole run: "the whole run", or the part shown with
 * a button that fits the chart to all of it again.
 */
export function VisibleSpan({ span, first, last, onFit, testId }: { span: Span; first: number; last: number; onFit: () => void; testId: string }) {
  if (!span) return null;
  const whole = span.from <= first && span.to >= last;
  return (
    <p className="mt-1 text-xs text-slate-500 dark:text-slate-400" data-testid={testId} data-whole={whole ? 'true' : 'false'}>
      Showing {formatDateTime(iso(span.from))} to {formatDateTime(iso(span.to))}
      {whole ? (
        ': the whole run'
      ) : (
        <>
          : part of the run ({formatDateTime(iso(first))} to {formatDateTime(iso(last))}).{' '}
          <button type="button" className="text-blue-600 hover:underline dark:text-blue-400" onClick={onFit}>
            Show the whole run
          </button>
        </>
      )}
    </p>
  );
}
