import { type NtfyTopicView } from '../../contracts/push';

// The ntfy topics of the host's last push status, for Settings → Devices (R12.15): Notifications reads the
// status, Devices shows each topic beside its device. Zod-free, so the first screen stays light.

let topics: readonly NtfyTopicView[] = [];
const listeners = new Set<() => void>();

export function publishNtfyTopics(next: readonly NtfyTopicView[]): void {
  topics = next;
  for (const listener of listeners) listener();
}

export function subscribeNtfyTopics(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function ntfyTopicsSnapshot(): readonly NtfyTopicView[] {
  return topics;
}
