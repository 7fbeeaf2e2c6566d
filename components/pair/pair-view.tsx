'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useEffectEvent, useState } from 'react';
import { useHydrated } from '@/hooks/use-hydrated';
import { useHubSignIn } from '@/hooks/use-hub-sign-in';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { DEVICE_NAME_MAX, PAIRING_CODE_MAX } from '@/lib/contracts/limits';
import { parsePairingHash } from '@/lib/contracts/pairing-link';
import { EARLY_SUBMIT } from '@/lib/client/first-paint';
import { preloadPairRequestOnIntent, redeemPairingCode } from '@/lib/client/pair-request-loader';
import { clampDeviceName, defaultDeviceName, platformDescription } from '@/lib/client/device-names';
import { getPairing, normalizeHostUrl, savePairing } from '@/lib/client/pairing';
import { BootText, bootTemplate } from '../shell/boot-text';
import { ScreenHeader } from '../shell/screen-header';
import { BootPairedNotes, InvalidLinkNotice, PairedNote } from './pair-notices';
import { SignInOffer } from './sign-in-offer';
import '@/lib/client/i18n-en-pair';
import '@/app/styles/forms.css';

/** What the page shows: the form (with a code from a link, or typed), or the plain "no longer works" page. */
type Phase = { kind: 'form'; code: string | null; hostUrl: string } | { kind: 'invalid' };

const TYPED: Phase = { kind: 'form', code: null, hostUrl: '' };

/** What a fragment asks for; no code keeps what the page shows (`current`). */
function phaseFor(hash: string, current: Phase): Phase {
  const parsed = parsePairingHash(hash);
  if (parsed?.kind === 'legacy-token') return { kind: 'invalid' };
  if (parsed) return { kind: 'form', code: parsed.code, hostUrl: parsed.hostUrl };
  return current;
}

/** Read once, in the first render on the client: hydration shows every variant anyway (R9.14). */
function initialPhase(): Phase {
  return typeof window === 'undefined' ? TYPED : phaseFor(window.location.hash, TYPED);
}

function offeredName(): string {
  return typeof window === 'undefined' ? '' : getPairing()?.deviceName || defaultDeviceName();
}

/**
 * `/pair#code=…` (R16.2): the code leaves the address bar at once and stays in memory; the
 * person names the device and taps Pair, which exchanges the code for this device's own
 * credential. A used, expired or old-style link gets a plain page (R16.3); nothing else changes.
 */
export function PairView() {
  const { t } = useI18n();
  const router = useRouter();
  const pairing = usePairing();
  const hydrated = useHydrated();
  const [phase, setPhase] = useState<Phase>(initialPhase);
  const [host, setHost] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState(offeredName);
  // The name the form offered: left as it is, a device pairing again keeps the name its host knows (R16.9).
  const [offered] = useState(offeredName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submitEarly = useEffectEvent(() => void submit());
  useEffect(() => {
    const strip = () => {
      // The code stays in memory only: off the address bar and history before anything else happens.
      if (window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search);
    };
    // A link opened while this page is already showing changes only the fragment.
    const read = () => {
      if (parsePairingHash(window.location.hash)) setError(null);
      setPhase((current) => phaseFor(window.location.hash, current));
      strip();
    };
    strip();
    const stopPreload = preloadPairRequestOnIntent();
    // Pair was tapped before this code ran (the form is in the HTML, R9.14): do it now.
    if (window.__askawayEarlySubmit?.()) submitEarly();
    window.addEventListener('hashchange', read);
    return () => {
      stopPreload();
      window.removeEventListener('hashchange', read);
    };
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
        ? { replaces: { credential: held.credential, keepName: deviceName === clampDeviceName(offered) } }
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

  // While hydrating, every variant the HTML carries: first-paint.css shows the one this page was opened for (R9.14).
  const boot = !hydrated;
  const link = phase.kind === 'form' && phase.code !== null;
  const typed = boot || (phase.kind === 'form' && phase.code === null);
  // Without a code, a team hub's people sign in instead (R21.32); the pairing form stays below for links.
  const signIn = useHubSignIn(hydrated && typed);
  return (
    <>
      <ScreenHeader title={t('pair.title')} />
      {signIn ? (
        <>
          <SignInOffer signIn={signIn} />
          <p className="sign-in-or">{t('pair.signInOr')}</p>
        </>
      ) : null}
      {boot || phase.kind === 'invalid' ? (
        <InvalidLinkNotice boot={boot} pairedHost={pairing ? pairedHost : null} onEnterCode={() => setPhase(TYPED)} />
      ) : null}
      {boot || phase.kind === 'form' ? (
        <form
          className={boot ? 'form boot-pair-form' : 'form'}
          data-testid="pair.form"
          data-mode={boot ? undefined : link ? 'link' : 'manual'}
          data-sign-in={signIn === undefined ? undefined : signIn ? 'offered' : 'none'}
          // Before hydration the device name is empty (it is offered once the code runs): no validation then,
          // and a submit is kept for later (lib/client/first-paint.ts).
          noValidate={boot}
          {...{ [EARLY_SUBMIT]: boot ? '' : undefined }}
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <p className="form__intro">
            {boot ? (
              <>
                <span className="boot-pair-link">
                  {bootTemplate(t, 'pair.linkIntro', 'host', <BootText slot="link-host" />)}
                </span>
                <span className="boot-pair-manual">{t('pair.manualIntro')}</span>
              </>
            ) : link ? (
              t('pair.linkIntro', { host: (phase.kind === 'form' && phase.hostUrl) || window.location.host })
            ) : (
              t('pair.manualIntro')
            )}
          </p>
          {boot ? (
            <BootPairedNotes />
          ) : pairing ? (
            <PairedNote
              sameHost={sameHost}
              // Typing a host can switch the note; with both texts laid out, the fields below stay put.
              both={!link}
              text={(same) => t(same ? 'pair.alreadyPaired' : 'pair.pairedElsewhere', { host: pairedHost })}
            />
          ) : null}
          {error ? (
            <p className="form__error" role="alert" data-testid="pair.error">
              {error}
            </p>
          ) : null}
          {typed ? (
            <>
              <label className={boot ? 'form__field boot-pair-manual' : 'form__field'}>
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
              <label className={boot ? 'form__field boot-pair-manual' : 'form__field'}>
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
              // The prerendered HTML has no name to offer; the field's box is the same with one.
              value={boot ? '' : name}
              onChange={(event) => setName(event.target.value)}
              data-testid="pair.device"
            />
            <span className="form__hint">{t('pair.deviceHint')}</span>
          </label>
          <div className="form__actions">
            <button
              type="submit"
              // One primary per screen: with a sign-in offered, that is the sign-in.
              className={signIn ? 'button button--block' : 'button button--primary button--block'}
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
