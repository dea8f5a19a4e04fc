/**
 * The path lists the built-in file tools share. Matching is on the path relative to the workspace
 * root, segment by segment, without regard to case (a case-insensitive file system would otherwise
 * let `.ENV` through).
 */
import { findPathPattern, pathSegments } from './path-pattern.js';

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
  '.yarnrc',
  '.yarnrc.yml',
  '.dockercfg',
  'kubeconfig',
  'terraform.tfstate',
  '.terraformrc',
  'credentials.tfrc.json',
  'credentials.toml',
  '.vault-token',
  '.s3cfg',
  '.boto',
  '.my.cnf',
]);

/**
 * Patterns of paths that hold credentials (`*` within one name; a pattern with `/` matches the last
 * folders of a path at any depth): `.env-prod`, `prod.env`, `*.kubeconfig`, `terraform.tfstate.backup`,
 * `.docker/config.json`, `.config/gh/hosts.yml`, …
 */
export const SENSITIVE_PATH_PATTERNS: readonly string[] = Object.freeze([
  '.env.*',
  '.env-*',
  '.env_*',
  '*.env',
  '*.env.*',
  '*.kubeconfig',
  'kubeconfig.*',
  '*.tfstate',
  'terraform.tfstate*',
  '*.tfvars',
  '.docker/config.json',
  '.kube/config',
  '.config/gh/*',
  '.config/gcloud/*',
  '.config/hub',
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

/**
 * Build, hook and shell start-up files `file_edit` and `file_write` leave alone: files a package
 * manager, build tool, editor, container build or shell runs code from without asking.
 */
export const BUILD_FILE_NAMES: readonly string[] = Object.freeze([
  'package.json',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  'bunfig.toml',
  'makefile',
  'gnumakefile',
  'justfile',
  'rakefile',
  'taskfile.yml',
  'taskfile.yaml',
  'dockerfile',
  'containerfile',
  'docker-compose.yml',
  'docker-compose.yaml',
  'compose.yml',
  'compose.yaml',
  'jenkinsfile',
  '.travis.yml',
  'azure-pipelines.yml',
  'lefthook.yml',
  '.lefthook.yml',
  '.pre-commit-config.yaml',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.zshenv',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  'config.fish',
  '.gitconfig',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'pnpm-lock.yaml',
  'pnpm-workspace.yaml',
  'yarn.lock',
  'bun.lockb',
  '.gitignore',
  '.gitattributes',
  '.gitmodules',
  '.gitlab-ci.yml',
  'composer.json',
  'composer.lock',
]);

/**
 * Folders `file_edit` and `file_write` leave alone: version control and its hooks, CI, editor tasks
 * and launch settings, dev containers, and installed dependencies.
 */
export const BUILD_DIRECTORIES: readonly string[] = Object.freeze([
  '.git',
  '.github',
  '.circleci',
  '.gitlab',
  '.buildkite',
  '.husky',
  '.githooks',
  '.hg',
  '.svn',
  '.vscode',
  '.idea',
  '.devcontainer',
  '.yarn',
  'node_modules',
]);

/** Patterns of build files (same rules as {@link SENSITIVE_PATH_PATTERNS}): `Dockerfile.dev`, `rules.mk`, … */
export const BUILD_PATH_PATTERNS: readonly string[] = Object.freeze([
  'dockerfile.*',
  '*.dockerfile',
  'makefile.*',
  '*.mk',
  '.config/fish/*',
]);

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
  return pathSegments(relativePath).map((segment) => segment.toLowerCase());
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
  if (SENSITIVE_NAME_SET.has(name) || findPathPattern(relativePath, SENSITIVE_PATH_PATTERNS) !== undefined) {
    return `'${name}' is a file that holds secrets`;
  }
  const extension = extensionOf(name);
  if (SENSITIVE_EXTENSION_SET.has(extension)) return `'${extension}' files hold keys or secrets`;
  return null;
}

/**
 * Why a path is a build, hook or shell start-up file, or inside a folder of version control, CI,
 * editor tasks or dependencies; null otherwise, or when it matches one of `allowed` (patterns a host
 * lets the tools write, same rules as {@link BUILD_PATH_PATTERNS}).
 */
export function buildPathReason(relativePath: string, allowed: readonly string[] = []): string | null {
  if (allowed.length > 0 && findPathPattern(relativePath, allowed) !== undefined) return null;
  const segments = segmentsOf(relativePath);
  const folder = segments.find((segment) => BUILD_DIRECTORY_SET.has(segment));
  if (folder !== undefined) return `'${folder}' holds version-control, CI, editor or dependency files that run code`;
  const name = segments.at(-1);
  if (name !== undefined && (BUILD_NAME_SET.has(name) || findPathPattern(relativePath, BUILD_PATH_PATTERNS) !== undefined)) {
    return `'${name}' is a build or repository file (a build, hook or shell start-up file)`;
  }
  return null;
}

/** Why a file name is an executable or script, or null. */
export function executablePathReason(relativePath: string): string | null {
  const name = segmentsOf(relativePath).at(-1) ?? '';
  const extension = extensionOf(name);
  return EXECUTABLE_EXTENSION_SET.has(extension) ? `'${extension}' files are executables or scripts` : null;
}

// A web server runs these as programs, so `file_write` creates them only when the host allows it.
const PHP_EXTENSION_SET: ReadonlySet<string> = new Set(['.php', '.phtml', '.phar']);

/** Why a file name is a PHP script (`.php`, `.phtml`, `.phar`), or null. */
export function phpPathReason(relativePath: string): string | null {
  const name = segmentsOf(relativePath).at(-1) ?? '';
  const extension = extensionOf(name);
  return PHP_EXTENSION_SET.has(extension) ? `'${extension}' files are PHP scripts a web server runs` : null;
}

/** True for a folder name the search and tree tools skip. */
export function isSkippedDirectory(name: string): boolean {
  return SKIPPED_DIRECTORY_SET.has(name.toLowerCase()) || SENSITIVE_DIRECTORY_SET.has(name.toLowerCase());
}
