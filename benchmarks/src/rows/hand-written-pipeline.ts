import { Ajv, type ValidateFunction } from 'ajv';

/** The caller of the hand-written pipeline. */
export interface HandWrittenCaller {
  /** Who is calling (null when anonymous). */
  readonly principal: string | null;
  /** Where the call comes from. */
  readonly channel: string;
  /** What the caller may do. */
  readonly scopes: readonly string[];
}

/** What the hand-written pipeline's audit hook receives once per executed call. */
export interface HandWrittenAuditEntry {
  /** The caller. */
  readonly caller: HandWrittenCaller;
  /** The tool's name. */
  readonly tool: string;
  /** Whether the handler succeeded. */
  readonly ok: boolean;
  /** Milliseconds from the start of the call, as measured with `performance.now()`. */
  readonly tookMs: number;
  /** The arguments as given (no redaction). */
  readonly args: Record<string, unknown>;
}

/** What the hand-written pipeline returns. */
export interface HandWrittenResult {
  /** Whether the call ran and succeeded. */
  readonly success: boolean;
  /** The handler's value (null on failure). */
  readonly data: unknown;
  /** Why the call failed, or null. */
  readonly error: string | null;
}

interface Entry {
  readonly validate: ValidateFunction;
  readonly scopes: readonly string[];
  readonly handler: (args: Record<string, unknown>) => unknown;
}

const WINDOW_MS = 60_000;

/**
 * The governance a user could write by hand in about sixty lines — a map lookup, an ajv compiled
 * validator, a scope check, a fixed-window counter, try/catch around the handler and an audit hook
 * (one pino line in the production row, a no-op in the silent one) — with none of Milpa's
 * guarantees (no redaction, no events, no containment of collaborators, no confirmation, no timeouts).
 */
export class HandWrittenPipeline {
  readonly #ajv = new Ajv();
  readonly #tools = new Map<string, Entry>();
  readonly #windows = new Map<string, { start: number; used: number }>();
  readonly #budget: number;
  readonly #audit: (entry: HandWrittenAuditEntry) => void;

  constructor(budget: number, audit: (entry: HandWrittenAuditEntry) => void) {
    this.#budget = budget;
    this.#audit = audit;
  }

  /** Compiles the schema and stores the tool. */
  register(name: string, schema: object, scopes: readonly string[], handler: Entry['handler']): void {
    this.#tools.set(name, { validate: this.#ajv.compile(schema), scopes, handler });
  }

  /** Runs one call; never rejects. */
  async call(name: string, args: Record<string, unknown>, caller: HandWrittenCaller): Promise<HandWrittenResult> {
    const startedAt = performance.now();
    const entry = this.#tools.get(name);
    if (entry === undefined) return { success: false, data: null, error: `Tool not found: ${name}` };
    if (!entry.validate(args)) return { success: false, data: null, error: this.#ajv.errorsText(entry.validate.errors) };
    if (entry.scopes.length > 0 && !entry.scopes.some((scope) => caller.scopes.includes(scope))) {
      return { success: false, data: null, error: 'Forbidden' };
    }
    const key = `${caller.channel}:${caller.principal ?? ''}:${name}`;
    const now = Date.now();
    let window = this.#windows.get(key);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      window = { start: now, used: 0 };
      this.#windows.set(key, window);
    }
    if (window.used + 1 > this.#budget) return { success: false, data: null, error: 'Rate limit exceeded' };
    window.used += 1;
    try {
      const data = await entry.handler(args);
      this.#audit({ caller, tool: name, ok: true, tookMs: performance.now() - startedAt, args });
      return { success: true, data, error: null };
    } catch (error) {
      this.#audit({ caller, tool: name, ok: false, tookMs: performance.now() - startedAt, args });
      return { success: false, data: null, error: error instanceof Error ? error.message : String(error) };
    }
  }
}
