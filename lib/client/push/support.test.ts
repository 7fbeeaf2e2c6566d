import { describe, expect, it } from 'vitest';
import { detectPushSupport, type PushEnvironment } from './support';

const chromeAndroid: PushEnvironment = {
  isSecureContext: true,
  hasServiceWorker: true,
  hasPushManager: true,
  hasNotification: true,
  permission: 'default',
  userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36',
  platform: 'Linux armv8l',
  maxTouchPoints: 5,
  standalone: false,
};
const iphoneSafari: PushEnvironment = {
  ...chromeAndroid,
  hasPushManager: false,
  hasNotification: false,
  permission: undefined,
  userAgent:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1',
  platform: 'iPhone',
};

describe('detectPushSupport', () => {
  it('[R14.1] a secure Chrome with a service worker can push; the permission is asked later', () => {
    expect(detectPushSupport(chromeAndroid)).toEqual({ status: 'supported', permission: 'default' });
    expect(detectPushSupport({ ...chromeAndroid, permission: 'granted' })).toEqual({
      status: 'supported',
      permission: 'granted',
    });
  });

  it('[R14.1] iOS outside an installed home-screen app explains how to install', () => {
    expect(detectPushSupport(iphoneSafari)).toEqual({ status: 'unsupported', reason: 'ios-not-installed' });
    // iPadOS presents itself as a Mac with touch.
    const ipad = {
      ...iphoneSafari,
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15',
      platform: 'MacIntel',
    };
    expect(detectPushSupport(ipad)).toEqual({ status: 'unsupported', reason: 'ios-not-installed' });
  });

  it('[R14.1] the installed iOS app can push (16.4+), an older one says so', () => {
    const installed = {
      ...iphoneSafari,
      standalone: true,
      hasPushManager: true,
      hasNotification: true,
      permission: 'default' as const,
    };
    expect(detectPushSupport(installed)).toMatchObject({ status: 'supported' });
    expect(detectPushSupport({ ...iphoneSafari, standalone: true })).toEqual({
      status: 'unsupported',
      reason: 'ios-too-old',
    });
  });

  it('[R14.1] plain http on a LAN address, no service worker, or no Push API are explained', () => {
    expect(detectPushSupport({ ...chromeAndroid, isSecureContext: false })).toEqual({
      status: 'unsupported',
      reason: 'insecure-context',
    });
    expect(detectPushSupport({ ...chromeAndroid, hasServiceWorker: false })).toEqual({
      status: 'unsupported',
      reason: 'no-service-worker',
    });
    expect(detectPushSupport({ ...chromeAndroid, hasPushManager: false })).toEqual({
      status: 'unsupported',
      reason: 'no-push',
    });
  });

  it('[R14.1] a blocked permission is reported as denied, not as unsupported', () => {
    expect(detectPushSupport({ ...chromeAndroid, permission: 'denied' })).toEqual({ status: 'denied' });
  });
});
