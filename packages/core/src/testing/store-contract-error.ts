import { MilpaError } from '../errors/milpa-error.js';

/**
 * Thrown by a case of a store contract suite when the store under test breaks the contract. The
 * message names the case's expectation and what the store did instead; `code` is
 * `STORE_CONTRACT_VIOLATED`.
 *
 * @example
 * try {
 *   await contractCase.run();
 * } catch (error) {
 *   if (error instanceof StoreContractError) console.error(error.message);
 * }
 */
export class StoreContractError extends MilpaError {
  /** A contract violation described by `message`. */
  constructor(message: string) {
    super(message, { code: 'STORE_CONTRACT_VIOLATED' });
  }
}
