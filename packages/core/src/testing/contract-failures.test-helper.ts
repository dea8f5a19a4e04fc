// Test helper of the contract suites' own tests (not part of the package's API): runs every case
// and lists the names of those that failed with a StoreContractError.
import type { StoreContractCase } from './store-contract-case.js';
import { StoreContractError } from './store-contract-error.js';

/** The names of the cases that fail; rethrows anything that is not a contract violation. */
export async function failingCaseNames(cases: readonly StoreContractCase[]): Promise<string[]> {
  const failed: string[] = [];
  for (const contractCase of cases) {
    try {
      await contractCase.run();
    } catch (error) {
      if (!(error instanceof StoreContractError)) throw error;
      failed.push(contractCase.name);
    }
  }
  return failed;
}
