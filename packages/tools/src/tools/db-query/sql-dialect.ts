/** The SQL dialects `db_query` parses: the database behind the tool speaks one of them. */
export type SqlDialect = 'sqlite' | 'mysql' | 'postgresql';

/** Every {@link SqlDialect}, for checking a configuration value. */
export const SQL_DIALECTS: readonly SqlDialect[] = Object.freeze(['sqlite', 'mysql', 'postgresql'] as const);
