'use client';
import { useRouter } from 'next/navigation';
import { type AnchorHTMLAttributes, type MouseEvent } from 'react';

type Props = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string };

/**
 * A link to another screen of the app: a plain `<a>` whose ordinary click becomes a client-side navigation.
 * Not next/link: its prefetching (viewport observers, a link registry) and URL formatting cost ~3 KiB gzip on
 * every route's first screen (R13.4), and the service worker already has every screen offline. A click with a
 * modifier key or another button stays the browser's (a new tab, a download).
 */
export function Link({ href, onClick, ...rest }: Props) {
  const router = useRouter();
  const navigate = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || rest.target !== undefined) return;
    event.preventDefault();
    router.push(href);
  };
  return <a href={href} onClick={navigate} {...rest} />;
}
