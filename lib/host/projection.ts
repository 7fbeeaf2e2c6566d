import {
  DEFAULT_PREFERENCES,
  type DeviceRecord,
  type HostEvent,
  type InteractionView,
  type MachineRecord,
  type Preferences,
} from '../contracts';
import { activeDevices, emptyHostFold, foldHostEvent } from '../state/host-fold';

/**
 * Pending interactions, history, delivery and preferences as a fold of the log
 * (R10.2). The host rebuilds it at start and applies each event it appends, so
 * memory and disk can never disagree. The fold itself is shared with the PWA;
 * this adds the indexes the host's queries need, kept from each view's status.
 */
export class HostProjection {
  private readonly fold = emptyHostFold();
  /** requestIds in the order they left the pending list (history order). */
  private readonly ended: string[] = [];
  /** Kept apart so pending() costs the inbox's size, not the whole history's. */
  private readonly pendingById = new Map<string, InteractionView>();

  get interactions(): ReadonlyMap<string, InteractionView> {
    return this.fold.interactions;
  }

  get seq(): number {
    return this.fold.seq;
  }

  /** What the log last set, else the defaults. */
  get preferences(): Preferences {
    return this.fold.preferences ?? DEFAULT_PREFERENCES;
  }

  /** Every device ever paired, revoked ones included (R16.4, R16.5). */
  get devices(): ReadonlyMap<string, DeviceRecord> {
    return this.fold.devices;
  }

  /** Every machine ever joined, revoked ones included (R17.1, R17.2). */
  get machines(): ReadonlyMap<string, MachineRecord> {
    return this.fold.machines;
  }

  /** Paired devices not revoked, in the order they paired. */
  activeDevices(): DeviceRecord[] {
    return activeDevices(this.fold);
  }

  /** Folds one event in; returns the interaction it changed, if any. */
  apply(event: HostEvent): InteractionView | undefined {
    const view = foldHostEvent(this.fold, event);
    if (!view) return undefined;
    if (view.status === 'pending') this.pendingById.set(view.requestId, view);
    else if (this.pendingById.delete(view.requestId)) this.ended.push(view.requestId);
    return view;
  }

  get(requestId: string): InteractionView | undefined {
    return this.fold.interactions.get(requestId);
  }

  /** Pending interactions, oldest first. */
  pending(): InteractionView[] {
    return [...this.pendingById.values()];
  }

  /** The most recently ended interactions, newest first. */
  history(limit: number): InteractionView[] {
    const views: InteractionView[] = [];
    for (let index = this.ended.length - 1; index >= 0 && views.length < limit; index -= 1) {
      const view = this.fold.interactions.get(this.ended[index] ?? '');
      if (view) views.push(view);
    }
    return views;
  }
}
