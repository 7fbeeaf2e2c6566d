import { type DeviceRecord, type HostEvent, type InteractionView } from '../../contracts';
import { type VisibleQuestion } from './question-visibility';

/**
 * What of the log's people reaches a phone's stream (R21.13): only the names a card shows (a question's `askedFor`
 * and `handedOver`, an answer's `device.person`). The people's and groups' events (provider identity, email,
 * groups, the digests of their pairing and join codes) stay on the hub, and so does whose each device and machine
 * is; a phone learns that from the hub's answer to `devices:list` and `GET /api/team`.
 */
export function eventsForRemotes(events: readonly HostEvent[]): HostEvent[] {
  const shown: HostEvent[] = [];
  for (const event of events) {
    if (event.type.startsWith('person.') || event.type.startsWith('group.') || event.type.startsWith('audit.'))
      continue;
    if (event.type === 'device.paired' && event.device.personId !== undefined) {
      const { personId: _kept, ...device } = event.device;
      shown.push({ ...event, device });
    } else if (
      event.type === 'machine.joined' &&
      (event.machine.personId !== undefined || event.machine.groupId !== undefined)
    ) {
      const { personId: _person, groupId: _group, ...machine } = event.machine;
      shown.push({ ...event, machine });
    } else shown.push(event);
  }
  return shown;
}

/** The question an interaction event is about, if it is about one. */
function requestIdOf(event: HostEvent): string | undefined {
  switch (event.type) {
    case 'interaction.requested':
      return event.interaction.requestId;
    case 'interaction.resolved':
      return event.resolution.requestId;
    case 'interaction.delivered':
    case 'interaction.withdrawn':
    case 'interaction.reopened':
    case 'interaction.handed-over':
    case 'UserInputAutoResolutionUpdated':
      return event.requestId;
    default:
      return undefined;
  }
}

/**
 * A member's device's share of a batch (R21.17): the events about questions it may not see are left out (the
 * question, its answer, its delivery, its withdrawal), everything else passes. `visible` undefined: all of it.
 */
export function eventsVisibleTo(
  events: readonly HostEvent[],
  visible: ((view: VisibleQuestion) => boolean) | undefined,
  viewOf: (requestId: string) => InteractionView | undefined,
): HostEvent[] {
  if (!visible) return [...events];
  return events.filter((event) => {
    if (event.type === 'interaction.requested') return visible(event.interaction);
    const requestId = requestIdOf(event);
    if (requestId === undefined) return true;
    const view = viewOf(requestId);
    return view !== undefined && visible(view);
  });
}

export function deviceRecordForRemotes(record: DeviceRecord): DeviceRecord {
  if (record.personId === undefined) return record;
  const { personId: _kept, ...shown } = record;
  return shown;
}
