import { describe, expect, it } from 'vitest';
import { type DeviceInfo } from '../../lib/contracts';
import { formatDevices } from './devices';

const device = (id: string, extra: Partial<DeviceInfo> = {}): DeviceInfo => ({
  id,
  name: `Device ${id}`,
  platform: 'Android · Chrome',
  pairedAt: '2026-12-07T10:00:00.000Z',
  online: false,
  ...extra,
});

describe('askaway devices', () => {
  it('[R16.4] a personal hub’s list has no person column', () => {
    expect(formatDevices([device('a1')])).not.toContain('PERSON');
  });

  it('[R21.12] on a team hub each device shows whose it is; one paired with a link belongs to nobody', () => {
    const text = formatDevices([
      device('a1', { person: { id: 'p1', name: 'Ana Lima', email: 'ana@example.com', role: 'owner' } }),
      device('b2', { person: { id: 'p2', email: 'ben@example.com', role: 'member' } }),
      device('c3'),
    ]);
    const [header, ana, ben, plain] = text.trimEnd().split('\n');
    expect(header).toMatch(/^ID +NAME +PERSON +PLATFORM/);
    expect(ana).toContain('Ana Lima <ana@example.com>, owner');
    expect(ben).toContain('ben@example.com, member');
    expect(plain).toContain('— (pairing link)');
  });
});
