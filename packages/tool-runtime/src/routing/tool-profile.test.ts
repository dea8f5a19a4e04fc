import { describe, expect, it } from 'vitest';
import { toProviderTool } from './provider-shapes.js';
import { profileDescriptionStyle, profileMaxTools, profileTokenBudget, resolveToolProfile, type ToolProfile } from './tool-profile.js';

describe('resolveToolProfile', () => {
  it.each([
    ['ollama', 'llama3.1:8b'],
    ['ollama', 'qwen2.5:7b'],
    ['groq', 'llama-3.1-8b-instant'],
    ['groq', 'gemma2-9b-it'],
  ])('returns minimal for %s %s, a small model', (provider, model) => {
    expect(resolveToolProfile(provider, model)).toBe('minimal');
  });

  it.each([
    ['ollama', 'qwen2.5:30b'],
    ['ollama', 'qwen2.5-coder:32b'],
    ['ollama', 'codellama:34b'],
    ['ollama', 'some-model-35b'],
    ['ollama', 'llama:65b'],
    ['groq', 'llama-3.3-70b-versatile'],
    ['groq', 'qwen-2.5-72b'],
  ])('returns standard for %s %s, a medium model', (provider, model) => {
    expect(resolveToolProfile(provider, model)).toBe('standard');
  });

  it.each([
    ['openai', 'gpt-4o-mini'],
    ['anthropic', 'claude-sonnet-4'],
    ['gemini', 'gemini-2.5-flash'],
    ['openai', 'llama-3.3-70b'],
    ['custom', 'anything'],
  ])('returns full for %s %s, whatever the model', (provider, model) => {
    expect(resolveToolProfile(provider, model)).toBe('full');
  });

  it('compares provider and model without regard to case', () => {
    expect(resolveToolProfile('Ollama', 'Qwen2.5:72B')).toBe('standard');
    expect(resolveToolProfile('GROQ', 'llama-3.1-8b')).toBe('minimal');
  });

  it('does not read 3b or 7b as a medium size', () => {
    expect(resolveToolProfile('ollama', 'llama3.2:3b')).toBe('minimal');
    expect(resolveToolProfile('ollama', 'mistral:7b')).toBe('minimal');
  });
});

describe('profileMaxTools', () => {
  it('returns 5 for minimal, 8 for standard and 0 (no profile cap) for full', () => {
    expect(profileMaxTools('minimal')).toBe(5);
    expect(profileMaxTools('standard')).toBe(8);
    expect(profileMaxTools('full')).toBe(0);
  });

  it('throws INVALID_ARGUMENT for an unknown profile', () => {
    expect(() => profileMaxTools('large' as ToolProfile)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining("Unknown tool profile 'large'") }),
    );
  });
});

describe('profileTokenBudget', () => {
  it('returns 3,000 for minimal, 6,000 for standard and null for full', () => {
    expect(profileTokenBudget('minimal')).toBe(3000);
    expect(profileTokenBudget('standard')).toBe(6000);
    expect(profileTokenBudget('full')).toBeNull();
  });

  it('throws INVALID_ARGUMENT for an unknown profile', () => {
    expect(() => profileTokenBudget('' as ToolProfile)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});

describe('profileDescriptionStyle', () => {
  it('sends first lines on minimal and whole descriptions otherwise', () => {
    expect(profileDescriptionStyle('minimal')).toBe('first-line');
    expect(profileDescriptionStyle('standard')).toBe('full');
    expect(profileDescriptionStyle('full')).toBe('full');
  });

  it('plugs into toProviderTool, which then sends the first line on minimal', () => {
    const source = { name: 'delete_note', description: 'Delete a note.\nThe note must not be pinned.', inputSchema: { type: 'object' } };

    expect(toProviderTool(source, 'anthropic', { descriptions: profileDescriptionStyle('minimal') }).description).toBe('Delete a note.');
    expect(toProviderTool(source, 'anthropic', { descriptions: profileDescriptionStyle('full') }).description).toBe(source.description);
  });
});
