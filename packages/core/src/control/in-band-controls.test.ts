import { describe, expect, it } from 'vitest';
import { IN_BAND_CONTROL_KEYS, readInBandControls } from './in-band-controls.js';

describe('readInBandControls', () => {
  it('takes both control values out of the arguments as call options by default', () => {
    const args = { id: 7, confirm_token: 'tok', approval_id: 'a'.repeat(32) };
    const read = readInBandControls(args);
    expect(read).toEqual({ ok: true, args: { id: 7 }, controls: { confirmToken: 'tok', approvalId: 'a'.repeat(32) } });
    expect(args).toEqual({ id: 7, confirm_token: 'tok', approval_id: 'a'.repeat(32) });
  });

  it('returns the same arguments object when no control value is present', () => {
    const args = { id: 7 };
    const read = readInBandControls(args);
    expect(read.ok && read.args).toBe(args);
    expect(read.ok && read.controls).toEqual({});
  });

  it('treats null as no control value, and still takes the key out', () => {
    expect(readInBandControls({ id: 1, confirm_token: null })).toEqual({ ok: true, args: { id: 1 }, controls: {} });
  });

  it('passes a value that is not a string on as an empty string, which matches no token', () => {
    for (const value of [42, { token: 'x' }, ['x'], true]) {
      expect(readInBandControls({ confirm_token: value })).toEqual({ ok: true, args: {}, controls: { confirmToken: '' } });
      expect(readInBandControls({ approval_id: value })).toEqual({ ok: true, args: {}, controls: { approvalId: '' } });
    }
  });

  it('refuses a control value the boundary does not carry, naming the argument', () => {
    const read = readInBandControls({ id: 1, approval_id: 'abc' }, { accept: ['confirm_token'] });
    expect(read).toEqual({
      ok: false,
      code: 'VALIDATION_ERROR',
      key: 'approval_id',
      message: "The argument 'approval_id' is reserved: this tool call cannot carry it here. Call the tool with its own arguments only.",
    });
  });

  it('accepts a refused key when its value is null, dropping the key', () => {
    expect(readInBandControls({ id: 1, approval_id: null }, { accept: [] })).toEqual({ ok: true, args: { id: 1 }, controls: {} });
  });

  it('leaves arguments that are not an object unchanged', () => {
    expect(readInBandControls(null)).toEqual({ ok: true, args: null, controls: {} });
    expect(readInBandControls(['confirm_token'])).toEqual({ ok: true, args: ['confirm_token'], controls: {} });
  });

  it('keeps a __proto__ argument as data and never reads inherited control keys', () => {
    const hostile = JSON.parse('{"__proto__":{"confirm_token":"inherited"},"id":1}') as Record<string, unknown>;
    const read = readInBandControls(hostile);
    expect(read.ok && read.controls).toEqual({});
  });

  it('lists exactly the two control keys', () => {
    expect(IN_BAND_CONTROL_KEYS).toEqual(['confirm_token', 'approval_id']);
  });
});
