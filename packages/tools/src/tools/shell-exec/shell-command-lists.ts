/**
 * The program lists of `shell_exec`: the default allowlist, the programs that are never run
 * whatever the allowlist says, and the read-only programs that need no approval.
 */

/** The programs `shell_exec` runs when no allowlist is given: all of them only read. */
export const DEFAULT_SHELL_ALLOWLIST: readonly string[] = Object.freeze(['ls', 'pwd', 'df', 'wc', 'date', 'uptime', 'hostname', 'whoami']);

/**
 * Programs that only read, whatever their arguments allowed by `shell_exec`'s option policies
 * (`date -s`, `hostname NAME` and the like are refused for every one of them): a call running one
 * is not mutating. Fixed whatever the allowlist; a program on it still runs only when the allowlist
 * names it too.
 */
export const SHELL_READ_ONLY_COMMANDS: readonly string[] = Object.freeze([
  'ls',
  'pwd',
  'df',
  'wc',
  'date',
  'uptime',
  'hostname',
  'whoami',
  'cat',
  'head',
  'tail',
  'grep',
]);

/**
 * Programs `shell_exec` never runs, even when an allowlist names them: they delete or overwrite
 * files, change permissions or privileges, stop the machine or other processes, reach the network,
 * or run other programs and code (shells, interpreters, `env`, `xargs`, `find -exec`, `awk`,
 * `sed`, `tar --to-command`, `git` with its hooks and repository-configured commands, editors and
 * pagers with shell escapes, package managers with install scripts). A name also matches with a
 * version suffix (`python3.12`, `perl5.36`) and without regard to case.
 */
export const SHELL_BLOCKED_COMMANDS: readonly string[] = Object.freeze([
  // Files: delete, move, overwrite, link (a symlink could lead out of the workspace), wipe.
  'rm', 'rmdir', 'unlink', 'mv', 'cp', 'ln', 'link', 'dd', 'shred', 'truncate', 'tee', 'install', 'mkfs', 'mke2fs', 'mkswap',
  'fdisk', 'sfdisk', 'parted', 'wipefs', 'fsck', 'mount', 'umount', 'losetup', 'swapon', 'swapoff',
  // Permissions, ownership, users and privilege.
  'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'setcap', 'sudo', 'su', 'doas', 'pkexec', 'runuser', 'chroot', 'unshare',
  'nsenter', 'passwd', 'chpasswd', 'useradd', 'userdel', 'usermod', 'groupadd', 'groupdel', 'visudo',
  // The machine and other processes.
  'shutdown', 'reboot', 'halt', 'poweroff', 'init', 'telinit', 'kill', 'killall', 'pkill', 'renice', 'systemctl', 'service',
  'crontab', 'at', 'batch', 'launchctl', 'sysctl', 'modprobe', 'insmod', 'rmmod',
  // The network.
  'curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'ssh', 'scp', 'sftp', 'rsync', 'ftp', 'tftp', 'telnet', 'nmap', 'ping',
  'dig', 'nslookup', 'host', 'openssl', 'ip', 'ifconfig', 'route', 'iptables', 'ip6tables', 'nft', 'ufw',
  // Shells and interpreters.
  'sh', 'bash', 'zsh', 'dash', 'fish', 'csh', 'tcsh', 'ksh', 'ash', 'busybox', 'toybox', 'python', 'node', 'nodejs', 'deno',
  'bun', 'perl', 'ruby', 'irb', 'php', 'lua', 'luajit', 'tclsh', 'wish', 'rscript', 'java', 'jshell', 'osascript', 'pwsh',
  'powershell', 'expect', 'gdb', 'lldb', 'strace', 'ltrace',
  // Programs that run other programs or commands given as arguments.
  'env', 'xargs', 'find', 'awk', 'gawk', 'mawk', 'nawk', 'sed', 'eval', 'exec', 'command', 'builtin', 'source', 'nohup',
  'setsid', 'timeout', 'time', 'nice', 'ionice', 'stdbuf', 'watch', 'parallel', 'script', 'flock', 'make', 'tar', 'zip',
  'git', 'vi', 'vim', 'nvim', 'emacs', 'nano', 'ed', 'ex', 'less', 'more', 'man', 'sqlite3', 'psql', 'mysql',
  // Containers and package managers.
  'docker', 'podman', 'kubectl', 'npm', 'npx', 'pnpm', 'yarn', 'pip', 'pip3', 'pipx', 'gem', 'cargo', 'go', 'apt', 'apt-get',
  'dpkg', 'yum', 'dnf', 'rpm', 'brew', 'snap',
]);

const BLOCKED = new Set(SHELL_BLOCKED_COMMANDS.map((name) => name.toLowerCase()));
const VERSION_SUFFIX = /[0-9][0-9.-]*$/;

/**
 * True when `program` is on {@link SHELL_BLOCKED_COMMANDS}, compared without regard to case (a
 * case-insensitive file system would otherwise run `RM`), and also without a version suffix
 * (`python3.12` is `python`) or a dotted variant (`mkfs.ext4` is `mkfs`).
 */
export function isShellCommandBlocked(program: string): boolean {
  const name = program.toLowerCase();
  const stem = name.split('.')[0] ?? name;
  return [name, name.replace(VERSION_SUFFIX, ''), stem, stem.replace(VERSION_SUFFIX, '')].some((candidate) => BLOCKED.has(candidate));
}
