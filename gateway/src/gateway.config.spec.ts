import { loadConfig } from '@likeness/nest-kit';
import { gatewayConfigSchema } from './gateway.config.js';

const REQUIRED = { JWT_SECRET: 'j'.repeat(32), MEDIA_SECRET: 'm'.repeat(32) };
const trustProxyOf = (value: string | undefined) =>
  loadConfig(gatewayConfigSchema, { ...REQUIRED, ...(value === undefined ? {} : { TRUST_PROXY: value }) }).TRUST_PROXY;

describe('gatewayConfigSchema TRUST_PROXY', () => {
  it('should trust no proxy by default', () => {
    expect(trustProxyOf(undefined)).toBe(false);
    expect(trustProxyOf('')).toBe(false);
    expect(trustProxyOf('false')).toBe(false);
    expect(trustProxyOf('0')).toBe(false);
  });

  it('should take a number of hops', () => {
    expect(trustProxyOf('1')).toBe(1);
    expect(trustProxyOf('2')).toBe(2);
  });

  it('should take proxy addresses, CIDR ranges and named ranges', () => {
    expect(trustProxyOf('10.0.0.0/8, 192.168.1.7,fd00::/8,::1, loopback')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it('should refuse true, which would trust every hop, and say what to set instead', () => {
    expect(() => trustProxyOf('true')).toThrow(/TRUST_PROXY: true would trust every hop.*number of proxies/);
  });

  it.each(['yes', '10.0.0.0/33', '10.0.0.300', 'fd00::/129', '10.0.0.0/8/1', '1.5', '-1', 'ingress.local'])(
    'should refuse %j',
    (value) => {
      expect(() => trustProxyOf(value)).toThrow(/TRUST_PROXY: must be false, a number of proxy hops/);
    },
  );
});

describe('gatewayConfigSchema SUPPORT_EMAIL', () => {
  it('should fall back to the default support address', () => {
    expect(loadConfig(gatewayConfigSchema, REQUIRED).SUPPORT_EMAIL).toBe('support@likeness.local');
  });

  it('should take the operator’s address and refuse one that is not an address', () => {
    expect(loadConfig(gatewayConfigSchema, { ...REQUIRED, SUPPORT_EMAIL: 'help@likeness.example' }).SUPPORT_EMAIL).toBe(
      'help@likeness.example',
    );
    expect(() => loadConfig(gatewayConfigSchema, { ...REQUIRED, SUPPORT_EMAIL: 'help desk' })).toThrow(
      /SUPPORT_EMAIL: must be an e-mail address/,
    );
  });
});
