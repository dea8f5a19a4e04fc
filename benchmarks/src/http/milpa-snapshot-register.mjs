// Loaded with --import in a benchmark server process when BENCH_HTTP_MILPA_ROOT names a snapshot
// of Milpa's packages (snapshot-milpa-packages.ts): every `@milpa/<name>` import, the benchmark's
// own and the packages' among themselves, resolves to that snapshot's `src/index.ts`.
import { register } from 'node:module';

const root = process.env.BENCH_HTTP_MILPA_ROOT;
if (root !== undefined && root !== '') {
  register(new URL('./milpa-snapshot-hooks.mjs', import.meta.url), { data: { root } });
}
