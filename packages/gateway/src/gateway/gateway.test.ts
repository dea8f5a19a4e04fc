import { describe, expect, it } from 'vitest';
import { GatewayConfigError } from '../config/gateway-config-error.js';
import { parseGatewayConfig } from '../config/parse-gateway-config.js';
import { Gateway } from './gateway.js';

describe('Gateway', () => {
  it("refuses a policy with approval: 'host' when the host passed no approval gate", () => {
    const config = parseGatewayConfig({ upstreams: [{ name: 'a', command: 'node', tools: { drop: { approval: 'host' } } }] }, { env: {} });
    expect(() => new Gateway(config)).toThrow(GatewayConfigError);
    expect(() => new Gateway(config)).toThrow(/no approvalGate was passed/);
  });

  it('rejects whenReady for an upstream the configuration does not have', async () => {
    const gateway = new Gateway(parseGatewayConfig({ upstreams: [{ name: 'a', command: 'node' }] }, { env: {} }));
    await expect(gateway.whenReady('b')).rejects.toThrow("No upstream is named 'b'.");
    await gateway.close();
  });
});
