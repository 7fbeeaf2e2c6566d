/**
 * How many refused attempts one device gets recorded (R21.62): `perMinute` in any minute, the rest counted and
 * said in the next record that is kept. A credential that hammers the hub with another person's question ids
 * writes a few lines a minute, not one per attempt. In memory, per replica: a bound, not a count.
 */
export class RefusalBound {
  private readonly devices = new Map<string, { windowStart: number; recorded: number; unrecorded: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {}

  /** Undefined: leave this one out. Else record it, saying how many were left out before it. */
  admit(deviceId: string): { unrecorded: number } | undefined {
    const now = this.now();
    let state = this.devices.get(deviceId);
    if (!state || now - state.windowStart >= 60_000) {
      state = { windowStart: now, recorded: 0, unrecorded: state?.unrecorded ?? 0 };
      this.devices.set(deviceId, state);
      this.forgetQuiet(now);
    }
    if (state.recorded >= this.perMinute) {
      state.unrecorded += 1;
      return undefined;
    }
    state.recorded += 1;
    const unrecorded = state.unrecorded;
    state.unrecorded = 0;
    return { unrecorded };
  }

  /** Devices quiet for a minute with nothing left to say cost no memory. */
  private forgetQuiet(now: number): void {
    if (this.devices.size < 1_000) return;
    for (const [deviceId, state] of this.devices)
      if (now - state.windowStart >= 60_000 && state.unrecorded === 0) this.devices.delete(deviceId);
  }
}
