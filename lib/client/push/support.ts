/** Why this browser cannot receive push notifications, if it cannot. */
export type PushUnsupportedReason =
  | 'insecure-context' // plain http on a LAN address: no service worker, no push
  | 'no-service-worker'
  | 'ios-not-installed' // iOS/iPadOS: push only in an app added to the home screen (16.4+)
  | 'ios-too-old'
  | 'no-push';

export type PushSupport =
  | { status: 'supported'; permission: 'default' | 'granted' }
  /** The person (or a policy) blocked notifications for this site; only the browser's settings undo it. */
  | { status: 'denied' }
  | { status: 'unsupported'; reason: PushUnsupportedReason };

/** What feature detection looks at, read once from the browser (plain data, so it is testable). */
export interface PushEnvironment {
  isSecureContext: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  permission: NotificationPermission | undefined;
  userAgent: string;
  platform: string;
  maxTouchPoints: number;
  /** Running as an installed app (display-mode standalone, or iOS's navigator.standalone). */
  standalone: boolean;
}

export function readPushEnvironment(win: Window & typeof globalThis = window): PushEnvironment {
  const nav = win.navigator as Navigator & { standalone?: boolean };
  const hasNotification = typeof win.Notification === 'function';
  return {
    isSecureContext: win.isSecureContext,
    hasServiceWorker: 'serviceWorker' in nav,
    hasPushManager: typeof win.PushManager === 'function',
    hasNotification,
    permission: hasNotification ? win.Notification.permission : undefined,
    userAgent: nav.userAgent,
    platform: nav.platform,
    maxTouchPoints: nav.maxTouchPoints,
    standalone: nav.standalone === true || win.matchMedia?.('(display-mode: standalone)').matches === true,
  };
}

/** iPhone, or an iPad that calls itself a Mac (iPadOS 13+). */
export function isAppleMobile(env: Pick<PushEnvironment, 'userAgent' | 'platform' | 'maxTouchPoints'>): boolean {
  return /iPhone|iPad|iPod/.test(env.userAgent) || (env.platform === 'MacIntel' && env.maxTouchPoints > 1);
}

export function detectPushSupport(env: PushEnvironment): PushSupport {
  const apple = isAppleMobile(env);
  // Safari on iOS hides the Push API entirely outside a home-screen app: say how to get it.
  if (apple && !env.standalone) return { status: 'unsupported', reason: 'ios-not-installed' };
  if (!env.isSecureContext) return { status: 'unsupported', reason: 'insecure-context' };
  if (!env.hasServiceWorker) return { status: 'unsupported', reason: 'no-service-worker' };
  if (!env.hasPushManager || !env.hasNotification)
    return { status: 'unsupported', reason: apple ? 'ios-too-old' : 'no-push' };
  if (env.permission === 'denied') return { status: 'denied' };
  return { status: 'supported', permission: env.permission === 'granted' ? 'granted' : 'default' };
}
