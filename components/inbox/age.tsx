'use client';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { formatAge } from '@/lib/client/format';

export function Age({ createdAt, clockOffsetMs }: { createdAt: string; clockOffsetMs: number }) {
  const { t } = useI18n();
  const now = useNow('minute');
  // Prerender and first paint: no age rather than a wrong one.
  if (now === 0) return <span />;
  return (
    <time dateTime={createdAt} suppressHydrationWarning>
      {formatAge(now + clockOffsetMs - Date.parse(createdAt), t)}
    </time>
  );
}
