'use client';
import { Link } from '../link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { DEVICE_NAME_MAX, PAIRING_CODE_MAX } from '@/lib/contracts/limits';
import { parsePairingHash } from '@/lib/contracts/pairing-link';
import { preloadPairRequest, redeemPairingCode } from '@/lib/client/pair-request-loader';
import { clampDeviceName, defaultDeviceName, platformDescription } from '@/lib/client/device-names';
import { getPairing, normalizeHostUrl, savePairing } from '@/lib/client/pairing';
import { ScreenHeader } from '../shell/screen-header';
import '@/lib/client/i18n-en-screens';
import '@/app/styles/screens.css';

/** What the page shows: the form (with a code from a link, or typed), or the plain "no longer works" page. */
type Phase = { kind: 'reading' } | { kind: 'form'; code: string | null; hostUrl: string } | { kind: 'invalid' };

/**
 * `/pair#code=…` (R16.2): the code leaves the address bar at once and stays in memory; the
 * person names the device and taps Pair, which exchanges the code for this device's own
 * credential. A used, expired or old-style link gets a plain page (R16.3); nothing else changes.
 */
export function PairView() {
  const { t } = useI18n();
  const router = useRouter();
  const pairing = usePairing();
  const [phase, setPhase] = useState<Phase>({ kind: 'reading' });
  const [host, setHost] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  // The name the form offered: left as it is, a device pairing again keeps the name its host knows (R16.9).
  const [offeredName, setOfferedName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const read = () => {
      const parsed = parsePairingHash(window.location.hash);
      // Strip the code from the address bar and history before anything else happens.
      if (window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search);
      if (parsed) setError(null);
      if (parsed?.kind === 'legacy-token') setPhase({ kind: 'invalid' });
      else if (parsed) setPhase({ kind: 'form', code: parsed.code, hostUrl: parsed.hostUrl });
      else setPhase((current) => (current.kind === 'reading' ? { kind: 'form', code: null, hostUrl: '' } : current));
    };
    const offered = getPairing()?.deviceName || defaultDeviceName();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- one-time read of the device and the URL fragment
    setName(offered);
    setOfferedName(offered);
    read();
    preloadPairRequest();
    // A link opened while this page is already showing changes only the fragment.
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  const pairedHost = pairing ? pairing.hostName || pairing.hostUrl || window.location.host : '';
  const targetHost = phase.kind === 'form' && phase.code !== null ? phase.hostUrl : host;
  // Pairing again with the host this device is paired with replaces its entry there (R16.9).
  const sameHost = pairing !== null && normalizeHostUrl(targetHost) === pairing.hostUrl;

  async function submit(): Promise<void> {
    if (phase.kind !== 'form' || busy) return;
    const hostUrl = phase.code === null ? host : phase.hostUrl;
    const pairingCode = (phase.code ?? code).trim();
    const deviceName = clampDeviceName(name) || defaultDeviceName();
    if (!pairingCode) return;
    setBusy(true);
    setError(null);
    // The credential goes only to the host that issued it, in the body (R16.6), never to another host.
    const held = getPairing();
    const replaces =
      held && normalizeHostUrl(hostUrl) === held.hostUrl
        ? { replaces: { credential: held.credential, keepName: deviceName === clampDeviceName(offeredName) } }
        : {};
    const outcome = await redeemPairingCode(hostUrl, {
      code: pairingCode,
      name: deviceName,
      platform: platformDescription(),
      ...replaces,
    });
    setBusy(false);
    if (outcome.ok) {
      savePairing(outcome.pairing);
      router.replace('/');
      return;
    }
    if (outcome.kind === 'code-invalid') setPhase({ kind: 'invalid' });
    else if (outcome.kind === 'rate-limited') setError(t('pair.rateLimited'));
    else if (outcome.kind === 'unreachable')
      setError(t('error.unreachable', { url: hostUrl || window.location.origin }));
    else setError(t('pair.refused', { message: outcome.message }));
  }

  return (
    <>
      <ScreenHeader title={t('pair.title')} />
      {phase.kind === 'invalid' ? (
        <section className="notice" data-testid="pair.invalid" aria-labelledby="pair-invalid-title">
          <h2 id="pair-invalid-title" className="notice__title">
            {t('pair.invalidTitle')}
          </h2>
          <p>{t('pair.invalidBody')}</p>
          <p>{t('pair.invalidHow')}</p>
          {pairing ? (
            <p className="notice__quiet" data-testid="pair.unchanged">
              {t('pair.invalidUnchanged', { host: pairedHost })}
            </p>
          ) : null}
          <div className="notice__actions">
            {pairing ? (
              <Link href="/" className="button button--primary" data-testid="pair.back">
                {t('pair.backToApp')}
              </Link>
            ) : null}
            <button
              type="button"
              className="button"
              onClick={() => setPhase({ kind: 'form', code: null, hostUrl: '' })}
              data-testid="pair.enter-code"
            >
              {t('pair.enterCode')}
            </button>
          </div>
        </section>
      ) : phase.kind === 'form' ? (
        <form
          className="form"
          data-testid="pair.form"
          data-mode={phase.code === null ? 'manual' : 'link'}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <p className="form__intro">
            {phase.code === null
              ? t('pair.manualIntro')
              : t('pair.linkIntro', { host: phase.hostUrl || window.location.host })}
          </p>
          {pairing ? (
            <PairedNote
              sameHost={sameHost}
              // Typing a host can switch the note; with both texts laid out, the fields below stay put.
              both={phase.code === null}
              text={(same) => t(same ? 'pair.alreadyPaired' : 'pair.pairedElsewhere', { host: pairedHost })}
            />
          ) : null}
          {error ? (
            <p className="form__error" role="alert" data-testid="pair.error">
              {error}
            </p>
          ) : null}
          {phase.code === null ? (
            <>
              <label className="form__field">
                <span className="form__label">{t('pair.host')}</span>
                <input
                  className="field"
                  type="url"
                  inputMode="url"
                  autoComplete="url"
                  placeholder="http://192.168.1.20:4417"
                  value={host}
                  onChange={(event) => setHost(event.target.value)}
                  data-testid="pair.host"
                />
                <span className="form__hint">{t('pair.hostHint')}</span>
              </label>
              <label className="form__field">
                <span className="form__label">{t('pair.code')}</span>
                <input
                  className="field mono"
                  type="text"
                  autoComplete="one-time-code"
                  autoCapitalize="characters"
                  spellCheck={false}
                  required
                  maxLength={PAIRING_CODE_MAX}
                  value={code}
                  onChange={(event) => setCode(event.target.value)}
                  data-testid="pair.code"
                />
                <span className="form__hint">{t('pair.codeHint')}</span>
              </label>
            </>
          ) : null}
          <label className="form__field">
            <span className="form__label">{t('pair.device')}</span>
            <input
              className="field"
              type="text"
              required
              maxLength={DEVICE_NAME_MAX}
              autoComplete="off"
              value={name}
              onChange={(event) => setName(event.target.value)}
              data-testid="pair.device"
            />
            <span className="form__hint">{t('pair.deviceHint')}</span>
          </label>
          <div className="form__actions">
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={busy}
              aria-busy={busy}
              data-testid="pair.submit"
            >
              {busy ? t('pair.pairing') : t('pair.submit')}
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}

/**
 * Which host this device is paired with, and what pairing here does to that. With `both`, the
 * other wording is laid out too, hidden, in the same grid cell: the note is as tall as the longer
 * one whichever shows.
 */
function PairedNote({ sameHost, both, text }: { sameHost: boolean; both: boolean; text: (same: boolean) => string }) {
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
