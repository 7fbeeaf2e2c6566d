'use client';
import { Link } from '../link';
import { useI18n } from '@/hooks/use-i18n';
import { type PairingProblem } from '@/lib/client/pairing';
import { IconShield } from '../icons';

/**
 * Instead of every screen while this device may not connect (R16.5, R16.7): what happened, in
 * plain words, and how to pair again. Nothing the host sent earlier is shown any more.
 */
export function PairAgainScreen({ problem }: { problem: PairingProblem }) {
  const { t } = useI18n();
  const host = problem.hostName || problem.hostUrl || t('removed.thatComputer');
  const revoked = problem.kind === 'device-revoked';
  return (
    <section
      className="notice notice--screen"
      data-testid="pair-again"
      data-kind={problem.kind}
      aria-labelledby="pair-again-title"
    >
      <IconShield size={40} />
      <h1 id="pair-again-title" className="notice__title">
        {revoked ? t('removed.title', { host }) : t('removed.legacyTitle')}
      </h1>
      <p>{revoked ? t('removed.body') : t('removed.legacyBody')}</p>
      <p className="notice__how">{t('removed.how', { host: problem.hostName || t('removed.thatComputer') })}</p>
      <div className="notice__actions">
        <Link href="/pair" className="button button--primary" data-testid="pair-again.pair">
          {t('removed.enterCode')}
        </Link>
      </div>
    </section>
  );
}
