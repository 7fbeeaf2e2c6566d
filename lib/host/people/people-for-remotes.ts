import { type DeviceRecord, type HostEvent } from '../../contracts';

/**
 * What of the log's people reaches a phone's stream (R21.13): nothing. The people's events (their provider
 * identity, email, groups, the digests of their pairing codes) stay on the hub, and so does whose each device is;
 * a phone learns that from the hub's answer to `devices:list`, where the hub decides what each device may see.
 */
export function eventsForRemotes(events: readonly HostEvent[]): HostEvent[] {
  const shown: HostEvent[] = [];
  for (const event of events) {
    if (event.type === 'person.added' || event.type === 'person.signed-in') continue;
    if (event.type === 'device.paired' && event.device.personId !== undefined) {
      const { personId: _kept, ...device } = event.device;
      shown.push({ ...event, device });
    } else shown.push(event);
  }
  return shown;
}

export function deviceRecordForRemotes(record: DeviceRecord): DeviceRecord {
  if (record.personId === undefined) return record;
  const { personId: _kept, ...shown } = record;
  return shown;
}
