import { describe, expect, it } from 'vitest';
import { fieldLabel } from './fieldLabel';

describe('fieldLabel', () => {
  it('names a settings field as the form labels it, never by its key', () => {
    expect(fieldLabel('trading.riskManagement.maxPositionSize')).toBe('Max position size');
    expect(fieldLabel('trading.riskManagement.stopLossPercent')).toBe('Stop loss');
    expect(fieldLabel('trading.riskManagement.dailyLossLimit')).toBe('Daily loss limit');
    expect(fieldLabel('api.exchange.apiKey')).toBe('API key');
    // A model's name holds dots: the label names the whole model.
    expect(fieldLabel('api.ai.pricing.gpt-4.1-nano')).toBe('Price of gpt-4.1-nano');
    expect(fieldLabel('api.ai.monthlyBudget.openai')).toBe('Monthly budget for openai');
  });
});
