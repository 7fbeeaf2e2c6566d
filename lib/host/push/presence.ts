/**
 * Which devices have the app open and visible, from each connection's `presence`
 * reports. A device counts as looking while any of its connections (tabs) is visible;
 * a connection that never reported, or is gone, is not looking.
 */
export class PresenceTracker {
  private readonly devices = new Map<string, Map<string, boolean>>();
  private readonly visibleListeners = new Set<(deviceId: string) => void>();
  private readonly changeListeners = new Set<() => void>();

  set(deviceId: string, connectionId: string, visible: boolean): void {
    const wasVisible = this.isVisible(deviceId);
    let connections = this.devices.get(deviceId);
    if (!connections) {
      connections = new Map();
      this.devices.set(deviceId, connections);
    }
    connections.set(connectionId, visible);
    if (!wasVisible && visible) for (const listener of this.visibleListeners) listener(deviceId);
    if (wasVisible !== this.isVisible(deviceId)) this.changed();
  }

  drop(deviceId: string, connectionId: string): void {
    const wasVisible = this.isVisible(deviceId);
    const connections = this.devices.get(deviceId);
    connections?.delete(connectionId);
    if (connections?.size === 0) this.devices.delete(deviceId);
    if (wasVisible && !this.isVisible(deviceId)) this.changed();
  }

  /** The devices looking now. */
  visibleDevices(): string[] {
    return [...this.devices.keys()].filter((deviceId) => this.isVisible(deviceId));
  }

  /** Called whenever a device starts or stops looking. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  isVisible(deviceId: string): boolean {
    for (const visible of this.devices.get(deviceId)?.values() ?? []) if (visible) return true;
    return false;
  }

  anyVisible(): boolean {
    for (const deviceId of this.devices.keys()) if (this.isVisible(deviceId)) return true;
    return false;
  }

  /** Called when a device starts looking: the app closes its own notifications then. */
  onVisible(listener: (deviceId: string) => void): () => void {
    this.visibleListeners.add(listener);
    return () => this.visibleListeners.delete(listener);
  }
}
