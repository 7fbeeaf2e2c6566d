'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { deviceIdentity, savePairing, setDeviceLabel } from '@/lib/client/pairing';
import { parsePairingHash } from '@/lib/contracts/pairing-link';
import { ScreenHeader } from '../shell/screen-header';

/** `/pair#token=…` stores the token and strips it from the address bar; or a form (R12.1). */
export function PairView() {
  const { t } = useI18n();
  const router = useRouter();
  const pairing = usePairing();
  const state = useRemote();
  const [fromLink, setFromLink] = useState(false);
  const [host, setHost] = useState('');
  const [token, setToken] = useState('');
  const [device, setDevice] = useState('');

  useEffect(() => {
    const parsed = parsePairingHash(window.location.hash);
    // Strip the secret from the address bar and history before anything else happens.
    if (window.location.hash) history.replaceState(null, '', window.location.pathname + window.location.search);
    if (parsed) {
      savePairing(parsed.hostUrl, parsed.token);
      // eslint-disable-next-line react-hooks/set-state-in-effect -- one-time read of the URL fragment
      setFromLink(true);
      router.replace('/');
      return;
    }
    const current = deviceIdentity();
    setDevice(current.deviceLabel);
  }, [router]);

  const refused = state.status === 'refused' && state.error;
  return (
    <>
      <ScreenHeader title={t('pair.title')} subtitle={t('pair.needed')} />
      {fromLink ? (
        <p className="state state--ok" role="status" data-testid="pair.saved">
          {t('pair.saved')}
        </p>
      ) : (
        <form
          className="form"
          data-testid="pair.form"
          onSubmit={(event) => {
            event.preventDefault();
            if (!token.trim()) return;
            setDeviceLabel(device);
            savePairing(host, token.trim());
            router.push('/');
          }}
        >
          {refused ? (
            <p className="form__error" role="alert" data-testid="pair.error">
              {state.error?.kind === 'protocol-mismatch' ? t('error.protocol') : t('error.unauthorized')}
            </p>
          ) : null}
          <label className="form__field">
            <span className="form__label">{t('pair.host')}</span>
            <input
              className="field"
              type="url"
              inputMode="url"
              autoComplete="url"
              placeholder={pairing?.hostUrl || 'http://192.168.1.20:4417'}
              value={host}
              onChange={(event) => setHost(event.target.value)}
              data-testid="pair.host"
            />
            <span className="form__hint">{t('pair.hostHint')}</span>
          </label>
          <label className="form__field">
            <span className="form__label">{t('pair.token')}</span>
            <input
              className="field"
              type="password"
              autoComplete="off"
              required
              value={token}
              onChange={(event) => setToken(event.target.value)}
              data-testid="pair.token"
            />
          </label>
          <label className="form__field">
            <span className="form__label">{t('pair.device')}</span>
            <input
              className="field"
              type="text"
              value={device}
              onChange={(event) => setDevice(event.target.value)}
              data-testid="pair.device"
            />
          </label>
          <div className="form__actions">
            <button type="submit" className="button button--primary button--block" data-testid="pair.submit">
              {t('pair.submit')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}
