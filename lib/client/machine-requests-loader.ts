// Settings calls this; ./machine-requests reads the host's reply with the contracts' zod schemas, so it
// loads on the first request (the socket it uses is up by then), not with the settings screen (R13.4).

/** As ./machine-requests' revokeMachine; rejects with a MachineRequestError (./machine-request-error) when refused. */
export async function revokeMachine(machineId: string): Promise<void> {
  const { revokeMachine: revoke } = await import('./machine-requests');
  return revoke(machineId);
}
