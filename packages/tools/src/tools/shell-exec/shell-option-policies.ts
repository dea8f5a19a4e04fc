// The option allowlists of the programs shell_exec knows: every option not listed is refused.

/** What the arguments of a program may be: every option not listed here is refused. */
export interface OptionPolicy {
  /** Short flags without a value, e.g. `la` for `-l` and `-a` (and `-la`). */
  readonly flags: string;
  /** Short flags taking a value (attached, `-n5`, or the next argument) and what the value may be. */
  readonly valueFlags?: Readonly<Record<string, RegExp>>;
  /** Long options without a value. */
  readonly long: readonly string[];
  /** Long options taking a value (`--name=value` or `--name value`) and what the value may be. */
  readonly longValues?: Readonly<Record<string, RegExp>>;
  /** `-5` means a count (`head -5`). */
  readonly numericFlag?: boolean;
  /**
   * What the operands are: workspace paths, nothing, a `+FORMAT` (date), or a pattern then paths
   * (grep, unless `-e`/`--regexp` gave the pattern).
   */
  readonly operands: 'paths' | 'none' | 'date-format' | 'pattern-then-paths';
}

const WORD = /^[A-Za-z0-9_-]+$/;
const NAME = /^[A-Za-z0-9._+-]+$/;
const DIGITS = /^[0-9]+$/;
const SIZE = /^[0-9]*[A-Za-z]*$/;
const COLOR = /^(never|no|none|auto|tty|if-tty|always|yes|force)$/;
const ANY = /^[\s\S]*$/;

/**
 * The options allowed for the programs of the default allowlist and the read-only list (GNU
 * coreutils, procps, hostname and grep spellings). Allowlists, not blocklists: an option missing
 * here is refused, so abbreviations (`--files0` for `--files0-from`) and options added by a later
 * release never slip through. Left out on purpose: anything reading a file list or patterns from a
 * file (`wc --files0-from`, `date -f`, `grep -f`, `hostname -F`), setting state (`date -s`,
 * `hostname NAME`), following symlinks out (`ls -L`, `grep -R`), recursing past the sensitive-file
 * checks (`grep -r`), or waiting forever (`tail -f`).
 */
export const POLICIES: Readonly<Record<string, OptionPolicy>> = Object.freeze({
  ls: {
    flags: 'aAbBcCdfFgGhiklmnNopqQrRsStuUvxXZ1',
    valueFlags: { I: NAME, w: DIGITS, T: DIGITS },
    long: [
      'all',
      'almost-all',
      'escape',
      'ignore-backups',
      'classify',
      'file-type',
      'directory',
      'human-readable',
      'si',
      'inode',
      'numeric-uid-gid',
      'no-group',
      'literal',
      'hide-control-chars',
      'show-control-chars',
      'quote-name',
      'recursive',
      'reverse',
      'size',
      'group-directories-first',
      'full-time',
      'author',
      'context',
      'zero',
      'color',
      'colour',
    ],
    longValues: {
      color: COLOR,
      colour: COLOR,
      sort: WORD,
      time: WORD,
      format: WORD,
      'indicator-style': WORD,
      'quoting-style': WORD,
      'block-size': SIZE,
      width: DIGITS,
      tabsize: DIGITS,
      ignore: NAME,
      hide: NAME,
      'time-style': /^(full-iso|long-iso|iso|locale|\+[A-Za-z0-9%:., -]*)$/,
    },
    operands: 'paths',
  },
  pwd: { flags: 'LP', long: ['logical', 'physical'], operands: 'none' },
  df: {
    flags: 'ahHiklPT',
    valueFlags: { t: NAME, x: NAME, B: SIZE },
    long: ['all', 'human-readable', 'si', 'inodes', 'local', 'portability', 'print-type', 'total', 'sync', 'no-sync', 'output'],
    longValues: { output: /^[a-z,_]+$/, type: NAME, 'exclude-type': NAME, 'block-size': SIZE },
    operands: 'paths',
  },
  wc: {
    flags: 'clmwL',
    long: ['bytes', 'chars', 'lines', 'words', 'max-line-length'],
    longValues: { total: /^(auto|always|only|never)$/ },
    operands: 'paths',
  },
  date: {
    flags: 'uRI',
    valueFlags: { d: /^[A-Za-z0-9 :+.,/-]*$/ },
    long: ['utc', 'universal', 'rfc-email', 'iso-8601'],
    longValues: { date: /^[A-Za-z0-9 :+.,/-]*$/, 'iso-8601': /^(date|hours|minutes|seconds|ns)$/, 'rfc-3339': /^(date|seconds|ns)$/ },
    operands: 'date-format',
  },
  uptime: { flags: 'ps', long: ['pretty', 'since'], operands: 'none' },
  hostname: {
    flags: 'sfdiIA',
    long: ['short', 'fqdn', 'long', 'domain', 'ip-address', 'all-ip-addresses', 'all-fqdns'],
    operands: 'none',
  },
  whoami: { flags: '', long: [], operands: 'none' },
  cat: {
    flags: 'AbeEnstTuv',
    long: ['show-all', 'number-nonblank', 'show-ends', 'number', 'squeeze-blank', 'show-tabs', 'show-nonprinting'],
    operands: 'paths',
  },
  head: {
    flags: 'qvz',
    valueFlags: { n: /^-?[0-9]+[A-Za-z]*$/, c: /^-?[0-9]+[A-Za-z]*$/ },
    long: ['quiet', 'silent', 'verbose', 'zero-terminated'],
    longValues: { lines: /^-?[0-9]+[A-Za-z]*$/, bytes: /^-?[0-9]+[A-Za-z]*$/ },
    numericFlag: true,
    operands: 'paths',
  },
  tail: {
    flags: 'qvz',
    valueFlags: { n: /^[+-]?[0-9]+[A-Za-z]*$/, c: /^[+-]?[0-9]+[A-Za-z]*$/ },
    long: ['quiet', 'silent', 'verbose', 'zero-terminated'],
    longValues: { lines: /^[+-]?[0-9]+[A-Za-z]*$/, bytes: /^[+-]?[0-9]+[A-Za-z]*$/ },
    numericFlag: true,
    operands: 'paths',
  },
  grep: {
    flags: 'EFGPiyvwxcLloqsbHhnTZzaIU',
    valueFlags: { e: ANY, m: DIGITS, A: DIGITS, B: DIGITS, C: DIGITS },
    long: [
      'extended-regexp',
      'fixed-strings',
      'basic-regexp',
      'perl-regexp',
      'ignore-case',
      'no-ignore-case',
      'invert-match',
      'word-regexp',
      'line-regexp',
      'count',
      'files-with-matches',
      'files-without-match',
      'only-matching',
      'quiet',
      'silent',
      'no-messages',
      'byte-offset',
      'with-filename',
      'no-filename',
      'line-number',
      'initial-tab',
      'null',
      'null-data',
      'text',
      'color',
      'colour',
    ],
    longValues: {
      regexp: ANY,
      'max-count': DIGITS,
      'after-context': DIGITS,
      'before-context': DIGITS,
      context: DIGITS,
      'binary-files': /^(binary|text|without-match)$/,
      color: COLOR,
      colour: COLOR,
    },
    operands: 'pattern-then-paths',
  },
});
