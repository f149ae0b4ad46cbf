import type { components, operations } from '@/api/schema';

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

/** The choices of the settings' enumerated keys (GET /api/settings/options). */
export type SettingsOptions = operations['getSettingsOptions']['responses'][200]['content']['application/json']['data'];

export type Section = 'api' | 'trading' | 'ui' | 'system';

export type ConnectionProvider = 'exchange' | 'ai';

export type ConnectionResult = Schemas['ConnectionResult'];
