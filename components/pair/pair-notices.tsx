'use client';
import { useI18n } from '@/hooks/use-i18n';
import { Link } from '../link';
import { BootText, bootTemplate } from '../shell/boot-text';
import '@/lib/client/i18n-en-pair';

/**
 * The plain "no longer works" page (R16.3). `pairedHost`: the host this device is paired with, which nothing
 * changed; `boot`: as the prerendered HTML has it for an old `#token=` link, whether or not the device is paired
 * (R9.14, first-paint.css).
 */
export function InvalidLinkNotice({
  pairedHost,
  boot,
  onEnterCode,
}: {
  pairedHost: string | null;
  boot?: boolean;
  onEnterCode: () => void;
}) {
  const { t } = useI18n();
  const paired = boot ? 'boot-paired' : undefined;
  return (
    <section
      className={boot ? 'notice boot-pair-legacy' : 'notice'}
      data-testid={boot ? undefined : 'pair.invalid'}
      aria-labelledby="pair-invalid-title"
    >
      <h2 id="pair-invalid-title" className="notice__title">
        {t('pair.invalidTitle')}
      </h2>
      <p>{t('pair.invalidBody')}</p>
      <p>{t('pair.invalidHow')}</p>
      {boot || pairedHost !== null ? (
        <p className={boot ? 'notice__quiet boot-paired' : 'notice__quiet'} data-testid="pair.unchanged">
          {boot
            ? bootTemplate(t, 'pair.invalidUnchanged', 'host', <BootText slot="paired-host" />)
            : t('pair.invalidUnchanged', { host: pairedHost ?? '' })}
        </p>
      ) : null}
      <div className="notice__actions">
        {boot || pairedHost !== null ? (
          <Link
            href="/"
            className={paired ? `button button--primary ${paired}` : 'button button--primary'}
            data-testid="pair.back"
          >
            {t('pair.backToApp')}
          </Link>
        ) : null}
        <button type="button" className="button" onClick={onEnterCode} data-testid="pair.enter-code">
          {t('pair.enterCode')}
        </button>
      </div>
    </section>
  );
}

/**
 * Which host this device is paired with, and what pairing here does to that. With `both`, the
 * other wording is laid out too, hidden, in the same grid cell: the note is as tall as the longer
 * one whichever shows.
 */
export function PairedNote({
  sameHost,
  both,
  text,
}: {
  sameHost: boolean;
  both: boolean;
  text: (same: boolean) => string;
}) {
  return (
    <p
      className={both ? 'form__note form__note--stable' : 'form__note'}
      data-testid="pair.already"
      data-same-host={sameHost ? 'true' : 'false'}
    >
      <span>{text(sameHost)}</span>
      {both ? <span aria-hidden="true">{text(!sameHost)}</span> : null}
    </p>
  );
}

/**
 * PairedNote as the prerendered HTML has it (R9.14): for a link (one wording) and for a typed code (both, one
 * hidden), each wording chosen by whether the link's host is the paired one; first-paint.css picks.
 */
export function BootPairedNotes() {
  const { t } = useI18n();
  const same = bootTemplate(t, 'pair.alreadyPaired', 'host', <BootText slot="paired-host" />);
  const other = bootTemplate(t, 'pair.pairedElsewhere', 'host', <BootText slot="paired-host" />);
  return (
    <>
      <p className="form__note boot-paired boot-pair-link">
        <span className="boot-same-host">{same}</span>
        <span className="boot-other-host">{other}</span>
      </p>
      <p className="form__note form__note--stable boot-paired boot-pair-manual">
        <span className="boot-shown-if-same">{same}</span>
        <span className="boot-shown-if-other">{other}</span>
      </p>
    </>
  );
}
