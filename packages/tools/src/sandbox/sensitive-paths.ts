/**
 * The path lists the built-in file tools share. Matching is on the path relative to the workspace
 * root, segment by segment, without regard to case (a case-insensitive file system would otherwise
 * let `.ENV` through).
 */

/** Folders whose contents are secrets: nothing in them is read, searched, listed, written or edited. */
export const SENSITIVE_DIRECTORIES: readonly string[] = Object.freeze([
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.gcloud',
  '.kube',
  '.docker',
  '.password-store',
  '.git',
]);

/** File names that hold credentials. `.env` also covers `.env.local`, `.env.production`, … */
export const SENSITIVE_FILE_NAMES: readonly string[] = Object.freeze([
  '.env',
  '.envrc',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
  '.htpasswd',
  '.htaccess',
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'authorized_keys',
  'known_hosts',
  'credentials',
  'credentials.json',
  'service-account.json',
  'secrets.json',
  'secrets.yaml',
  'secrets.yml',
  '.bash_history',
  '.zsh_history',
  'wp-config.php',
]);

/** Extensions of key and keystore files. */
export const SENSITIVE_EXTENSIONS: readonly string[] = Object.freeze([
  '.pem',
  '.key',
  '.p12',
  '.pfx',
  '.jks',
  '.keystore',
  '.kdbx',
  '.gpg',
  '.asc',
  '.ppk',
]);

/** Extensions `file_write` never creates: programs and scripts a system would run. */
export const EXECUTABLE_EXTENSIONS: readonly string[] = Object.freeze([
  '.sh',
  '.bash',
  '.zsh',
  '.fish',
  '.exe',
  '.bat',
  '.cmd',
  '.ps1',
  '.com',
  '.msi',
  '.dll',
  '.so',
  '.dylib',
  '.scr',
  '.vbs',
]);

/** Build and repository files `file_edit` and `file_write` leave alone. */
export const BUILD_FILE_NAMES: readonly string[] = Object.freeze([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'yarn.lock',
  'bun.lockb',
  '.yarnrc',
  '.yarnrc.yml',
  '.gitignore',
  '.gitattributes',
  '.gitmodules',
  '.gitlab-ci.yml',
  'composer.json',
  'composer.lock',
]);

/** Folders of version control and CI configuration `file_edit` and `file_write` leave alone. */
export const BUILD_DIRECTORIES: readonly string[] = Object.freeze(['.git', '.github', '.circleci', '.gitlab', '.husky', '.hg', '.svn']);

/** Folders the search and tree tools skip: dependencies, VCS data, editor state. */
export const SKIPPED_DIRECTORIES: readonly string[] = Object.freeze([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '.idea',
  '.vscode',
  '.next',
  '.nuxt',
  '.turbo',
  '.cache',
  'coverage',
]);

const lower = (list: readonly string[]): ReadonlySet<string> => new Set(list.map((entry) => entry.toLowerCase()));
const SENSITIVE_DIRECTORY_SET = lower(SENSITIVE_DIRECTORIES);
const SENSITIVE_NAME_SET = lower(SENSITIVE_FILE_NAMES);
const SENSITIVE_EXTENSION_SET = lower(SENSITIVE_EXTENSIONS);
const EXECUTABLE_EXTENSION_SET = lower(EXECUTABLE_EXTENSIONS);
const BUILD_NAME_SET = lower(BUILD_FILE_NAMES);
const BUILD_DIRECTORY_SET = lower(BUILD_DIRECTORIES);
const SKIPPED_DIRECTORY_SET = lower(SKIPPED_DIRECTORIES);

function segmentsOf(relativePath: string): string[] {
  return relativePath
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .map((segment) => segment.toLowerCase());
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

/** Why a path holds secrets (a sensitive folder, name or extension), or null. */
export function sensitivePathReason(relativePath: string): string | null {
  const segments = segmentsOf(relativePath);
  const folder = segments.slice(0, -1).find((segment) => SENSITIVE_DIRECTORY_SET.has(segment));
  if (folder !== undefined) return `it is inside the sensitive folder '${folder}'`;
  const name = segments.at(-1);
  if (name === undefined) return null;
  if (SENSITIVE_DIRECTORY_SET.has(name)) return `'${name}' is a sensitive folder`;
  if (SENSITIVE_NAME_SET.has(name) || name.startsWith('.env.')) return `'${name}' is a file that holds secrets`;
  const extension = extensionOf(name);
  if (SENSITIVE_EXTENSION_SET.has(extension)) return `'${extension}' files hold keys or secrets`;
  return null;
}

/** Why a path is a build file or inside a VCS/CI folder, or null. */
export function buildPathReason(relativePath: string): string | null {
  const segments = segmentsOf(relativePath);
  const folder = segments.find((segment) => BUILD_DIRECTORY_SET.has(segment));
  if (folder !== undefined) return `'${folder}' holds version-control or CI configuration`;
  const name = segments.at(-1);
  if (name !== undefined && BUILD_NAME_SET.has(name)) return `'${name}' is a build or repository file`;
  return null;
}

/** Why a file name is an executable or script, or null. */
export function executablePathReason(relativePath: string): string | null {
  const name = segmentsOf(relativePath).at(-1) ?? '';
  const extension = extensionOf(name);
  return EXECUTABLE_EXTENSION_SET.has(extension) ? `'${extension}' files are executables or scripts` : null;
}

/** True for a folder name the search and tree tools skip. */
export function isSkippedDirectory(name: string): boolean {
  return SKIPPED_DIRECTORY_SET.has(name.toLowerCase()) || SENSITIVE_DIRECTORY_SET.has(name.toLowerCase());
}
