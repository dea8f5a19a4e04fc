import { ToolError } from '../../lifecycle/tool-error.js';

/** The most characters of a `zip_package` output name (a trailing `.zip` included). */
export const OUTPUT_NAME_MAX_LENGTH = 100;

const OUTPUT_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * Checks the name of a zip `zip_package` writes and returns it without a trailing `.zip`: letters,
 * digits, `.`, `_` and `-` only, at most {@link OUTPUT_NAME_MAX_LENGTH} characters, not dots alone,
 * not starting with `-` (a command line would read it as an option). The name becomes both the
 * file name and the zip's top-level folder, so it can never hold a path.
 *
 * @throws ToolError `INVALID_OUTPUT_NAME` naming the rule broken.
 * @example
 * checkOutputName('q1-reports.zip'); // 'q1-reports'
 * checkOutputName('../x'); // throws INVALID_OUTPUT_NAME
 */
export function checkOutputName(value: unknown): string {
  if (typeof value !== 'string' || value === '') throw invalid('output_name must be a non-empty file name.');
  if (value.length > OUTPUT_NAME_MAX_LENGTH) {
    throw invalid(`output_name must be at most ${OUTPUT_NAME_MAX_LENGTH} characters, got ${value.length}.`);
  }
  if (!OUTPUT_NAME.test(value)) {
    throw invalid(`output_name ${JSON.stringify(value)} may only use letters, digits, '.', '_' and '-' (no folders, no spaces).`);
  }
  const name = value.toLowerCase().endsWith('.zip') ? value.slice(0, -'.zip'.length) : value;
  if (/^\.*$/.test(name))
    throw invalid(`output_name ${JSON.stringify(value)} needs a letter or digit: a name of dots alone is a folder reference.`);
  if (name.startsWith('-')) throw invalid(`output_name ${JSON.stringify(value)} must not start with '-'.`);
  return name;
}

function invalid(message: string): ToolError {
  return new ToolError('INVALID_OUTPUT_NAME', message);
}
