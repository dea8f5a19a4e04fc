import { describe, expect, it } from 'vitest';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { openPostgresDemoStores } from './open-postgres-demo-stores.js';

/** The refusal opening rejects with, a one-line DemoUsageError. */
async function refusalOf(value: string, env: Record<string, string> = {}): Promise<DemoUsageError> {
  const caught: unknown = await openPostgresDemoStores(value, env).then(
    () => null,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(DemoUsageError);
  expect((caught as DemoUsageError).message).not.toContain('\n');
  return caught as DemoUsageError;
}

describe('openPostgresDemoStores', () => {
  it('refuses a value that is not a URL, before connecting', async () => {
    const error = await refusalOf('nonsense');
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe('--store takes a postgres:// URL, got "nonsense"');
  });

  it('refuses a URL of another scheme, pointing at --db for a SQLite file', async () => {
    const error = await refusalOf('redis://127.0.0.1:6379');
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe('--store takes a postgres:// or postgresql:// URL, got one starting redis://');
    expect(error.hint).toContain('--db <path>');
  });

  it('refuses a schema name in MILPA_DEMO_PG_SCHEMA that is not a plain identifier', async () => {
    const error = await refusalOf('postgres://postgres@127.0.0.1:1/test', { MILPA_DEMO_PG_SCHEMA: 'milpa; drop' });
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toMatch(/^MILPA_DEMO_PG_SCHEMA must be a plain identifier/);
  });

  it('says STATE_UNAVAILABLE with the URL, its password masked, when no server answers', async () => {
    const error = await refusalOf('postgresql://ana:secret@127.0.0.1:1/test');
    expect(error.code).toBe('STATE_UNAVAILABLE');
    expect(error.message).toMatch(/^cannot keep the demo's state in PostgreSQL at postgresql:\/\/ana:\*\*\*@127\.0\.0\.1:1\/test: /);
    expect(error.message).not.toContain('secret');
  });
});
