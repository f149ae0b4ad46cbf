/** Spec display rules: risk level by largest position share; warning above 50% or exposure above 80%. */
export function riskLevel(largestPct: number): 'High' | 'Medium' | 'Low' {
  if (largestPct > 50) return 'High';
  if (largestPct > 30) return 'Medium';
  return 'Low';
}

export function riskWarning(largestPct: number, exposure: number, portfolioValue: number): boolean {
  return largestPct > 50 || (portfolioValue > 0 && exposure / portfolioValue > 0.8);
}

/** What the trade counts mean, under every card that shows them (the server's one definition). */
export const TRADES_NOTE = 'A trade is a closed round trip (flat to flat); successful ones made money after fees, failed ones did not.';

/** Win rate colour: green at 60% or above, yellow at 40% or above, else red. */
export function winRateClass(pct: number): string {
  if (pct >= 60) return 'text-emerald-600 dark:text-emerald-400';
  if (pct >= 40) return 'text-amber-600 dark:text-amber-400';
  return 'text-red-600 dark:text-red-400';
}
