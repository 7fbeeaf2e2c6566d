import { terminalSafe } from '../../contracts';
import { type PushSubscriptionStore } from './subscription-store';
import { deviceTopicRefusal, redactTopic } from './topic-address';

/**
 * An older host kept one ntfy topic that any device could set and nobody owned (R12.15). One a device
 * could still set today (https, public) becomes the owner's, so notifications keep coming and
 * `askaway ntfy clear` removes it; one on this machine, the LAN or plain http is dropped, since nobody
 * can tell whether the owner or a device set it. Returns the line to log, or undefined when there was none.
 */
export function adoptLegacyTopic(store: PushSubscriptionStore, now: Date): string | undefined {
  const legacy = store.takeLegacyNtfyTopic();
  if (legacy === undefined) return undefined;
  const where = terminalSafe(redactTopic(legacy));
  if (deviceTopicRefusal(legacy) === undefined) {
    store.setNtfyTopic({ kind: 'host' }, legacy, now);
    return `ntfy: the topic at ${where} is now the host's own (\`askaway ntfy\` shows it, \`askaway ntfy clear\` removes it)`;
  }
  return `ntfy: dropped the topic at ${where}: set before topics had owners, and no device may set it now; the owner sets it again with \`askaway ntfy set <url>\``;
}
