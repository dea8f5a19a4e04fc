import type { LookupAddress } from 'node:dns';
import { describe, expect, it, vi } from 'vitest';
import { AddressAllowList } from './address-allow-list.js';
import { resolveRequestTarget, type HostLookup, type RequestTargetPolicy } from './resolve-request-target.js';

function policyWith(
  table: Record<string, readonly string[]>,
  options: Partial<RequestTargetPolicy> = {},
): RequestTargetPolicy & { lookup: ReturnType<typeof vi.fn> } {
  const lookup = vi.fn(
    async (hostname: string): Promise<readonly LookupAddress[]> =>
      (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  );
  return { allowedAddresses: AddressAllowList.parse([]), allowedHosts: null, ...options, lookup: lookup as HostLookup & typeof lookup };
}

describe('resolveRequestTarget', () => {
  it('returns the one checked address of a public name after a single lookup', async () => {
    const policy = policyWith({ 'example.test': ['93.184.216.34', '2606:2800:220:1::1'] });
    const target = await resolveRequestTarget(new URL('https://example.test/x'), policy);
    expect(target).toMatchObject({ hostname: 'example.test', address: '93.184.216.34', family: 4, port: 443 });
    expect(policy.lookup).toHaveBeenCalledTimes(1);
    expect(policy.lookup).toHaveBeenCalledWith('example.test', { all: true });
  });

  it('checks an IP literal without any lookup', async () => {
    const policy = policyWith({});
    const target = await resolveRequestTarget(new URL('http://[2606:4700:4700::1111]:8443/'), policy);
    expect(target).toMatchObject({ hostname: '2606:4700:4700::1111', address: '2606:4700:4700::1111', family: 6, port: 8443 });
    expect(policy.lookup).not.toHaveBeenCalled();
  });

  it('throws ADDRESS_FORBIDDEN naming the name, the address and its range when any address is forbidden', async () => {
    const policy = policyWith({ 'split.test': ['93.184.216.34', '169.254.169.254'] });
    await expect(resolveRequestTarget(new URL('http://split.test/'), policy)).rejects.toMatchObject({
      code: 'ADDRESS_FORBIDDEN',
      message: 'Refused http://split.test/: split.test resolves to 169.254.169.254 is link-local and cloud metadata (169.254.0.0/16).',
    });
  });

  it('passes a forbidden address only on the exact allow-listed port', async () => {
    const policy = policyWith({ 'local.test': ['127.0.0.1'] }, { allowedAddresses: AddressAllowList.parse(['127.0.0.1:8080']) });
    await expect(resolveRequestTarget(new URL('http://local.test:8080/'), policy)).resolves.toMatchObject({
      address: '127.0.0.1',
      port: 8080,
    });
    await expect(resolveRequestTarget(new URL('http://local.test/'), policy)).rejects.toMatchObject({ code: 'ADDRESS_FORBIDDEN' });
  });

  it('throws DNS_LOOKUP_FAILED for a name without addresses or a failing lookup', async () => {
    await expect(resolveRequestTarget(new URL('http://none.test/'), policyWith({}))).rejects.toMatchObject({ code: 'DNS_LOOKUP_FAILED' });
    const failing = { ...policyWith({}), lookup: async () => Promise.reject(new Error('ENOTFOUND')) };
    await expect(resolveRequestTarget(new URL('http://none.test/'), failing)).rejects.toMatchObject({ code: 'DNS_LOOKUP_FAILED' });
  });

  it('refuses a lookup answer that is not an IP address', async () => {
    const policy = policyWith({ 'odd.test': ['not-an-ip'] });
    await expect(resolveRequestTarget(new URL('http://odd.test/'), policy)).rejects.toMatchObject({ code: 'ADDRESS_FORBIDDEN' });
  });

  it('matches allowedHosts exactly or by a *. entry for subdomains only', async () => {
    const policy = policyWith(
      { 'api.example.test.': ['93.184.216.34'], 'a.b.example.test': ['93.184.216.34'] },
      { allowedHosts: ['api.example.test', '*.b.example.test'] },
    );
    await expect(resolveRequestTarget(new URL('http://API.example.test./'), policy)).resolves.toMatchObject({ address: '93.184.216.34' });
    await expect(resolveRequestTarget(new URL('http://a.b.example.test/'), policy)).resolves.toMatchObject({ address: '93.184.216.34' });
    await expect(resolveRequestTarget(new URL('http://b.example.test/'), policy)).rejects.toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    await expect(resolveRequestTarget(new URL('http://evilapi.example.test/'), policy)).rejects.toMatchObject({ code: 'HOST_NOT_ALLOWED' });
    expect(policy.lookup).toHaveBeenCalledTimes(2);
  });

  it('rejects with the abort reason when the signal aborts during the lookup', async () => {
    const controller = new AbortController();
    const policy = { ...policyWith({}), lookup: () => new Promise<readonly LookupAddress[]>(() => undefined) };
    const pending = resolveRequestTarget(new URL('http://slow.test/'), policy, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
