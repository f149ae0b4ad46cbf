export type Role = 'trader' | 'operator';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_login: string | null;
  disabled?: boolean;
}

export interface LoginResult {
  token: string;
  user: User;
}

export interface Health {
  status: 'healthy' | 'degraded' | 'unhealthy' | string;
  checks: Record<string, string>;
  uptime_seconds: number;
  timestamp: string;
}

export type Side = 'BUY' | 'SELL';
export type OrderType = 'market' | 'limit' | 'stop_loss';
export type OrderStatus = 'pending' | 'open' | 'filled' | 'cancelled' | 'rejected';

/** Decimal amounts arrive as strings so no precision is lost on the wire. */
export type Decimal = string;

export interface Ticker {
  symbol: string;
  price: Decimal;
  bid: Decimal;
  ask: Decimal;
  volume_24h: Decimal;
  timestamp: string;
}

export interface Candle {
  timestamp: string;
  open: Decimal;
  high: Decimal;
  low: Decimal;
  close: Decimal;
  volume: Decimal;
}

export interface Order {
  id: string;
  client_order_id?: string;
  symbol: string;
  side: Side;
  order_type: OrderType;
  quantity: Decimal;
  price: Decimal | null;
  stop_price?: Decimal | null;
  filled_quantity: Decimal;
  average_fill_price: Decimal | null;
  fee: Decimal;
  /** What the order still reserves (quote currency for buy limits, base for sells). */
  hold?: Decimal;
  /** Protective orders attached to one BUY fill share a group: one-cancels-other. */
  group_id?: string;
  /** The BUY order whose fill this protective order guards. */
  parent_order_id?: string;
  status: OrderStatus;
  reject_reason?: string;
  strategy: string;
  created_at: string;
  updated_at: string;
}

export interface Fill {
  id: string;
  order_id: string;
  symbol: string;
  side: Side;
  quantity: Decimal;
  price: Decimal;
  fee: Decimal;
  liquidity: 'maker' | 'taker';
  timestamp: string;
}

export interface Position {
  symbol: string;
  quantity: Decimal;
  avg_price: Decimal;
  current_price: Decimal;
  unrealized_pnl: Decimal;
  realized_pnl: Decimal;
  current_value: Decimal;
  pnl_percentage: Decimal;
}

export interface Trade {
  id: string;
  symbol: string;
  side: Side;
  quantity: Decimal;
  price: Decimal | null;
  total_value: Decimal;
  fee: Decimal;
  status: 'executed' | 'pending' | 'failed' | 'cancelled' | string;
  strategy: string;
  timestamp: string;
  order_type?: OrderType;
  order_id?: string;
  reason?: string;
  filled_quantity?: Decimal;
  /** Present and above zero when the order filled in part and the rest was cancelled. */
  cancelled_quantity?: Decimal;
}

/** A symbol's trading rules (GET /market-data/products). */
export interface Product {
  product_id: string;
  base_currency: string;
  quote_currency: string;
  price_increment: Decimal;
  base_increment: Decimal;
  base_min_size: Decimal;
  status: string;
  price: Decimal;
}

/** One currency's funds (GET /trading/balances); total = available + hold. */
export interface Balance {
  asset: string;
  available: Decimal;
  hold: Decimal;
  total: Decimal;
}

export interface Performance {
  daily_pnl: Decimal;
  total_trades: number;
  successful_trades: number;
  failed_trades: number;
  win_rate: number;
  total_exposure: Decimal;
  portfolio_value: Decimal;
  active_positions: number;
  pending_orders: number;
}

export interface PortfolioSummary {
  total_value: Decimal;
  cash_balance: Decimal;
  total_unrealized_pnl: Decimal;
  total_realized_pnl: Decimal;
  weekly_pnl: Decimal;
  daily_pnl: Decimal;
  positions_count: number;
  positions: Position[];
  diversification?: { symbols: number; largest_position_percentage: Decimal } | null;
  total_exposure: Decimal;
  last_updated: string;
}

export interface SystemStatus {
  overall_status: string;
  timestamp: string;
  trading_engine: { trading_halted: boolean; uptime_seconds: number; status: string };
  websocket?: { status: string; clients: number };
  database: { status: string };
  exchange_api_key?: string;
  risk_management?: { emergency_stop: boolean; halted_by?: string; halted_at?: string | null; reason?: string };
  market_data?: { status: string; last_tick_age_seconds: number; source: string };
  /** Present when the server runs as one instance of a cluster. */
  cluster?: ClusterStatus;
  [key: string]: unknown;
}

export interface ClusterStatus {
  /** This instance's id. */
  instance: string;
  /** The id of the instance running the trading engine; empty during a failover. */
  leader: string;
  instances: { id: string; addr: string; leader: boolean; started: string; last_seen: string }[];
}

export interface SystemMetrics {
  trading?: {
    total_trades: number;
    successful_trades: number;
    failed_trades: number;
    daily_pnl: Decimal;
    active_positions: number;
    pending_orders: number;
    win_rate: number;
  };
}
