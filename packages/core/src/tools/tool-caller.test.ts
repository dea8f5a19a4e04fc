import { describe, expect, it } from 'vitest';
import { unsupportedCaller } from './tool-caller.js';

describe('unsupportedCaller', () => {
  it('reports no capability', () => {
    expect(unsupportedCaller.capabilities).toEqual({ progress: false, logging: false, elicitation: false, sampling: false });
  });

  it('accepts progress and log calls as harmless no-ops', async () => {
    await expect(unsupportedCaller.reportProgress(1, 2, 'half way')).resolves.toBeUndefined();
    await expect(unsupportedCaller.log('info', { step: 1 })).resolves.toBeUndefined();
  });

  it('answers elicitation and sampling with unsupported', async () => {
    await expect(unsupportedCaller.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } })).resolves.toEqual({
      action: 'unsupported',
    });
    await expect(unsupportedCaller.sample({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 })).resolves.toEqual({
      status: 'unsupported',
    });
  });

  it('cannot be changed by one plugin for all others', () => {
    expect(Object.isFrozen(unsupportedCaller)).toBe(true);
    expect(Object.isFrozen(unsupportedCaller.capabilities)).toBe(true);
  });
});
