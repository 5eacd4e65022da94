import { isPrivateAddress } from './private-network.guard';

describe('isPrivateAddress', () => {
  it.each(['127.0.0.1', '::1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '::ffff:192.168.0.5', 'fd00::1', 'fe80::1', '169.254.1.1'])('%s is private', (ip) => {
    expect(isPrivateAddress(ip)).toBe(true);
  });
  it.each(['8.8.8.8', '172.32.0.1', '203.0.113.9', '::ffff:8.8.8.8', '2001:db8::1', '', 'localhost', undefined])('%s is not', (ip) => {
    expect(isPrivateAddress(ip)).toBe(false);
  });
});
