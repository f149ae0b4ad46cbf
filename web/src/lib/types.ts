/**
 * The API's shapes, generated from the OpenAPI description (httpapi/openapi/openapi.json)
 * into src/api/schema.d.ts by `npm run gen:api`. These names are aliases so the app
 * keeps its vocabulary; change a shape in the description, never here.
 */
import type { components, paths } from '@/api/schema';

type Schemas = components['schemas'];

/** The data of an operation's 200 answer, for answers the description declares inline rather than as a named schema. */
export type ApiData<P extends keyof paths, M extends 'get' | 'post' | 'put' | 'patch' | 'delete'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

export type Role = Schemas['Role'];
export type User = Schemas['User'];
export type LoginResult = Schemas['LoginResult'];
export type Health = Schemas['Health'];

export type Side = Schemas['Side'];
export type OrderType = Schemas['OrderType'];
export type OrderStatus = Schemas['OrderStatus'];

/** Decimal amounts arrive as strings so no precision is lost on the wire. */
export type Decimal = Schemas['Decimal'];

export type Ticker = Schemas['Ticker'];
export type Candle = Schemas['Candle'];
/** A symbol's last 24 hours (GET /market-data/stats/{symbol}): open is the price 24 hours ago. */
export type Stats24h = Schemas['Stats24h'];
export type Order = Schemas['Order'];
export type Fill = Schemas['Fill'];
export type Position = Schemas['Position'];
export type Trade = Schemas['Trade'];
/** A symbol's trading rules (GET /market-data/products). */
export type Product = Schemas['Product'];
/** One currency's funds (GET /trading/balances); total = available + hold. */
export type Balance = Schemas['Balance'];
/** The exchange's taker and maker fee rates, fractions of a fill's notional (with GET /trading/balances). */
export type FeeRates = Schemas['FeeRates'];
export type Performance = Schemas['Performance'];
export type PortfolioSummary = Schemas['PortfolioSummary'];
export type SystemStatus = Schemas['SystemStatus'];
/** Present in the system status when the server runs as one instance of a cluster. */
export type ClusterStatus = Schemas['ClusterStatus'];
export type ClusterMember = Schemas['ClusterMember'];
/** The exchange's entry in the system status, under the key exchange_api_key names. */
export type ExchangeStatus = Schemas['ExchangeStatus'];
export type SystemMetrics = Schemas['SystemMetrics'];
