import type { components } from '@/api/schema';

type Schemas = components['schemas'];

/** Platform settings as the server sends them (settings/schema.go). */

export interface ExchangeSettings {
  provider: string; // sandbox | coinbase
  apiKey: string;
  apiSecret: string;
  sandbox: boolean;
  timeout: number;
  rateLimit: number;
}

export interface AIProviderSettings {
  provider: string; // builtin | replicate | openai
  apiToken: string;
  model: string;
  baseUrl: string;
  timeout: number;
}

export interface ApiSettings {
  exchange: ExchangeSettings;
  ai: AIProviderSettings;
}

export interface TradingSettings {
  defaultParameters: { quantity: number; orderType: string; timeInForce: string };
  riskManagement: {
    maxPositionSize: number;
    dailyLossLimit: number;
    maxDrawdown: number;
    stopLossPercent: number;
    maxOpenPositions: number;
    maxDailyTrades: number;
    minTradeAmount: number;
    maxTradeAmount: number;
    maxLeverage: number;
    /** Beyond the spec: take-profit distance above a BUY's fill price, as a fraction. */
    takeProfitPercent: number;
  };
  automation: {
    autoTrading: boolean;
    emergencyStop: boolean;
    confirmTrades: boolean;
    enableStopLoss: boolean;
    enableTakeProfit: boolean;
  };
}

export interface UISettings {
  theme: { mode: string; primaryColor: string; accentColor: string; fontSize: string };
  dashboard: { layout: string; showMetrics: boolean; showCharts: boolean; showRecentTrades: boolean; refreshInterval: number };
  charts: { type: string; timeframe: string; indicators: string[] | null; showVolume: boolean; showGrid: boolean };
  notifications: { trades: boolean; alerts: boolean; system: boolean; email: boolean; push: boolean; sound: boolean };
  display: { currency: string; decimalPlaces: number; thousandsSeparator: string; dateFormat: string; timeFormat: string };
  language: { locale: string; timezone: string };
}

export interface SystemSettings {
  monitoring: { enableHealthChecks: boolean; healthCheckInterval: number; enablePerformanceMetrics: boolean; metricsRetention: number };
  logging: { level: string; enableFileLogging: boolean; logRetention: number; enableRemoteLogging: boolean };
  backup: { enableAutoBackup: boolean; backupInterval: number; backupRetention: number; backupLocation: string };
  security: {
    enableTwoFactor: boolean;
    sessionTimeout: number;
    enableApiKeyRotation: boolean;
    apiKeyRotationInterval: number;
    enableAuditLog: boolean;
  };
  performance: {
    enableCaching: boolean;
    cacheTimeout: number;
    enableCompression: boolean;
    maxConcurrentRequests: number;
    requestTimeout: number;
  };
}

export interface PlatformSettings {
  version: string;
  lastUpdated: string;
  api?: ApiSettings | null;
  trading?: TradingSettings | null;
  ui?: UISettings | null;
  system?: SystemSettings | null;
}

export type ValidationIssue = Schemas['ValidationIssue'];

export type ValidationResult = Schemas['ValidationResult'];

export type Effect = 'applied' | 'stored';

export interface SettingsReply {
  settings: PlatformSettings;
  validation: ValidationResult;
  effects: Record<string, Effect | string> | null;
}

export interface ExportFile {
  settings: PlatformSettings;
  exportDate: string;
  version: string;
  checksum: string;
}

export interface SettingsOptions {
  themeModes: string[];
  primaryColors: string[];
  fontSizes: string[];
  layouts: string[];
  chartTypes: string[];
  timeframes: string[];
  currencies: string[];
  decimalPlaces: number[];
  dateFormats: string[];
  timeFormats: string[];
  separators: string[];
  timezones: string[];
  logLevels: string[];
  backupLocations: string[];
  aiModels: string[];
  orderTypes: string[];
  timesInForce: string[];
  exchangeProviders: string[];
  aiProviders: string[];
}

export type Section = 'api' | 'trading' | 'ui' | 'system';

export type ConnectionProvider = 'exchange' | 'ai';

export type ConnectionResult = Schemas['ConnectionResult'];
