/** Log levels a caller may receive (the syslog levels MCP uses). */
export type CallerLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A question put to the person behind the caller, as a flat form of primitive fields. */
export interface ElicitationRequest {
  /** What to ask. */
  readonly message: string;
  /** A restricted JSON Schema: a flat object of string, number, boolean and enum fields. */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/** The answer to an {@link ElicitationRequest}. `unsupported` when the channel cannot ask. */
export type ElicitationOutcome =
  | {
      /** The user answered. */
      readonly action: 'accept';
      /** The answers, by field of the requested schema. */
      readonly content: Readonly<Record<string, unknown>>;
    }
  | {
      /** The user said no. */
      readonly action: 'decline';
    }
  | {
      /** The user dismissed the question. */
      readonly action: 'cancel';
    }
  | {
      /** The channel cannot ask. */
      readonly action: 'unsupported';
    };

/** A request for the caller's own model to generate text. */
export interface SamplingRequest {
  /** The conversation so far. */
  readonly messages: readonly {
    /** Who said it. */
    readonly role: 'user' | 'assistant';
    /** What was said. */
    readonly content: string;
  }[];
  /** The most tokens to generate. */
  readonly maxTokens: number;
  /** An optional system prompt. */
  readonly systemPrompt?: string;
}

/** The outcome of a {@link SamplingRequest}. `unsupported` when the channel cannot sample. */
export type SamplingOutcome =
  | {
      /** The model answered. */
      readonly status: 'ok';
      /** The generated text. */
      readonly text: string;
      /** The model that answered, when the caller says. */
      readonly model?: string;
    }
  | {
      /** The channel cannot sample. */
      readonly status: 'unsupported';
    };

/** What the caller's channel can do for a running handler. */
export interface CallerCapabilities {
  /** Progress notifications reach the caller (e.g. an MCP request with a progress token). */
  readonly progress: boolean;
  /** Log messages reach the caller. */
  readonly logging: boolean;
  /** The caller can ask its user a question. */
  readonly elicitation: boolean;
  /** The caller can run its own model. */
  readonly sampling: boolean;
}

/**
 * A channel-neutral handle on the caller, given to every handler as `invocation.caller`. On
 * channels that lack a capability the methods are harmless: progress and log are no-ops, elicit
 * and sample report `unsupported`.
 *
 * @example
 * handler: async (args, { caller }) => {
 *   await caller.reportProgress(1, 2, 'half way');
 *   const answer = await caller.elicit({ message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } });
 *   return answer.action === 'accept' ? 'done' : 'skipped';
 * }
 */
export interface ToolCaller {
  /** What this caller supports. */
  readonly capabilities: CallerCapabilities;
  /** Report progress; a no-op when unsupported. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /** Send a log message to the caller; a no-op when unsupported. */
  log(level: CallerLogLevel, data: unknown): Promise<void>;
  /** Ask the caller's user a question; `{action:'unsupported'}` when the channel cannot. */
  elicit(request: ElicitationRequest): Promise<ElicitationOutcome>;
  /** Ask the caller's model to generate; `{status:'unsupported'}` when the channel cannot. */
  sample(request: SamplingRequest): Promise<SamplingOutcome>;
}

const NO_CAPABILITIES: CallerCapabilities = Object.freeze({
  progress: false,
  logging: false,
  elicitation: false,
  sampling: false,
});

/** The caller of channels with no back channel (cli scripts, web, tests): supports nothing. */
export const unsupportedCaller: ToolCaller = Object.freeze({
  capabilities: NO_CAPABILITIES,
  reportProgress: () => Promise.resolve(),
  log: () => Promise.resolve(),
  elicit: () => Promise.resolve({ action: 'unsupported' } as const),
  sample: () => Promise.resolve({ status: 'unsupported' } as const),
});
