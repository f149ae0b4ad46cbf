import { describe, expect, it } from 'vitest';
import { endpointMoves } from './model';
import type { PlatformSettings } from './types';

function doc(ai: { provider: string; baseUrl: string; apiToken: string }, smtpHost = '', smtpPassword = ''): PlatformSettings {
  return {
    api: { ai: { ...ai, model: 'm', timeout: 10000 } },
    system: { notifications: { smtpHost, smtpPort: 587, smtpSecurity: 'starttls', smtpUser: '', smtpPassword, smtpFrom: '', digestTime: '07:00', telegramApiUrl: '' } },
  } as unknown as PlatformSettings;
}

describe('endpointMoves', () => {
  const saved = doc({ provider: 'openai', baseUrl: 'https://a.example/v1', apiToken: '••••4321' }, 'mail.example.com', '••••word');

  it('names a moved AI endpoint or mail server whose saved secret is sent back masked', () => {
    const moved = doc({ provider: 'openai', baseUrl: 'https://b.example/v1', apiToken: '••••4321' }, 'mail.other.example', '••••word');
    expect(endpointMoves(saved, moved)).toEqual(['the AI token to the new AI endpoint', 'the SMTP password to the new mail server']);
  });

  it('names nothing when the secret is entered anew, or the endpoint stays', () => {
    expect(endpointMoves(saved, doc({ provider: 'openai', baseUrl: 'https://b.example/v1', apiToken: 'sk-new' }, 'mail.example.com', '••••word'))).toEqual([]);
    expect(endpointMoves(saved, saved)).toEqual([]);
  });
});
