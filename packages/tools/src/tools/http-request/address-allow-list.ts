import { MilpaError } from '@milpa/core';
import { BlockList, isIP } from 'node:net';

interface AllowedEndpoint {
  readonly family: 'ipv4' | 'ipv6';
  readonly port: number;
  readonly list: BlockList;
}

const IPV4_ENTRY = /^([0-9.]+):([0-9]{1,5})$/;
const IPV6_ENTRY = /^\[([0-9A-Fa-f:.]+)\]:([0-9]{1,5})$/;

/**
 * Exact `address:port` endpoints the HTTP tool may reach although their address is in a forbidden
 * range, e.g. a test server on `127.0.0.1:43127`. Each entry names one IP address and one port
 * (`127.0.0.1:8080`, `[::1]:8080`): there is no wildcard, no range and no "allow loopback", so an
 * entry opens exactly one listening socket and nothing beside it.
 *
 * @example
 * const allowed = AddressAllowList.parse(['127.0.0.1:8080']);
 * allowed.allows('127.0.0.1', 8080); // true
 * allowed.allows('127.0.0.1', 8081); // false
 */
export class AddressAllowList {
  /** The entries as given. */
  readonly entries: readonly string[];
  readonly #endpoints: readonly AllowedEndpoint[];

  private constructor(entries: readonly string[], endpoints: readonly AllowedEndpoint[]) {
    this.entries = Object.freeze([...entries]);
    this.#endpoints = endpoints;
  }

  /**
   * Parses `address:port` entries (IPv6 in brackets).
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an entry that is not one IP address and one port from 1 to 65535.
   */
  static parse(entries: readonly string[] = []): AddressAllowList {
    if (!Array.isArray(entries)) {
      throw new MilpaError('allowedAddresses must be an array of "address:port" strings.', { code: 'INVALID_ARGUMENT' });
    }
    const endpoints = entries.map((entry): AllowedEndpoint => {
      const match = typeof entry === 'string' ? (IPV6_ENTRY.exec(entry) ?? IPV4_ENTRY.exec(entry)) : null;
      const address = match?.[1] ?? '';
      const port = Number(match?.[2]);
      const version = isIP(address);
      const bracketed = typeof entry === 'string' && entry.startsWith('[');
      if (match === null || version === 0 || (version === 6) !== bracketed || !Number.isInteger(port) || port < 1 || port > 65535) {
        throw new MilpaError(
          `allowedAddresses entry ${JSON.stringify(entry)} must be one IP address and one port, e.g. "127.0.0.1:8080" or "[::1]:8080".`,
          { code: 'INVALID_ARGUMENT' },
        );
      }
      const family = version === 4 ? 'ipv4' : 'ipv6';
      const list = new BlockList();
      list.addAddress(address, family);
      return { family, port, list };
    });
    return new AddressAllowList(entries, Object.freeze(endpoints));
  }

  /** True when `address` (an IP literal without brackets) and `port` match one entry exactly. */
  allows(address: string, port: number): boolean {
    const version = isIP(address);
    if (version === 0) return false;
    const family = version === 4 ? 'ipv4' : 'ipv6';
    // Same family only: BlockList would otherwise equate 127.0.0.1 with ::ffff:127.0.0.1.
    return this.#endpoints.some((endpoint) => endpoint.family === family && endpoint.port === port && endpoint.list.check(address, family));
  }
}
