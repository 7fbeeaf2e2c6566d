'use client';
import { useNow } from '@/hooks/use-now';
import { type Translate } from '@/lib/client/i18n';
import { formatAge } from '@/lib/client/format';

export function Age({ createdAt, clockOffsetMs, t }: { createdAt: string; clockOffsetMs: number; t: Translate }) {
  const now = useNow('minute');
  // Prerender and first paint: no age rather than a wrong one.
  if (now === 0) return <span />;
  return (
    <time dateTime={createdAt} suppressHydrationWarning>
      {formatAge(now + clockOffsetMs - Date.parse(createdAt), t)}
    </time>
  );
}
