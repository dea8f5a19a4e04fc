import { MilpaError } from '@milpa/core';

/** One problem found in a gateway configuration. */
export interface GatewayConfigIssue {
  /** The path of the offending field (`upstreams[0].command`); empty for the document itself. */
  readonly path: string;
  /** What is wrong, naming the field: `upstreams[0]: Missing required field: upstreams[0].name`. */
  readonly message: string;
}

/**
 * A gateway configuration that cannot be used: every problem found is listed in `issues` and in
 * the message, one per line. Code `INVALID_GATEWAY_CONFIG`.
 *
 * @example
 * try {
 *   parseGatewayConfig(json);
 * } catch (error) {
 *   if (error instanceof GatewayConfigError) console.error(error.message); // one line per problem
 * }
 */
export class GatewayConfigError extends MilpaError {
  /** Every problem found. */
  readonly issues: readonly GatewayConfigIssue[];

  /**
   * @param issues every problem found (at least one)
   * @param source what was read, for the first line of the message (a file path)
   */
  constructor(issues: readonly GatewayConfigIssue[], source = 'gateway configuration', options: { readonly cause?: unknown } = {}) {
    super(`Invalid ${source}:\n${issues.map((issue) => `  - ${issue.message}`).join('\n')}`, {
      code: 'INVALID_GATEWAY_CONFIG',
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.issues = Object.freeze(issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message })));
  }
}
