'use client';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useNow } from '@/hooks/use-now';
import { type DeviceInfo, type DeviceRecord } from '@/lib/contracts/devices';
import { type NtfyTopicView } from '@/lib/contracts/push';
import { listDevices, revokeDevice } from '@/lib/client/device-requests-loader';
import { formatAge, formatStamp } from '@/lib/client/format';
import { ntfyTopicsSnapshot, subscribeNtfyTopics } from '@/lib/client/push/ntfy-topics';
import { personName } from '@/lib/client/person-name';
import { IconPerson } from '../icons/people';
import { ROLE_KEYS } from '../team/role-name';
import { RevokeButton, RevokeConfirmation, useRevocation } from './revocation';
import '@/lib/client/i18n-en-settings';
import '@/app/styles/settings.css';

const NO_TOPICS: readonly NtfyTopicView[] = [];
const noTopics = () => NO_TOPICS;

/**
 * Settings → Devices (R16.4, R16.5, R12.15): every paired device from the host's log, this one marked,
 * with when the host last heard from each and the ntfy topic it set; any other one can be revoked here. The list follows
 * the log live, so a device paired or revoked anywhere appears or goes at once.
 */
export function DevicesSettings({
  devices,
  myDeviceId,
  connected,
}: {
  devices: ReadonlyMap<string, DeviceRecord>;
  myDeviceId: string | null;
  connected: boolean;
}) {
  const { t, lang } = useI18n();
  const now = useNow('minute');
  const [seen, setSeen] = useState<ReadonlyMap<string, DeviceInfo>>(new Map());
  const revocation = useRevocation((device: DeviceRecord) => revokeDevice(device.id));
  const topics = useSyncExternalStore(subscribeNtfyTopics, ntfyTopicsSnapshot, noTopics);

  useEffect(() => {
    if (!connected) return;
    let current = true;
    listDevices().then(
      (list) => {
        if (current) setSeen(new Map(list.map((device) => [device.id, device])));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [connected, devices]);

  const active = [...devices.values()]
    .filter((device) => device.revokedAt === undefined)
    .sort((a, b) => Number(b.id === myDeviceId) - Number(a.id === myDeviceId) || a.pairedAt.localeCompare(b.pairedAt));

  const lastSeen = (device: DeviceRecord): string => {
    const info = seen.get(device.id);
    if (info?.online) return t('settings.deviceOnline');
    if (!info?.lastSeenAt) return info ? t('settings.deviceNeverSeen') : '—';
    return t('settings.deviceLastSeen', { time: formatAge(now - Date.parse(info.lastSeenAt), t) });
  };

  return (
    <section className="settings__section" aria-labelledby="s-devices" data-testid="settings.devices">
      <h2 id="s-devices" className="settings__title">
        {t('settings.devices')}
      </h2>
      <div className="settings__group">
        <ul className="devices" aria-labelledby="s-devices">
          {active.map((device) => {
            const mine = device.id === myDeviceId;
            return (
              <li
                key={device.id}
                className="devices__item"
                data-testid="settings.device-row"
                data-device-id={device.id}
                data-current={mine ? 'true' : undefined}
              >
                <div className="devices__main">
                  <span className="devices__name">
                    <span className="devices__label">{device.name}</span>
                    {mine ? <span className="badge">{t('settings.thisDevice')}</span> : null}
                  </span>
                  <span className="devices__meta">
                    {[device.platform, t('settings.devicePaired', { date: formatStamp(device.pairedAt, lang, now) })]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                  <DevicePerson info={seen.get(device.id)} />
                  <span className="devices__meta" data-testid="settings.device-seen">
                    {mine && connected ? t('settings.deviceOnline') : lastSeen(device)}
                  </span>
                  <DeviceTopic url={topics.find((topic) => topic.deviceId === device.id)?.url} />
                </div>
                {mine ? null : (
                  <RevokeButton item={device} revocation={revocation} disabled={!connected} testId="settings.revoke" />
                )}
              </li>
            );
          })}
        </ul>
        <p className="settings__explain form__hint">
          {connected ? t('settings.devicesHint') : t('settings.devicesOffline')}
        </p>
        <RevokeConfirmation
          revocation={revocation}
          hint={t('settings.revokeHint')}
          failedText={t('settings.revokeFailed')}
          testId="settings.revoke-dialog"
          errorTestId="settings.revoke-error"
        />
      </div>
    </section>
  );
}

/** "Ana Lima · Owner": whose the device is, on a team hub (R21.12, R21.83); nothing for nobody's. */
function DevicePerson({ info }: { info: DeviceInfo | undefined }) {
  const { t } = useI18n();
  const person = info?.person;
  if (!person) return null;
  return (
    <span className="devices__meta devices__person" data-testid="settings.device-person" data-person-id={person.id}>
      <IconPerson size={14} />
      <bdi>{personName(person)}</bdi> · {t(ROLE_KEYS[person.role])}
    </span>
  );
}

/** "ntfy: https://ntfy.sh/…": where this device's topic goes (in full only on the device that set it). */
function DeviceTopic({ url }: { url: string | undefined }) {
  const { t } = useI18n();
  if (url === undefined) return null;
  const [before = '', after = ''] = t('settings.deviceNtfy', { url: '\u0000' }).split('\u0000');
  return (
    <span className="devices__meta devices__topic" data-testid="settings.device-ntfy">
      {before}
      <bdi className="mono">{url}</bdi>
      {after}
    </span>
  );
}
