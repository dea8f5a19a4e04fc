/**
 * The names `db_query` refuses wherever they appear in a query's syntax tree. Matching ignores
 * case; see each list for how a name matches.
 */

/**
 * Functions that read or write server files, load code, reach other servers, run other SQL, change
 * state, or hold a connection for as long as they like. Matched by the function's own name (the last
 * part of `schema.name`), in every dialect: a name one database does not know is harmless to refuse.
 */
export const SQL_FORBIDDEN_FUNCTIONS: readonly string[] = Object.freeze([
  // SQLite: extensions, the CLI's file functions and virtual tables, raw pages.
  'load_extension',
  'readfile',
  'writefile',
  'edit',
  'fsdir',
  'zipfile',
  'sqlar_compress',
  'sqlar_uncompress',
  'fts3_tokenizer',
  'sqlite_dbpage',
  // MySQL: files, UDF shell access, stalling, locks.
  'load_file',
  'sys_exec',
  'sys_eval',
  'benchmark',
  'sleep',
  'get_lock',
  'release_lock',
  'release_all_locks',
  'master_pos_wait',
  'source_pos_wait',
  // PostgreSQL: server files, large objects, other servers, other SQL, state and the server itself.
  'pg_read_file',
  'pg_read_binary_file',
  'pg_ls_dir',
  'pg_stat_file',
  'pg_ls_logdir',
  'pg_ls_waldir',
  'pg_ls_tmpdir',
  'pg_ls_archive_statusdir',
  'lo_import',
  'lo_export',
  'lo_get',
  'lo_put',
  'lo_create',
  'lo_creat',
  'lo_unlink',
  'lo_from_bytea',
  'dblink',
  'dblink_exec',
  'dblink_connect',
  'dblink_connect_u',
  'dblink_send_query',
  'dblink_open',
  'dblink_fetch',
  'copy',
  'query_to_xml',
  'query_to_xml_and_xmlschema',
  'query_to_xmlschema',
  'cursor_to_xml',
  'table_to_xml',
  'database_to_xml',
  'schema_to_xml',
  'pg_sleep',
  'pg_sleep_for',
  'pg_sleep_until',
  'pg_terminate_backend',
  'pg_cancel_backend',
  'pg_reload_conf',
  'pg_rotate_logfile',
  'pg_promote',
  'pg_switch_wal',
  'pg_create_restore_point',
  'pg_logical_emit_message',
  'set_config',
  'nextval',
  'setval',
  'pg_advisory_lock',
  'pg_advisory_xact_lock',
  'pg_advisory_lock_shared',
  'pg_try_advisory_lock',
]);

/** Function name prefixes refused like {@link SQL_FORBIDDEN_FUNCTIONS}: whole families of them. */
export const SQL_FORBIDDEN_FUNCTION_PREFIXES: readonly string[] = Object.freeze([
  'pg_ls_',
  'pg_read_',
  'lo_',
  'dblink',
  'pragma_',
  'pg_advisory',
]);

/**
 * Schemas of system catalogs: users, grants, password hashes and the whole schema. Refused as the
 * schema part of any table reference (`information_schema.tables`, `mysql.user`, `pg_catalog.pg_authid`).
 */
export const SQL_SYSTEM_SCHEMAS: readonly string[] = Object.freeze([
  'information_schema',
  'pg_catalog',
  'pg_toast',
  'mysql',
  'performance_schema',
  'sys',
]);

/**
 * Table name prefixes of system catalogs reachable without a schema: PostgreSQL's `pg_shadow`,
 * `pg_authid`, `pg_user` …, SQLite's `sqlite_master`, `sqlite_schema`, `sqlite_dbpage` …, and
 * SQLite's `pragma_*` table-valued functions.
 */
export const SQL_SYSTEM_TABLE_PREFIXES: readonly string[] = Object.freeze(['pg_', 'sqlite_', 'pragma_']);

/**
 * Parts of names that hold secrets. Every identifier, alias and string in a query is lower-cased and
 * stripped of everything but letters and digits, then refused when it contains one of these
 * (themselves written the same way): `user_password`, `apiKey`, `"API-Token"`, `'$.secret'`.
 */
export const SQL_SECRET_NAME_PARTS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'secret',
  'privatekey',
  'apikey',
  'apitoken',
  'accesstoken',
  'secretkey',
  'authtoken',
]);
