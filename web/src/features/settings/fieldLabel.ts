/**
 * A settings field as the form labels it, for messages shown to people: a
 * validation issue names "Max position size", never
 * "trading.riskManagement.maxPositionSize". Fields whose label is not their
 * key spelled out are listed; the rest are spelled out from the key's last part.
 */
const LABELS: Record<string, string> = {
  'trading.riskManagement.stopLossPercent': 'Stop loss',
  'trading.riskManagement.takeProfitPercent': 'Take profit',
  'api.exchange.apiKey': 'API key',
  'api.exchange.apiSecret': 'API secret',
  'api.ai.timeout': 'AI provider timeout',
  'api.exchange.timeout': 'Exchange timeout',
};

/** Keys under these name a model or a provider, whose names may hold dots (gpt-4.1-nano). */
const KEYED: [string, (key: string) => string][] = [
  ['api.ai.pricing.', (m) => `Price of ${m}`],
  ['api.ai.monthlyBudget.', (p) => `Monthly budget for ${p}`],
];

export function fieldLabel(path: string): string {
  const known = LABELS[path];
  if (known) return known;
  for (const [prefix, label] of KEYED) if (path.startsWith(prefix)) return label(path.slice(prefix.length));
  const last = path.split('.').pop() ?? path;
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
