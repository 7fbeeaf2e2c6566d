import { DEVICE_NAME_MAX, DEVICE_PLATFORM_MAX } from '../contracts/limits';

// What the pairing page suggests and sends about this device (R16.4); only the pair and settings pages need it.

/** What this device is, for the host's list (R16.4): "iPhone · Safari", "Android · Chrome", "Linux · Firefox". */
export function platformDescription(userAgent = navigator.userAgent): string {
  const os = /iPhone/.test(userAgent)
    ? 'iPhone'
    : /iPad/.test(userAgent)
      ? 'iPad'
      : /Android/.test(userAgent)
        ? 'Android'
        : /Mac OS X/.test(userAgent)
          ? 'Mac'
          : /Windows/.test(userAgent)
            ? 'Windows'
            : /CrOS/.test(userAgent)
              ? 'ChromeOS'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : '';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : '';
  return [os, browser].filter(Boolean).join(' · ').slice(0, DEVICE_PLATFORM_MAX) || 'Browser';
}

/** The name the pairing page suggests: the kind of device, which the person usually changes to "Anna's phone". */
export function defaultDeviceName(userAgent = navigator.userAgent): string {
  if (/iPhone/.test(userAgent)) return 'iPhone';
  if (/iPad/.test(userAgent)) return 'iPad';
  if (/Android/.test(userAgent)) return /Mobile/.test(userAgent) ? 'Android phone' : 'Android tablet';
  if (/Mac OS X/.test(userAgent)) return 'Mac';
  if (/Windows/.test(userAgent)) return 'Windows PC';
  if (/Linux/.test(userAgent)) return 'Linux';
  return 'Browser';
}

export function clampDeviceName(name: string): string {
  return name.trim().slice(0, DEVICE_NAME_MAX);
}
