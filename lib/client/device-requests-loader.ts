import { type DeviceInfo } from '../contracts/devices';
import type * as DeviceRequests from './device-requests';

// Settings calls these; ./device-requests reads the host's replies with the contracts' zod schemas, so it
// loads on the first request (the socket it uses is up by then), not with the settings screen (R13.4).

let loading: Promise<typeof DeviceRequests> | null = null;

function load(): Promise<typeof DeviceRequests> {
  loading ??= import('./device-requests').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export async function listDevices(): Promise<DeviceInfo[]> {
  return (await load()).listDevices();
}

export async function revokeDevice(deviceId: string): Promise<void> {
  return (await load()).revokeDevice(deviceId);
}

export async function revokeThisDevice(deviceId: string): Promise<void> {
  return (await load()).revokeThisDevice(deviceId);
}

export async function renameThisDevice(name: string): Promise<void> {
  return (await load()).renameThisDevice(name);
}
