import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

export default defineConfig({
  ...sharedTsupOptions,
  entry: {
    index: 'src/index.ts',
    // db_query's SQLite process: plain JavaScript started with `node`, so it must sit beside
    // index.js under the name the code looks for (`new URL('./sqlite-query-process.js', import.meta.url)`).
    'sqlite-query-process': 'src/tools/db-query/sqlite-query-process.js',
  },
});
