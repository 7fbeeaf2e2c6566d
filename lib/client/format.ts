import { type Lang, type Translate } from './i18n';

export function formatAge(ms: number, t: Translate): string {
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return t('time.justNow');
  if (minutes < 60) return t('time.minutesAgo', { n: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('time.hoursAgo', { n: hours });
  return t('time.daysAgo', { n: Math.floor(hours / 24) });
}

/** "4:12", "1:02:03". Rounds up so the display hits 0:00 exactly at the deadline. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** 14:02:07 in the device's time zone. */
export function formatClock(iso: string, lang: Lang): string {
  return new Date(iso).toLocaleTimeString(lang === 'zh' ? 'zh-CN' : 'en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  });
}

/** "Today 14:02" style stamp for history rows. */
export function formatStamp(iso: string, lang: Lang, now: number): string {
  const date = new Date(iso);
  const sameDay = new Date(now).toDateString() === date.toDateString();
  const locale = lang === 'zh' ? 'zh-CN' : 'en-GB';
  const time = date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit', hour12: false });
  if (sameDay) return time;
  return `${date.toLocaleDateString(locale, { month: 'short', day: 'numeric' })} ${time}`;
}

export function formatDuration(ms: number, t: Translate): string {
  if (ms % 3_600_000 === 0) return t('time.hours', { n: ms / 3_600_000 });
  if (ms % 60_000 === 0) return t('time.minutes', { n: ms / 60_000 });
  return t('time.seconds', { n: Math.round(ms / 1000) });
}

const RANDOM_ID = /^[0-9a-f]{8}(?:-[0-9a-f]{4,12})*$|^[0-9a-f]{12,}$/i;

/**
 * A session id short enough for a row header: a random id (Claude Code's UUIDs, hex) by its first
 * eight characters, as people know commits; a name someone chose (`build-812`) whole, or cut with an
 * ellipsis when long, never in the middle of what makes it readable.
 */
export function shortSessionId(sessionId: string): string {
  const compact = sessionId.replace(/^(?:session|sess)[-_:]?/i, '') || sessionId;
  if (RANDOM_ID.test(compact)) return compact.slice(0, 8);
  return compact.length <= 16 ? compact : `${compact.slice(0, 15)}…`;
}

export function projectLabel(context: { projectName?: string; cwd?: string } | undefined): string {
  if (context?.projectName) return context.projectName;
  const cwd = context?.cwd;
  if (!cwd) return '';
  const parts = cwd.replace(/\/+$/, '').split(/[\\/]/).filter(Boolean);
  return parts.slice(-2).join('/') || cwd;
}
