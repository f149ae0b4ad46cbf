import { api, ApiError } from '@/lib/api';
import type { ExportFile, PlatformSettings, Section, SettingsImportReply, SettingsOptions, SettingsReply, ValidationResult } from './types';
import { settingsKeys } from '@/lib/queryKeys';

export const SETTINGS_KEY = settingsKeys.doc;
export const OPTIONS_KEY = settingsKeys.options;

export const settingsApi = {
  get: () => api.get<SettingsReply>('/settings'),
  /** Saves the document; the operator's password keeps a saved secret at a moved endpoint (model.endpointMoves). */
  save: ({ doc, password }: { doc: PlatformSettings; password?: string }) => api.put<SettingsReply>('/settings', password ? { ...doc, password } : doc),
  validate: (s: PlatformSettings) => api.post<ValidationResult>('/settings/validate', s),
  reset: (section: Section | '') => api.post<SettingsReply>('/settings/reset', { section }),
  exportFile: () => api.get<ExportFile>('/settings/export?include_secrets=false'),
  /** The plaintext export (operators): the password again, audited. */
  exportSecrets: (password: string) => api.post<ExportFile>('/settings/export', { password }),
  importFile: (file: unknown) => api.post<SettingsImportReply>('/settings/import', file),
  options: () => api.get<SettingsOptions>('/settings/options'),
};

const SECRET_NAMES: Record<string, string> = {
  'api.exchange.apiKey': 'exchange API key',
  'api.exchange.apiSecret': 'exchange API secret',
  'api.ai.apiToken': 'AI API token',
};

/** What an import says it did, naming the stored secrets it kept because the file left them blank. */
export function importNotice(kept: readonly string[]): string {
  if (kept.length === 0) return 'Settings imported';
  const names = kept.map((k) => SECRET_NAMES[k] ?? k);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Settings imported; kept the stored ${list} (the file left ${names.length === 1 ? 'it' : 'them'} blank)`;
}

/** The settings reply a failed save or import carries (400 with validation), if any. */
export function replyFromError(err: unknown): SettingsReply | null {
  if (!(err instanceof ApiError) || !err.data || typeof err.data !== 'object') return null;
  const d = err.data as Partial<SettingsReply>;
  return d.validation && typeof d.validation === 'object' ? (d as SettingsReply) : null;
}
