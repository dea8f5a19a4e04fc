import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_DIR_ENV, defaultDemoStatePath, demoStateDirectory } from './demo-state-path.js';

describe('demoStateDirectory', () => {
  it('is milpa-demo in the system temporary folder when MILPA_DEMO_STATE_DIR is not set', () => {
    expect(demoStateDirectory({})).toBe(join(tmpdir(), 'milpa-demo'));
    expect(demoStateDirectory({ [STATE_DIR_ENV]: '' })).toBe(join(tmpdir(), 'milpa-demo'));
  });

  it('is MILPA_DEMO_STATE_DIR when it is set', () => {
    expect(demoStateDirectory({ [STATE_DIR_ENV]: '/srv/demo-state' })).toBe('/srv/demo-state');
  });
});

describe('defaultDemoStatePath', () => {
  it('is state.db in the state folder', () => {
    expect(defaultDemoStatePath({})).toBe(join(tmpdir(), 'milpa-demo', 'state.db'));
    expect(defaultDemoStatePath({ [STATE_DIR_ENV]: '/srv/demo-state' })).toBe(join('/srv/demo-state', 'state.db'));
  });
});
