/** The bearer token every load client sends to both servers (Milpa checks it; the bare server ignores it). */
export const BENCH_HTTP_TOKEN = 'bench-token-5f0c2a9e7d1b4c38';

/** The principal the token grants on the Milpa server (the same as the in-process rows' caller). */
export const BENCH_HTTP_PRINCIPAL = 'user:42';
