/** The markets GET /api/market-data/products answers in tests: the symbol selectors list these. */
export const PRODUCTS = ['BTC-USD', 'ETH-USD', 'ADA-USD', 'SOL-USD'].map((id) => ({
  product_id: id,
  base_currency: id.split('-')[0]!,
  quote_currency: 'USD',
  price_increment: '0.01',
  quote_increment: '0.01',
  base_increment: '0.00000001',
  base_min_size: '0.00001',
  status: 'online',
}));

/** The answer's data. */
export const productsAnswer = { products: PRODUCTS };
