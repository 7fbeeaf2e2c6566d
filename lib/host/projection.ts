import { DEFAULT_PREFERENCES, type HostEvent, type InteractionView, type Preferences } from '../contracts';

/**
 * Pending interactions, history, delivery and preferences as a fold of the log
 * (R10.2). The host rebuilds it at start and applies each event it appends, so
 * memory and disk can never disagree.
 */
export class HostProjection {
  readonly interactions = new Map<string, InteractionView>();
  preferences: Preferences = { ...DEFAULT_PREFERENCES };
  seq = 0;
  /** requestIds in the order they left the pending list (history order). */
  private readonly ended: string[] = [];
  /** Kept apart so pending() costs the inbox's size, not the whole history's. */
  private readonly pendingById = new Map<string, InteractionView>();

  apply(event: HostEvent): void {
    this.seq = Math.max(this.seq, event.seq);
    switch (event.type) {
      case 'interaction.requested': {
        if (this.interactions.has(event.interaction.requestId)) return;
        const view: InteractionView = {
          ...event.interaction,
          status: 'pending',
          autoResolution: { status: 'disabled' },
        };
        this.interactions.set(view.requestId, view);
        this.pendingById.set(view.requestId, view);
        return;
      }
      case 'interaction.resolved': {
        const view = this.pendingView(event.resolution.requestId);
        if (!view) return;
        view.status = 'resolved';
        view.resolution = event.resolution;
        this.end(view);
        return;
      }
      case 'interaction.withdrawn': {
        const view = this.pendingView(event.requestId);
        if (!view) return;
        view.status = 'withdrawn';
        view.withdrawnAt = event.at;
        if (event.reason !== undefined) view.withdrawnReason = event.reason;
        this.end(view);
        return;
      }
      case 'interaction.delivered': {
        const view = this.interactions.get(event.requestId);
        if (view && view.status === 'resolved' && view.deliveredAt === undefined) view.deliveredAt = event.at;
        return;
      }
      case 'UserInputAutoResolutionUpdated': {
        const view = this.pendingView(event.requestId);
        if (view) view.autoResolution = event.autoResolution;
        return;
      }
      case 'preferences.updated':
        this.preferences = event.preferences;
        return;
      default:
        assertNever(event);
    }
  }

  get(requestId: string): InteractionView | undefined {
    return this.interactions.get(requestId);
  }

  /** Pending interactions, oldest first. */
  pending(): InteractionView[] {
    return [...this.pendingById.values()];
  }

  /** The most recently ended interactions, newest first. */
  history(limit: number): InteractionView[] {
    const views: InteractionView[] = [];
    for (let index = this.ended.length - 1; index >= 0 && views.length < limit; index -= 1) {
      const view = this.interactions.get(this.ended[index] ?? '');
      if (view) views.push(view);
    }
    return views;
  }

  private pendingView(requestId: string): InteractionView | undefined {
    return this.pendingById.get(requestId);
  }

  private end(view: InteractionView): void {
    this.pendingById.delete(view.requestId);
    this.ended.push(view.requestId);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}
