import {
  errorMessage,
  PUSH_SUMMARY_TAG,
  terminalSafe,
  type HostEvent,
  type InteractionView,
  type PushPayload,
  type PushShowPayload,
  type NtfyTopicView,
  type PushStatus,
  type PushSubscriptionJson,
  type PushTestAck,
} from '../../contracts';
import { type Preferences } from '../../contracts/preferences';
import {
  closePayload,
  interactionPayload,
  ntfyText,
  severalAgents,
  summaryPayload,
  testPayload,
} from './notification-content';
import { sendNtfy, type NtfyMessage, type NtfyOutcome } from './ntfy-sender';
import { PresenceTracker } from './presence';
import { PresenceSharing } from './presence-sharing';
import { publicOnlyPost } from './public-only-post';
import { type PushStore } from './push-store';
import { type NotifyLedger, type PresenceBoard } from './shared-push-state';
import { ownerKey, ownerOf, type StoredSubscription, type StoredTopic, type TopicOwner } from './subscription-store';
import { deviceTopicRefusal, deviceWebPushRefusal, ownerTopicRefusal, redactTopic } from './topic-address';
import { TargetThrottle } from './target-throttle';
import { type SendOutcome, type WebPushSend } from './web-push-sender';

/** The part of the host the push service needs: its live event stream and current views. */
export interface PushHostPort {
  subscribe(listener: (events: readonly HostEvent[]) => void): () => void;
  readonly projection: {
    readonly interactions: ReadonlyMap<string, InteractionView>;
    readonly preferences: Preferences;
    /** On a team hub, whether this device may be told of this question (R21.17); absent: every device may. */
    deviceSees?(deviceId: string, view: InteractionView): boolean;
    /** On a team hub, the person a device belongs to (R21.23): whom a hand-over notifies. */
    personOfDevice?(deviceId: string): { id: string } | undefined;
  };
}

export interface PushServiceOptions {
  store: PushStore;
  /**
   * Whether this process sends notifications when it starts (R20.62): a personal hub always does; a team hub's
   * replica only while it leads, as `lead()` says.
   */
  leading?: boolean;
  /** A team hub's record of notifications sent, which a new leader reads (R20.63). */
  ledger?: NotifyLedger;
  /** A team hub's devices looking through any replica (R20.64). */
  presenceBoard?: PresenceBoard;
  sendWebPush: WebPushSend;
  vapidPublicKey: string;
  /** The owner let devices subscribe push services on this machine or the LAN (R12.20). */
  allowPrivatePush?: boolean;
  /** Absolute base URL of the PWA for ntfy's Click link (the public URL, else the host URL). */
  publicUrl: () => string | undefined;
  /** A device's topic must go through `publicOnlyPost` (R12.15); the owner's may reach the LAN. */
  sendNtfy?: SendNtfy;
  /** Interactions arriving within this window reach a device as one notification. */
  collapseWindowMs?: number;
  /** At most `rateLimitMax` notifications per device per `rateLimitWindowMs`, then one summary. */
  rateLimitMax?: number;
  rateLimitWindowMs?: number;
  now?: () => Date;
  log?: (message: string) => void;
}

export type SendNtfy = (topic: Pick<StoredTopic, 'owner' | 'url'>, message: NtfyMessage) => Promise<NtfyOutcome>;

export type SetTopicOutcome = { ok: true; status: PushStatus } | { ok: false; message: string };
export type SubscribeOutcome = SetTopicOutcome;

/** A throttle target per topic owner, beside the device ids of Web Push. */
const NTFY_PREFIX = 'ntfy:';
const ntfyTarget = (owner: TopicOwner): string => `${NTFY_PREFIX}${ownerKey(owner)}`;
const isNtfy = (target: string): boolean => target.startsWith(NTFY_PREFIX);
/** The device whose ntfy topic this target is; undefined for the owner's (`askaway ntfy set`). */
const deviceOfTopic = (target: string): string | undefined => {
  const owner = ownerOf(target.slice(NTFY_PREFIX.length));
  return owner.kind === 'device' ? owner.deviceId : undefined;
};

const defaultSendNtfy: SendNtfy = (topic, message) =>
  sendNtfy(topic.url, message, topic.owner.kind === 'device' ? { post: publicOnlyPost() } : {});

/**
 * Tells people away from the app that a question waits (R14.2–R14.5): one notification per
 * new interaction, bursts collapsed into a summary, a per-device rate limit, nothing to a
 * device whose app is visible, and a close once the interaction is resolved anywhere.
 */
export class PushService {
  readonly presence = new PresenceTracker();
  private readonly throttles = new Map<string, TargetThrottle>();
  private readonly inflight = new Set<Promise<unknown>>();
  /** Questions held back by "Notify my phone" (R14.7), by request id. */
  private readonly held = new Map<string, ReturnType<typeof setTimeout>>();
  /** Questions this process has handed to its throttles since it leads: never twice. */
  private readonly handled = new Set<string>();
  /** Devices looking through other replicas, as last read before a send. */
  private lookingElsewhere = new Set<string>();
  private readonly sharing: PresenceSharing | undefined;
  private leading: boolean;
  private readonly now: () => Date;
  private readonly log: (message: string) => void;
  private readonly ntfy: SendNtfy;
  private port: PushHostPort | undefined;

  constructor(private readonly options: PushServiceOptions) {
    this.now = options.now ?? (() => new Date());
    // Push services and ntfy servers answer with text of their own: it never drives the terminal (R12.8).
    const log = options.log;
    this.log = log ? (message) => log(terminalSafe(message)) : () => undefined;
    this.ntfy = options.sendNtfy ?? defaultSendNtfy;
    this.presence.onVisible((deviceId) => this.throttles.get(deviceId)?.forgetShown());
    this.leading = options.leading ?? true;
    this.sharing = options.presenceBoard
      ? new PresenceSharing(this.presence, options.presenceBoard, (error) =>
          this.log(`push: cannot share who is looking: ${errorMessage(error)}`),
        )
      : undefined;
  }

  get vapidPublicKey(): string {
    return this.options.vapidPublicKey;
  }

  /** Starts following the host's events; returns the detach function. */
  attach(port: PushHostPort): () => void {
    this.port = port;
    const unsubscribe = port.subscribe((events) => this.onEvents(events));
    this.sharing?.start();
    if (this.leading) this.track(this.catchUp());
    return () => {
      unsubscribe();
      this.port = undefined;
      this.standDown();
      if (this.sharing) this.track(this.sharing.stop());
    };
  }

  /**
   * A team hub's replica starts or stops leading (R20.62). One that stops drops what it held back and queued:
   * the next leader sends it. One that starts sends what is due and was not sent, and holds back the rest for
   * what is left of its delay (R20.63).
   */
  lead(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    if (leading) this.track(this.catchUp());
    else this.standDown();
  }

  private standDown(): void {
    for (const timer of this.held.values()) clearTimeout(timer);
    this.held.clear();
    this.handled.clear();
    for (const throttle of this.throttles.values()) throttle.dispose();
    this.throttles.clear();
  }

  /** The questions waiting whose notification no leader has sent: held back again, each until its own due time. */
  private async catchUp(): Promise<void> {
    const { ledger } = this.options;
    if (!ledger || !this.port) return;
    const waiting = this.pendingViews().filter((view) => !this.held.has(view.requestId));
    if (waiting.length === 0) return;
    const sent = await ledger.notified(waiting.map((view) => view.requestId));
    if (!this.leading) return;
    for (const view of waiting) if (!sent.has(view.requestId)) this.hold(view.requestId, Date.parse(view.createdAt));
  }

  /**
   * This device's subscription and topic, and every topic set, each beside whoever set it: in full for
   * this device's own, anyone else's only as where it goes (knowing a topic is reading it).
   */
  async status(deviceId: string): Promise<PushStatus> {
    const [topics, subscription] = await Promise.all([
      this.options.store.ntfyTopics(),
      this.options.store.get(deviceId),
    ]);
    const own = topics.find((topic) => topic.owner.kind === 'device' && topic.owner.deviceId === deviceId);
    return {
      subscribed: subscription !== undefined,
      ntfyTopicUrl: own?.url ?? null,
      ntfyTopics: topics.map((topic): NtfyTopicView => ({
        deviceId: topic.owner.kind === 'device' ? topic.owner.deviceId : null,
        url: topic === own ? topic.url : redactTopic(topic.url),
      })),
    };
  }

  /**
   * A device's Web Push subscription (R12.20): its endpoint must be https on a public address unless the owner
   * allowed push services on this machine or the LAN. A refusal changes nothing.
   */
  async subscribe(deviceId: string, subscription: PushSubscriptionJson): Promise<SubscribeOutcome> {
    const refusal = this.options.allowPrivatePush ? undefined : deviceWebPushRefusal(subscription.endpoint);
    if (refusal) return { ok: false, message: `push subscription refused: ${refusal}` };
    await this.options.store.upsert(deviceId, subscription, this.now());
    return { ok: true, status: await this.status(deviceId) };
  }

  /** Web Push off for this device; its ntfy topic is its own switch. */
  async unsubscribe(deviceId: string): Promise<PushStatus> {
    await this.options.store.removeDevice(deviceId);
    this.dropThrottle(deviceId);
    return this.status(deviceId);
  }

  /** A device gone (revoked, R16.5): its subscription and its ntfy topic go with it. */
  async forgetDevice(deviceId: string): Promise<void> {
    await this.options.store.removeDevice(deviceId);
    this.dropThrottle(deviceId);
    const owner: TopicOwner = { kind: 'device', deviceId };
    await this.options.store.setNtfyTopic(owner, null, this.now());
    this.dropThrottle(ntfyTarget(owner));
  }

  /**
   * Forgets every device `keep` says no to: revoked ones (R16.5), and at start those the host no longer
   * knows (ids from before device credentials). Returns their ids.
   */
  async forgetDevicesExcept(keep: (deviceId: string) => boolean): Promise<string[]> {
    const [subscriptions, topics] = await Promise.all([this.options.store.list(), this.options.store.ntfyTopics()]);
    const known = [
      ...subscriptions.map((subscription) => subscription.deviceId),
      ...topics.flatMap((topic) => (topic.owner.kind === 'device' ? topic.owner.deviceId : [])),
    ];
    const dropped = [...new Set(known)].filter((deviceId) => !keep(deviceId));
    for (const deviceId of dropped) await this.forgetDevice(deviceId);
    return dropped;
  }

  /**
   * A device sets or clears its own topic (R14.6, R12.15): only https on a public address; the owner's
   * topic and other devices' are not its to change. A refusal changes nothing.
   */
  async setNtfyTopic(deviceId: string, topicUrl: string | null): Promise<SetTopicOutcome> {
    const refusal = topicUrl === null ? undefined : deviceTopicRefusal(topicUrl);
    if (refusal) return { ok: false, message: `ntfy topic refused: ${refusal}` };
    await this.setTopic({ kind: 'device', deviceId }, topicUrl);
    return { ok: true, status: await this.status(deviceId) };
  }

  /** The owner's topic, any http(s) address (a LAN ntfy): `askaway ntfy set` writes the same store. */
  async setHostNtfyTopic(topicUrl: string | null): Promise<void> {
    const refusal = topicUrl === null ? undefined : ownerTopicRefusal(topicUrl);
    if (refusal) throw new Error(`ntfy topic refused: ${refusal}`);
    await this.setTopic({ kind: 'host' }, topicUrl);
  }

  private async setTopic(owner: TopicOwner, topicUrl: string | null): Promise<void> {
    await this.options.store.setNtfyTopic(owner, topicUrl, this.now());
    // A new topic starts with a fresh rate-limit window, as a new subscription does.
    this.dropThrottle(ntfyTarget(owner));
  }

  /** The settings page's button (this device's push and topic): sent even though the page is visible, outside the rate limit. */
  async test(deviceId: string): Promise<Extract<PushTestAck, { ok: true }>> {
    const payload = testPayload(this.now());
    const owner: TopicOwner = { kind: 'device', deviceId };
    const [subscription, topicUrl] = await Promise.all([
      this.options.store.get(deviceId),
      this.options.store.ntfyTopic(owner),
    ]);
    const [web, ntfy] = await Promise.all([
      subscription ? this.deliver(subscription, payload) : undefined,
      topicUrl ? this.ntfy({ owner, url: topicUrl }, this.ntfyMessage(payload)) : undefined,
    ]);
    // The device learns a status, never what the server said: that went to the owner's log (R12.20).
    const details = [web?.status === 'failed' ? web.detail : '', ntfy?.status === 'failed' ? ntfy.detail : ''].filter(
      Boolean,
    );
    return {
      ok: true,
      webPush: web?.status ?? 'not-subscribed',
      ntfy: ntfy?.status ?? 'not-configured',
      ...(details.length > 0 ? { detail: details.join('; ').slice(0, 500) } : {}),
    };
  }

  /** Pacing state of one target (a deviceId, 'ntfy:host' or 'ntfy:device:<id>'), for tests and diagnostics. */
  throttleState(target: string): ReturnType<TargetThrottle['state']> | undefined {
    return this.throttles.get(target)?.state();
  }

  /** Resolves once every push already handed to a push service has been answered. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  private onEvents(events: readonly HostEvent[]): void {
    const ended: string[] = [];
    for (const event of events) {
      if (event.type === 'interaction.requested') {
        // Only the leader sends (R20.62); a new leader finds what is waiting in the projection (catchUp).
        if (this.leading && this.notifies(event.interaction.kind))
          this.hold(event.interaction.requestId, Date.parse(event.at));
      } else if (event.type === 'interaction.handed-over') {
        // Handed to someone (R21.23): their devices are told as of a new question; those who saw it already are not.
        const to = event.to.id;
        if (this.leading) this.track(this.enqueue(event.requestId, (target) => this.targetIsPerson(target, to)));
      } else if (event.type === 'interaction.resolved') ended.push(event.resolution.requestId);
      else if (event.type === 'interaction.withdrawn') ended.push(event.requestId);
    }
    if (ended.length > 0) this.closeEnded(ended);
  }

  /**
   * "Notify my phone" after a while (R14.7): a question answered at the desk, or withdrawn, before then
   * buzzes nothing. The delay is the one set when the question arrived.
   */
  private hold(requestId: string, since: number): void {
    if (this.held.has(requestId) || this.handled.has(requestId)) return;
    const delayMs = this.port?.projection.preferences.notifyDelayMs ?? 0;
    // What is left of the delay: all of it for a question just asked, less for one a new leader takes over.
    const elapsed = Number.isFinite(since) ? Math.max(0, this.now().getTime() - since) : 0;
    const waitMs = Math.max(0, delayMs - elapsed);
    if (waitMs === 0) {
      this.handled.add(requestId);
      this.track(this.enqueue(requestId));
      return;
    }
    const timer = setTimeout(() => {
      this.held.delete(requestId);
      if (this.view(requestId)?.status !== 'pending') return;
      this.handled.add(requestId);
      this.track(this.enqueue(requestId));
    }, waitMs);
    timer.unref?.();
    this.held.set(requestId, timer);
  }

  /** Finished turns buzz only while "Finished turns" is on in Settings (R19.9); every other kind always does. */
  private notifies(kind: InteractionView['kind']): boolean {
    return kind !== 'finished-turn' || (this.port?.projection.preferences.notifyFinishedTurns ?? true);
  }

  /** Whether a question is still held back (for tests and diagnostics). */
  isHeld(requestId: string): boolean {
    return this.held.has(requestId);
  }

  /** `only`: the targets to tell (a hand-over's new person's); every target that may see it without. */
  private async enqueue(requestId: string, only?: (target: string) => boolean): Promise<void> {
    const [targets] = await Promise.all([this.targets(), this.readLookingElsewhere()]);
    if (!this.leading || this.view(requestId)?.status !== 'pending') return;
    let queued = false;
    const view = this.view(requestId);
    for (const target of targets) {
      if (only && !only(target)) continue;
      if (this.isLooking(target) || (view && !this.targetSees(target, view))) continue;
      this.throttle(target).enqueue(requestId);
      queued = true;
    }
    // Nobody to tell, or everyone looking: the question is dealt with, and a new leader must not send it later.
    if (!queued) await this.markNotified([requestId]);
  }

  /** Every subscribed device, plus every ntfy topic. */
  private async targets(): Promise<string[]> {
    const [subscriptions, topics] = await Promise.all([this.options.store.list(), this.options.store.ntfyTopics()]);
    return [
      ...subscriptions.map((subscription) => subscription.deviceId),
      ...topics.map((topic) => ntfyTarget(topic.owner)),
    ];
  }

  /**
   * Whether a target may be told of a question (R21.17): a device's Web Push and its ntfy topic only of what the
   * device may see; the owner's topic (`askaway ntfy set`) of everything.
   */
  private targetSees(target: string, view: InteractionView): boolean {
    const sees = this.port?.projection.deviceSees;
    if (!sees) return true;
    const deviceId = isNtfy(target) ? deviceOfTopic(target) : target;
    return deviceId === undefined || sees.call(this.port?.projection, deviceId, view);
  }

  /** Whether a target is a device (its Web Push or its ntfy topic) of this person. */
  private targetIsPerson(target: string, personId: string): boolean {
    const projection = this.port?.projection;
    const deviceId = isNtfy(target) ? deviceOfTopic(target) : target;
    return deviceId !== undefined && projection?.personOfDevice?.(deviceId)?.id === personId;
  }

  /** Every interaction this target may see. */
  private *seenBy(target: string): Iterable<InteractionView> {
    for (const view of this.port?.projection.interactions.values() ?? []) if (this.targetSees(target, view)) yield view;
  }

  /** A team hub's devices looking through other replicas (R20.64); a board that cannot be read holds nothing back. */
  private async readLookingElsewhere(): Promise<void> {
    const board = this.options.presenceBoard;
    if (!board) return;
    try {
      this.lookingElsewhere = await board.lookingElsewhere();
    } catch (error) {
      this.lookingElsewhere = new Set();
      this.log(`push: cannot read who is looking through other replicas: ${errorMessage(error)}`);
    }
  }

  private async markNotified(requestIds: readonly string[]): Promise<void> {
    try {
      await this.options.ledger?.markNotified(requestIds);
    } catch (error) {
      this.log(`push: cannot record the notifications sent: ${errorMessage(error)}`);
    }
  }

  /** ntfy is no app: someone looking at the app anywhere (through any replica) has seen the question. */
  private isLooking(target: string): boolean {
    if (isNtfy(target)) return this.presence.anyVisible() || this.lookingElsewhere.size > 0;
    return this.presence.isVisible(target) || this.lookingElsewhere.has(target);
  }

  private throttle(target: string): TargetThrottle {
    let throttle = this.throttles.get(target);
    if (!throttle) {
      throttle = new TargetThrottle({
        collapseWindowMs: this.options.collapseWindowMs ?? 1_500,
        rateLimitMax: this.options.rateLimitMax ?? 6,
        rateLimitWindowMs: this.options.rateLimitWindowMs ?? 60_000,
        now: () => this.now().getTime(),
        isPending: (requestId) => this.view(requestId)?.status === 'pending',
        isLooking: () => this.isLooking(target),
        notify: (requestIds) => this.notify(target, requestIds),
      });
      this.throttles.set(target, throttle);
    }
    return throttle;
  }

  private dropThrottle(target: string): void {
    this.throttles.get(target)?.dispose();
    this.throttles.delete(target);
  }

  private view(requestId: string): InteractionView | undefined {
    return this.port?.projection.interactions.get(requestId);
  }

  /** One interaction gets its own notification; several become one summary of everything waiting. */
  private notify(target: string, requestIds: readonly string[]): { tag: string; covers: string[] } | undefined {
    const views = requestIds.flatMap((id) => this.view(id) ?? []).filter((view) => this.targetSees(target, view));
    const first = views[0];
    if (!first) return undefined;
    let payload: PushShowPayload;
    let covers: string[];
    if (views.length === 1) {
      payload = interactionPayload(first, severalAgents(this.seenBy(target)));
      covers = [first.requestId];
    } else {
      // A summary counts and names only what this target may see (R21.17).
      const waiting = this.pendingViews().filter((view) => this.targetSees(target, view));
      payload = summaryPayload(waiting, this.now());
      covers = waiting.map((view) => view.requestId);
    }
    this.dispatch(target, payload);
    // Once handed to the push service or ntfy: a leader taking over later sends these no more (R20.63).
    if (this.options.ledger) this.track(this.markNotified(views.map((view) => view.requestId)));
    return { tag: payload.tag, covers };
  }

  private pendingViews(): InteractionView[] {
    const pending: InteractionView[] = [];
    for (const view of this.port?.projection.interactions.values() ?? [])
      if (view.status === 'pending' && this.notifies(view.kind)) pending.push(view);
    return pending.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  }

  private closeEnded(requestIds: readonly string[]): void {
    for (const requestId of requestIds) {
      clearTimeout(this.held.get(requestId));
      this.held.delete(requestId);
      this.handled.delete(requestId);
    }
    for (const [target, throttle] of this.throttles) {
      const tags = throttle.ended(requestIds, (summaryCovers) =>
        summaryCovers.every((id) => this.view(id)?.status !== 'pending'),
      );
      // ntfy cannot take a notification back.
      if (tags.length > 0 && !isNtfy(target)) this.dispatch(target, closePayload(tags));
    }
  }

  private dispatch(target: string, payload: PushPayload): void {
    this.track(isNtfy(target) ? this.dispatchNtfy(target, payload) : this.dispatchWebPush(target, payload));
  }

  private async dispatchNtfy(target: string, payload: PushPayload): Promise<void> {
    if (payload.type !== 'show') return;
    // Read at send time: a topic cleared, or its device revoked, since the question came gets nothing.
    const topics = await this.options.store.ntfyTopics();
    const topic = topics.find((candidate) => ntfyTarget(candidate.owner) === target);
    if (!topic) return;
    const whose = topic.owner.kind === 'host' ? "the host's topic" : `the topic of device ${topic.owner.deviceId}`;
    const outcome = await this.ntfy(topic, this.ntfyMessage(payload));
    if (outcome.status === 'failed') this.log(`ntfy (${whose}): ${withAnswer(outcome)}`);
  }

  private async dispatchWebPush(target: string, payload: PushPayload): Promise<void> {
    const subscription = await this.options.store.get(target);
    if (subscription) await this.deliver(subscription, payload);
  }

  private async deliver(subscription: StoredSubscription, payload: PushPayload): Promise<SendOutcome> {
    let outcome: SendOutcome;
    try {
      outcome = await this.options.sendWebPush(subscription, payload);
    } catch (error) {
      outcome = { status: 'failed', detail: errorMessage(error) };
    }
    if (outcome.status === 'expired') {
      // Only this endpoint: the device may have subscribed again meanwhile.
      if (
        (await this.options.store.removeEndpoint(subscription.endpoint)) &&
        !(await this.options.store.get(subscription.deviceId))
      ) {
        this.dropThrottle(subscription.deviceId);
      }
      this.log(`push: subscription of device ${subscription.deviceId} expired (${outcome.httpStatus}); removed`);
    } else if (outcome.status === 'failed') {
      this.log(`push to device ${subscription.deviceId} failed: ${withAnswer(outcome)}`);
    }
    return outcome;
  }

  private ntfyMessage(payload: PushShowPayload): NtfyMessage {
    const base = this.options.publicUrl();
    const text = ntfyText(payload);
    return {
      ...text,
      click: base ? new URL(payload.data.url, base).href : undefined,
      tags:
        payload.tag === PUSH_SUMMARY_TAG
          ? ['speech_balloon']
          : this.view(payload.tag)?.kind === 'finished-turn'
            ? ['white_check_mark']
            : ['question'],
    };
  }

  private track(promise: Promise<unknown>): void {
    const settled = promise.catch((error: unknown) => this.log(`push: ${errorMessage(error)}`));
    this.inflight.add(settled);
    void settled.finally(() => this.inflight.delete(settled));
  }
}

/** A failure as the owner's log tells it: the status, then the start of what the server answered. */
function withAnswer(outcome: { detail: string; answer?: string }): string {
  return outcome.answer ? `${outcome.detail}: ${outcome.answer}` : outcome.detail;
}
