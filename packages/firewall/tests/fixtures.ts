import { defaultAttackSettings, type FirewallRule } from '@rampart/contracts';
import type { AreaResolver, DesiredFirewall } from '../src/index.ts';

/* A desired state that exercises every planner branch; the golden files are its output. */

export const fixedNow = Date.UTC(2026, 10, 22, 0, 0, 0);

function rule(fields: Partial<FirewallRule> & Pick<FirewallRule, 'id'>): FirewallRule {
  return {
    direction: 'in',
    protocol: 'tcp',
    ports: '*',
    ips: ['*'],
    areas: [],
    action: 'allow',
    priority: 50,
    enabled: true,
    remark: '',
    created_at: fixedNow,
    updated_at: fixedNow,
    ...fields,
  };
}

export const sampleRules: FirewallRule[] = [
  rule({ id: 1, protocol: 'tcp', ports: '80,443,5500-5600', ips: ['*'], action: 'allow', priority: 10 }),
  rule({ id: 2, protocol: 'tcp_udp', ports: '53', ips: ['10.0.0.0/8', '10.1.2.3', '192.168.1.10-192.168.1.20', '2001:db8::/32'], action: 'deny', priority: 5 }),
  rule({ id: 3, protocol: 'udp', ports: '1000-2000', ips: [], areas: ['JP', 'CN-GD'], action: 'deny', priority: 20 }),
  rule({ id: 4, protocol: 'icmp', ports: '*', ips: ['203.0.113.7'], action: 'deny', priority: 20 }),
  rule({ id: 5, protocol: 'all', ports: '*', ips: ['198.51.100.0/24'], action: 'deny', priority: 99, enabled: false }),
  rule({ id: 6, direction: 'out', protocol: 'tcp', ports: '25', ips: ['*'], action: 'deny', priority: 1 }),
  rule({ id: 7, direction: 'in', protocol: 'tcp', ports: '22', ips: ['10.9.9.9'], action: 'allow', priority: 5 }),
];

export const sampleState: DesiredFirewall = {
  rules: sampleRules,
  lists: {
    super: [{ address: '10.77.1.9', expires_at: null }],
    white: [
      { address: '192.0.2.1', expires_at: null },
      { address: '192.0.2.0/30', expires_at: null },
    ],
    black: [
      { address: '198.51.100.7', expires_at: fixedNow + 3_600_000 },
      { address: '198.51.100.7', expires_at: null },
      { address: '2001:db8:dead::1', expires_at: null },
      { address: '203.0.113.0/25', expires_at: null },
      { address: '203.0.113.128-203.0.113.255', expires_at: null },
      { address: '198.18.0.1', expires_at: fixedNow - 1 },
    ],
  },
  intercept: [
    { ip: '192.0.2.200', expires_at: fixedNow + 600_000 },
    { ip: '2001:db8::bad', expires_at: fixedNow + 90_500 },
    { ip: '192.0.2.201', expires_at: fixedNow - 5 },
  ],
  portScan: { ...defaultAttackSettings.port_scan },
  now: fixedNow,
};

/** JP is 10.50.0.0/16 and 2001:db8:50::/48; Guangdong is 10.60.0.0-10.60.1.255. */
export const sampleAreas: AreaResolver = {
  ranges(codes) {
    const v4: string[] = [];
    const v6: string[] = [];
    if (codes.includes('JP')) {
      v4.push('10.50.0.0/16');
      v6.push('2001:db8:50::/48');
    }
    if (codes.includes('CN-GD')) v4.push('10.60.0.0-10.60.1.255');
    return { v4, v6 };
  },
};

export const sampleAreaOf = (ip: string): string[] => (ip.startsWith('10.50.') ? ['JP'] : ip.startsWith('10.60.') ? ['CN', 'CN-GD'] : []);
