'use client';
import { useI18n } from '@/hooks/use-i18n';
import { type PairingProblem } from '@/lib/client/pairing';
import { IconShield } from '../icons/shell';
import { Link } from '../link';
import { BootText, bootTemplate } from './boot-text';

/**
 * Instead of every screen while this device may not connect (R16.5, R16.7): what happened, in
 * plain words, and how to pair again. Nothing the host sent earlier is shown any more. With no
 * problem (`null`), both kinds as the prerendered HTML has them, host names drawn from what the
 * device stored (R9.14); first-paint.css shows the one that applies, if any.
 */
export function PairAgainScreen({ problem }: { problem: PairingProblem | null }) {
  if (problem) return <Notice kind={problem.kind} problem={problem} />;
  return (
    <>
      <Notice kind="device-revoked" className="boot-removed" />
      <Notice kind="legacy-token" className="boot-legacy" />
    </>
  );
}

function Notice({
  kind,
  problem,
  className,
}: {
  kind: PairingProblem['kind'];
  problem?: PairingProblem;
  className?: string;
}) {
  const { t } = useI18n();
  const fallback = t('removed.thatComputer');
  const revoked = kind === 'device-revoked';
  const title = revoked
    ? problem
      ? t('removed.title', { host: problem.hostName || problem.hostUrl || fallback })
      : bootTemplate(t, 'removed.title', 'host', <BootText slot="removed-host" fallback={fallback} />)
    : t('removed.legacyTitle');
  const how = problem
    ? t('removed.how', { host: problem.hostName || fallback })
    : bootTemplate(t, 'removed.how', 'host', <BootText slot="host-name" fallback={fallback} />);
  return (
    <section
      className={`notice notice--screen pair-again${className ? ` ${className}` : ''}`}
      data-testid={problem ? 'pair-again' : undefined}
      data-kind={kind}
      aria-labelledby={`pair-again-title-${kind}`}
    >
      <IconShield size={40} />
      <h1 id={`pair-again-title-${kind}`} className="notice__title">
        {title}
      </h1>
      <p>{revoked ? t('removed.body') : t('removed.legacyBody')}</p>
      <p className="notice__how">{how}</p>
      <div className="notice__actions">
        <Link href="/pair" className="button button--primary" data-testid="pair-again.pair">
          {t('removed.enterCode')}
        </Link>
      </div>
    </section>
  );
}
