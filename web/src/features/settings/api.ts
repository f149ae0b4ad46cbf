import { api, ApiError } from '@/lib/api';
import type { ExportFile, PlatformSettings, Section, SettingsOptions, SettingsReply, ValidationResult } from './types';

export const SETTINGS_KEY = ['settings'] as const;
export const OPTIONS_KEY = ['settings-options'] as const;

export const settingsApi = {
  get: () => api.get<SettingsReply>('/settings'),
  save: (s: PlatformSettings) => api.put<SettingsReply>('/settings', s),
  validate: (s: PlatformSettings) => api.post<ValidationResult>('/settings/validate', s),
  reset: (section: Section | '') => api.post<SettingsReply>('/settings/reset', { section }),
  exportFile: () => api.get<ExportFile>('/settings/export?include_secrets=false'),
  /** The plaintext export (operators): the password again, audited. */
  exportSecrets: (password: string) => api.post<ExportFile>('/settings/export', { password }),
  importFile: (file: unknown) => api.post<SettingsReply>('/settings/import', file),
  options: () => api.get<SettingsOptions>('/settings/options'),
};

/** The settings reply a failed save or import carries (400 with validation), if any. */
export function replyFromError(err: unknown): SettingsReply | null {
  if (!(err instanceof ApiError) || !err.data || typeof err.data !== 'object') return null;
  const d = err.data as Partial<SettingsReply>;
  return d.validation && typeof d.validation === 'object' ? (d as SettingsReply) : null;
}
