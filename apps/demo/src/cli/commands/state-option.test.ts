import { describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { DemoUsageError } from '../demo-usage-error.js';
import { openCommandStores } from './state-option.js';

const io = { env: {} } as unknown as CliIo;

describe('openCommandStores', () => {
  it('refuses --db and --store together, before opening either', async () => {
    const caught: unknown = await openCommandStores({ db: '/nonexistent/state.db', store: 'postgres://127.0.0.1:1/test' }, io).then(
      () => null,
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(DemoUsageError);
    expect((caught as DemoUsageError).code).toBe('INVALID_OPTION');
    expect((caught as DemoUsageError).message).toBe('--db and --store name two places for one state');
  });
});
