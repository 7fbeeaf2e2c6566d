'use client';
import { Link } from '../link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useI18n, useLocalSettings } from '@/hooks/use-i18n';
import { usePairing } from '@/hooks/use-pairing';
import { useRemote } from '@/hooks/use-remote';
import { DEVICE_NAME_MAX, REMOTE_PROTOCOL_VERSION } from '@/lib/contracts/limits';
import { forgetHost } from '@/lib/client/connection-loader';
import { renameThisDevice, revokeThisDevice } from '@/lib/client/device-requests-loader';
import { updateLocalSettings, type LangChoice, type ThemeChoice } from '@/lib/client/local-settings';
import { clampDeviceName } from '@/lib/client/device-names';
import { machinesLive } from '@/lib/client/machine-selectors';
import { forgetPairing } from '@/lib/client/pairing';
import { ConfirmDialog } from '../card/confirm-dialog';
import { ScreenHeader } from '../shell/screen-header';
import { AutoResolutionSettings } from './auto-resolution-settings';
import { Choice } from './choice';
import { DevicesSettings } from './devices-settings';
import { MachinesSettings } from './machines-settings';
import { NotificationSettings } from '../notification-settings';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/screens.css';

declare const __APP_VERSION__: string | undefined;
const APP_VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.1.0';

export function SettingsView() {
  const { t } = useI18n();
  const settings = useLocalSettings();
  const pairing = usePairing();
  const state = useRemote();
  const router = useRouter();
  const [forgetting, setForgetting] = useState(false);
  const [device, setDevice] = useState<string | null>(null);
  const hostUrl = pairing?.hostUrl || (typeof window === 'undefined' ? '' : window.location.origin);
  const connected = state.status === 'connected';
  // The host's list is the truth: a rename from another session shows here too.
  const deviceName = (pairing && state.host.devices.get(pairing.deviceId)?.name) ?? pairing?.deviceName ?? '';

  return (
    <>
      <ScreenHeader title={t('settings.title')} />
      <div className="settings">
        <section className="settings__section" aria-labelledby="s-connection" data-testid="settings.connection">
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

        {pairing ? (
          <MachinesSettings
            machines={state.host.machines}
            live={machinesLive(state)}
            clockOffsetMs={state.host.clockOffsetMs}
          />
        ) : null}

        <AutoResolutionSettings preferences={state.host.preferences} connected={connected} />

        <NotificationSettings connected={connected} />

        <Choice<LangChoice>
          id="language"
          title={t('settings.language')}
          value={settings.lang}
          onChange={(lang) => updateLocalSettings({ lang })}
          options={[
            { value: 'system', label: t('settings.languageSystem') },
            { value: 'en', label: 'English', lang: 'en' },
            { value: 'zh', label: '中文', lang: 'zh-CN' },
          ]}
        />
        <Choice<ThemeChoice>
          id="theme"
          title={t('settings.theme')}
          value={settings.theme}
          onChange={(theme) => updateLocalSettings({ theme })}
          options={[
            { value: 'system', label: t('settings.themeSystem') },
            { value: 'light', label: t('settings.themeLight') },
            { value: 'dark', label: t('settings.themeDark') },
          ]}
        />

        <section className="settings__section" aria-labelledby="s-about" data-testid="settings.about">
          <h2 id="s-about" className="settings__title">
            {t('settings.about')}
          </h2>
          <dl className="settings__group settings__about">
            <div className="settings__row">
              <dt className="settings__label">{t('settings.appVersion')}</dt>
              <dd className="settings__value">{APP_VERSION}</dd>
            </div>
            <div className="settings__row">
              <dt className="settings__label">{t('settings.hostVersion')}</dt>
              <dd className="settings__value">{state.host.hostVersion ?? '—'}</dd>
            </div>
            <div className="settings__row">
              <dt className="settings__label">{t('settings.protocolVersion')}</dt>
              <dd className="settings__value">{REMOTE_PROTOCOL_VERSION}</dd>
            </div>
          </dl>
        </section>
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
