/**
 * The markets the server lists (GET /market-data/products): their symbols feed
 * every symbol selector, their increments the price places and order sizes.
 * One query, shared by every caller; they rarely change, so read every 5 minutes at most.
 */
import { useQuery } from '@tanstack/react-query';
import { api } from './api';
import { marketKeys } from './queryKeys';
import type { Product } from './types';

export const productsQuery = {
  queryKey: marketKeys.products,
  queryFn: () => api.get<{ products: Product[] }>('/market-data/products').then((d) => d.products),
  staleTime: 5 * 60_000,
};

/** Every product with its trading rules. */
export function useProducts() {
  return useQuery(productsQuery);
}

/** One symbol's rules, undefined until the products load (or when the symbol is not listed). */
export function useProduct(symbol: string): Product | undefined {
  return useProducts().data?.find((p) => p.product_id === symbol);
}

const symbolsOf = (ps: Product[]) => ps.map((p) => p.product_id);

/** The symbols the server lists, and whether they are still loading (then the list is empty). */
export function useSymbols(): { symbols: string[]; loading: boolean } {
  const q = useQuery({ ...productsQuery, select: symbolsOf });
  return { symbols: q.data ?? [], loading: q.isPending };
}

/**
 * The options of a symbol selector: the listed symbols, with the current choice
 * first when it is not (yet) among them, so a selector shows its value while the
 * list loads or when the server does not list it.
 */
export function useSymbolChoices(current = ''): string[] {
  const { symbols } = useSymbols();
  return current && !symbols.includes(current) ? [current, ...symbols] : symbols;
}
