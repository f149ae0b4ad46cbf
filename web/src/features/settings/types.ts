import type { components } from '@/api/schema';

type Schemas = components['schemas'];

/** Platform settings as the server sends them: generated from the OpenAPI description. */
export type ExchangeSettings = Schemas['ExchangeSettings'];
export type AIProviderSettings = Schemas['AIProviderSettings'];
export type ApiSettings = Schemas['ApiSettings'];
export type TradingSettings = Schemas['TradingSettings'];
export type UISettings = Schemas['UISettings'];
export type SystemSettings = Schemas['SystemSettings'];
export type PlatformSettings = Schemas['Settings'];

export type ValidationIssue = Schemas['ValidationIssue'];

export type ValidationResult = Schemas['ValidationResult'];

export type Effect = NonNullable<SettingsReply['effects']>[string];

export type SettingsReply = Schemas['SettingsReply'];

export type SettingsImportReply = Schemas['SettingsImportReply'];

export type ExportFile = Schemas['ExportFile'];

export interface SettingsOptions {
  themeModes: string[];
  fontSizes: string[];
  chartTypes: string[];
  timeframes: string[];
  currencies: string[];
  decimalPlaces: number[];
  dateFormats: string[];
  timeFormats: string[];
  separators: string[];
  timezones: string[];
  logLevels: string[];
  aiModels: string[];
  orderTypes: string[];
  exchangeProviders: string[];
  marketSources: string[];
  aiProviders: string[];
}

export type Section = 'api' | 'trading' | 'ui' | 'system';

export type ConnectionProvider = 'exchange' | 'ai';

export type ConnectionResult = Schemas['ConnectionResult'];
