export type AlertSeverity = 'critical' | 'high' | 'medium' | 'low';

const STYLES: Record<AlertSeverity, { box: string; icon: string; label: string }> = {
  critical: { box: 'border-red-400 bg-red-50 dark:border-red-700 dark:bg-red-950', icon: 'text-red-600 dark:text-red-400', label: 'Critical' },
  high: { box: 'border-orange-400 bg-orange-50 dark:border-orange-700 dark:bg-orange-950', icon: 'text-orange-600 dark:text-orange-400', label: 'High' },
  medium: { box: 'border-amber-300 bg-amber-50 dark:border-amber-700 dark:bg-amber-950', icon: 'text-amber-600 dark:text-amber-400', label: 'Medium' },
  low: { box: 'border-sky-300 bg-sky-50 dark:border-sky-700 dark:bg-sky-950', icon: 'text-sky-600 dark:text-sky-400', label: 'Low' },
};

export function severityStyle(severity: string) {
  return STYLES[severity as AlertSeverity] ?? STYLES.low;
}

/** A warning triangle for critical and high, an information circle otherwise. */
export function SeverityIcon({ severity }: { severity: string }) {
  const s = severityStyle(severity);
  const common = { className: `h-5 w-5 shrink-0 ${s.icon}`, viewBox: '0 0 20 20', fill: 'currentColor', 'aria-hidden': true };
  if (severity === 'critical' || severity === 'high') {
    return (
      <svg {...common}>
        <path
          fillRule="evenodd"
          d="M8.485 2.495c.673-1.167 2.357-1.167 3.03 0l6.28 10.875c.673 1.167-.17 2.625-1.516 2.625H3.72c-1.347 0-2.189-1.458-1.515-2.625L8.485 2.495zM10 6a.75.75 0 01.75.75v3.5a.75.75 0 01-1.5 0v-3.5A.75.75 0 0110 6zm0 9a1 1 0 100-2 1 1 0 000 2z"
          clipRule="evenodd"
        />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <path
        fillRule="evenodd"
        d="M18 10a8 8 0 11-16 0 8 8 0 0116 0zm-7-4a1 1 0 11-2 0 1 1 0 012 0zM9 9a.75.75 0 000 1.5h.253a.25.25 0 01.244.304l-.459 2.066A1.75 1.75 0 0010.747 15H11a.75.75 0 000-1.5h-.253a.25.25 0 01-.244-.304l.459-2.066A1.75 1.75 0 009.253 9H9z"
        clipRule="evenodd"
      />
    </svg>
  );
}
