'use client';
import { Link } from '../link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useRemote } from '@/hooks/use-remote';
import { selectPendingCount } from '@/lib/client/pending-count';
import { isLive } from '@/lib/client/store';
import { IconHistory, IconInbox, IconSettings, IconTree } from '../icons/shell';

const TABS = [
  { href: '/', key: 'nav.inbox', Icon: IconInbox, id: 'inbox' },
  { href: '/sessions', key: 'nav.sessions', Icon: IconTree, id: 'sessions' },
  { href: '/history', key: 'nav.history', Icon: IconHistory, id: 'history' },
  { href: '/settings', key: 'nav.settings', Icon: IconSettings, id: 'settings' },
] as const;

let prefetched = false;

/**
 * The other tabs, fetched ahead once the inbox is live and the browser is idle: prefetching them as
 * the links appear would compete with the first screen. (The service worker has them offline anyway.)
 */
function usePrefetchTabsWhenIdle(live: boolean): void {
  const router = useRouter();
  useEffect(() => {
    if (!live || prefetched) return;
    const prefetch = () => {
      prefetched = true;
      for (const tab of TABS) router.prefetch(tab.href);
    };
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(prefetch, { timeout: 5_000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(prefetch, 1_000);
    return () => clearTimeout(timer);
  }, [live, router]);
}

/** `className`: a first-paint class (first-paint.css) for a bar only some devices see. */
export function BottomNav({ className }: { className?: string }) {
  const pathname = usePathname();
  const { t } = useI18n();
  const state = useRemote();
  const pending = selectPendingCount(state.host);
  const current = pathname.replace(/\.html$/, '').replace(/\/$/, '') || '/';
  usePrefetchTabsWhenIdle(isLive(state));
  return (
    <nav className={className ? `tabbar ${className}` : 'tabbar'} aria-label="Main" data-testid="nav">
      {TABS.map(({ href, key, Icon, id }) => {
        const active = current === href;
        return (
          <Link
            key={href}
            href={href}
            className="tabbar__tab"
            aria-current={active ? 'page' : undefined}
            data-testid={`nav.${id}`}
          >
            <span className="tabbar__icon">
              <Icon size={22} />
              {id === 'inbox' && pending > 0 ? (
                <span className="tabbar__badge" aria-hidden="true">
                  {pending > 99 ? '99+' : pending}
                </span>
              ) : null}
            </span>
            <span className="tabbar__label">
              {t(key)}
              {id === 'inbox' && pending > 0 ? (
                <span className="sr-only"> ({t('inbox.waiting', { n: pending })})</span>
              ) : null}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
