'use client';
import { Link } from '../link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useMyPerson } from '@/hooks/use-my-person';
import { useHubSignIn } from '@/hooks/use-hub-sign-in';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { DEVICE_NAME_MAX } from '@/lib/contracts/limits';
import { forgetHost } from '@/lib/client/connection-loader';
import { renameThisDevice, revokeThisDevice } from '@/lib/client/device-requests-loader';
import { clampDeviceName } from '@/lib/client/device-names';
import { forgetPairing } from '@/lib/client/pairing';
import { ConfirmDialog } from '../card/confirm-dialog';
import { ScreenHeader } from '../shell/screen-header';
import { lazyPart } from '@/hooks/use-lazy-part';
import { DevicesSettings } from './devices-settings';
import { SignedInRow } from './signed-in-row';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/forms.css';
import '@/app/styles/settings.css';

const settingsBelow = lazyPart(() => import('./settings-below').then((module) => module.SettingsBelow));
// People and Groups are a team hub's only (R21.78–R21.82): their code loads once the hub says it signs people in.
const teamSettings = lazyPart(() => import('../team/team-settings').then((module) => module.TeamSettings));

export function SettingsView() {
  const { t } = useI18n();
  const pairing = usePairing();
  const state = useRemote();
  const router = useRouter();
  const [forgetting, setForgetting] = useState(false);
  const [device, setDevice] = useState<string | null>(null);
  const hostUrl = pairing?.hostUrl || (typeof window === 'undefined' ? '' : window.location.origin);
  const connected = state.status === 'connected';
  const person = useMyPerson(pairing, connected);
  const signIn = useHubSignIn(pairing !== null);
  // The host's list is the truth: a rename from another session shows here too.
  const deviceName = (pairing && state.host.devices.get(pairing.deviceId)?.name) ?? pairing?.deviceName ?? '';

  return (
    <>
      <ScreenHeader title={t('settings.title')} />
      <div className="settings">
        <section
          className="settings__section"
          aria-labelledby="s-connection"
          data-testid="settings.connection"
          data-person={person === undefined ? undefined : person ? 'someone' : 'none'}
        >
          <h2 id="s-connection" className="settings__title">
            {t('settings.connection')}
          </h2>
          <div className="settings__group">
            <div className="settings__row">
              <span className="settings__label">{t('settings.host')}</span>
              <span className="settings__value mono" data-testid="settings.host" suppressHydrationWarning>
                {pairing ? hostUrl : t('status.notPaired')}
              </span>
            </div>
            {person ? <SignedInRow person={person} /> : null}
            <label className="settings__row settings__row--stack">
              <span className="settings__label">{t('settings.device')}</span>
              <input
                className="field"
                type="text"
                maxLength={DEVICE_NAME_MAX}
                value={device ?? deviceName}
                onChange={(event) => setDevice(event.target.value)}
                onBlur={() => {
                  const name = clampDeviceName(device ?? '');
                  if (device !== null && name !== '' && name !== deviceName)
                    void renameThisDevice(name).catch(() => undefined);
                  setDevice(null);
                }}
                disabled={!pairing || !connected}
                data-testid="settings.device"
              />
              <span className="form__hint">{t('settings.deviceHint')}</span>
            </label>
            <div className="settings__row settings__row--buttons">
              <Link href="/pair" className="button">
                {t('settings.pairAgain')}
              </Link>
              {pairing ? (
                <button
                  type="button"
                  className="button button--danger"
                  onClick={() => setForgetting(true)}
                  data-testid="settings.forget"
                >
                  {t('settings.forget')}
                </button>
              ) : null}
            </div>
          </div>
        </section>

        {pairing ? (
          <DevicesSettings devices={state.host.devices} myDeviceId={pairing.deviceId} connected={connected} />
        ) : null}

        {pairing && signIn ? <teamSettings.Slot /> : null}

        {/* Below the first screen, in a chunk of its own (R13.4): it follows within a frame or two. */}
        <settingsBelow.Slot />
      </div>
      <ConfirmDialog
        open={forgetting}
        title={t('settings.forget')}
        hint={t('settings.forgetConfirm')}
        confirmLabel={t('settings.forget')}
        cancelLabel={t('common.cancel')}
        danger
        testId="settings.forget-dialog"
        onClose={() => setForgetting(false)}
        onConfirm={() => {
          setForgetting(false);
          // Take the credential back on the host too, so nothing left on this device still works (R16.5).
          const revoked =
            pairing && connected ? revokeThisDevice(pairing.deviceId).catch(() => undefined) : Promise.resolve();
          void revoked.then(() => {
            void forgetHost();
            forgetPairing();
            router.push('/pair');
          });
        }}
      />
    </>
  );
}
