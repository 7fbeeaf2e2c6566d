import {
  DEFAULT_PREFERENCES,
  type HostEvent,
  type InteractionView,
  type Preferences,
} from '../contracts';

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

  apply(event: HostEvent): void {
    this.seq = Math.max(this.seq, event.seq);
    switch (event.type) {
      case 'interaction.requested': {
        if (this.interactions.has(event.interaction.requestId)) return;
        this.interactions.set(event.interaction.requestId, {
          ...event.interaction,
          status: 'pending',
          autoResolution: { status: 'disabled' },
        });
        return;
      }
      case 'interaction.resolved': {
        const view = this.pendingView(event.resolution.requestId);
        if (!view) return;
        view.status = 'resolved';
        view.resolution = event.resolution;
        this.ended.push(view.requestId);
        return;
      }
      case 'interaction.withdrawn': {
        const view = this.pendingView(event.requestId);
        if (!view) return;
        view.status = 'withdrawn';
        view.withdrawnAt = event.at;
        if (event.reason !== undefined) view.withdrawnReason = event.reason;
        this.ended.push(view.requestId);
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
    return [...this.interactions.values()].filter((view) => view.status === 'pending');
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
    const view = this.interactions.get(requestId);
    return view?.status === 'pending' ? view : undefined;
  }
}

function assertNever(value: never): never {
  throw new Error(`Unhandled event ${JSON.stringify(value)}`);
}
