/**
 * The servers the HTTP throughput benchmark compares: the bare SDK server (as the SDK's session
 * example, no event store), the same with one pino line per call, the same with the SDK examples'
 * `InMemoryEventStore` (resumable streams), Milpa's `serveHttp` with its defaults, and Milpa with
 * `resumableStreams: false` (a diagnostic: what its default event store costs), and Milpa as
 * committed at another ref (`BENCH_HTTP_MILPA_COMPARE_REF`), to compare two versions in one run.
 */
export type HttpServerKind = 'bare' | 'bare-pino' | 'bare-resumable' | 'milpa' | 'milpa-noresume' | 'milpa-compare';

/** What the parent tells a server process. */
export type ParentMessage =
  | { readonly type: 'start'; readonly profileFile?: string }
  | { readonly type: 'stop' }
  | { readonly type: 'close' };

/** The server's CPU and log lines over one measured window. */
export interface ServerWindow {
  /** User + system CPU of the whole server process (all threads, GC included), µs. */
  readonly cpuMicros: number;
  /** Wall time between `start` and `stop`, ms. */
  readonly wallMs: number;
  /** Event-loop utilization over the window (1 = the loop never waited). */
  readonly eventLoopUtilization: number;
  /** Log lines the server's pino stream received over the window. */
  readonly lines: number;
}

/** What a server process tells the parent. */
export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'started' }
  | { readonly type: 'window'; readonly window: ServerWindow }
  | { readonly type: 'failed'; readonly message: string };
