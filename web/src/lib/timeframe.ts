/**
 * A timeframe as a person reads it: "1 hour" for the exchange's ONE_HOUR
 * granularity and for the chart setting's "1h". The API keeps its enum
 * values; only what is shown goes through here. An unknown value is shown
 * as it came, never guessed.
 */
const LABELS: Record<string, string> = {
  ONE_MINUTE: '1 minute',
  FIVE_MINUTE: '5 minutes',
  FIFTEEN_MINUTE: '15 minutes',
  THIRTY_MINUTE: '30 minutes',
  ONE_HOUR: '1 hour',
  TWO_HOUR: '2 hours',
  FOUR_HOUR: '4 hours',
  SIX_HOUR: '6 hours',
  ONE_DAY: '1 day',
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '30m': '30 minutes',
  '1h': '1 hour',
  '2h': '2 hours',
  '4h': '4 hours',
  '6h': '6 hours',
  '1d': '1 day',
};

export function timeframeLabel(value: string | null | undefined): string {
  if (!value) return '';
  return LABELS[value] ?? value;
}
