/** True when `host` (as given to `listen`) is a loopback address or name. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase();
  return name === 'localhost' || name === '::1' || name === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(name);
}
