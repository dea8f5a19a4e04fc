import type { PostgresStores } from '@milpa/store-postgres';
import { SqliteStores } from '@milpa/store-sqlite';

/** The durable stores the demo keeps its state in: a SQLite file (`--db`) or a PostgreSQL schema (`--store`). */
export type DemoStores = SqliteStores | PostgresStores;

/**
 * Where `stores` keep the demo's state, for messages: the SQLite file's path, or the PostgreSQL schema.
 *
 * @example
 * describeDemoStores(stores); // '/tmp/milpa-demo/state.db' or 'the PostgreSQL schema milpa_demo'
 */
export function describeDemoStores(stores: DemoStores): string {
  return stores instanceof SqliteStores ? stores.path : `the PostgreSQL schema ${stores.schema}`;
}
