import { type Lang } from '../i18n';
import { type PushUnsupportedReason } from './support';

/** The Notifications section's words (kept beside push so the shared table stays small). */
const en = {
  enable: 'Notify this device',
  enabled_explain:
    'This device gets a notification when a question waits and the app is not open. Tapping it opens the question.',
  disabled_explain:
    'Turn on to hear about waiting questions while the app is closed. Your browser will ask for permission.',
  burst_explain:
    'Many questions at once arrive as one notification; a notification disappears once the question is answered anywhere.',
  test: 'Send test notification',
  test_sent: 'Test sent. It should appear within a few seconds.',
  test_ntfy_sent: 'Test sent to ntfy.',
  test_failed: 'The test did not arrive: {detail}',
  test_expired:
    'The browser no longer accepts notifications for this subscription. Turn notifications off and on again.',
  working: 'Working…',
  offline: 'Connect to the host to change notifications.',
  denied: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then come back.',
  dismissed: 'No permission given. Tap again when you are ready.',
  failed: 'Could not turn on notifications: {detail}',
  turns_label: 'Finished turns',
  turns_on:
    'A notification when an agent finishes its turn, with the first line of what it said. Tap it to reply. Shared by every device.',
  turns_off: 'Finished turns still show in the inbox, without a notification. Shared by every device.',
  delay_label: 'Notify my phone',
  delay_now: 'At once',
  delay_after: 'If still waiting after {t}',
  delay_explain_now: 'Every new question buzzes as it arrives.',
  delay_explain_after:
    'Answer at the desk within {t} and no phone buzzes: only questions still waiting then are sent. Shared by every device.',
  buttons_label: 'Answer buttons on notifications',
  buttons_explain: 'Allow, Deny and one-tap answers right on the notification, without opening the app.',
  buttons_unavailable:
    'Answer buttons are not available in this browser (iPhone and iPad, Safari on a Mac): tapping a notification opens its card.',
  ntfy_label: 'ntfy topic of this device (optional)',
  ntfy_hint:
    'Also publish waiting questions to an ntfy topic, e.g. https://ntfy.sh/your-secret-topic: https, on a public server. It goes when this device is removed. Anyone who knows the topic can read the questions: pick a long, random name. A self-hosted ntfy on your network is set on the computer: askaway ntfy set <url>.',
  ntfy_host: 'The host also publishes to {url}, set on the computer (askaway ntfy).',
  ntfy_save: 'Save',
  ntfy_clear: 'Remove',
  ntfy_saved: 'Saved.',
  ntfy_invalid: 'Enter an https:// URL.',
  unsupported: {
    'ios-not-installed':
      'On iPhone and iPad, notifications only work in the installed app: tap Share, then “Add to Home Screen”, and open Askaway from there (iOS 16.4 or later).',
    'ios-too-old': 'This iOS version cannot show web notifications. iOS 16.4 or later is needed.',
    'insecure-context':
      'Notifications need a secure connection (https, or localhost). Open Askaway through https, e.g. with --tls-cert or a tunnel.',
    'no-service-worker': 'This browser cannot run the app’s background worker, so it cannot receive notifications.',
    'no-push': 'This browser does not support web push notifications. ntfy (below) still works.',
  } satisfies Record<PushUnsupportedReason, string>,
};

type Messages = typeof en;

const zh: Messages = {
  enable: '通知本设备',
  enabled_explain: '应用未打开时，有问题等待就会通知本设备。点按通知即可打开该问题。',
  disabled_explain: '开启后，即使应用关闭也能知道有问题在等待。浏览器会请求通知权限。',
  burst_explain: '同时到来的多个问题会合并成一条通知；问题在任何地方被回答后，通知会自动消失。',
  test: '发送测试通知',
  test_sent: '测试已发送，几秒内应会出现。',
  test_ntfy_sent: '测试已发送到 ntfy。',
  test_failed: '测试未送达：{detail}',
  test_expired: '浏览器已不再接受此订阅的通知。请关闭后重新开启通知。',
  working: '处理中…',
  offline: '连接到主机后才能修改通知设置。',
  denied: '此站点的通知已被阻止。请在浏览器的网站设置中允许通知，然后返回。',
  dismissed: '未授予权限。准备好后请再点一次。',
  failed: '无法开启通知：{detail}',
  turns_label: '已完成的回合',
  turns_on: '代理完成一个回合时发通知，附上它说的第一行。点开即可回复。所有设备共用此设置。',
  turns_off: '已完成的回合仍会显示在收件箱中，但不发通知。所有设备共用此设置。',
  delay_label: '通知我的手机',
  delay_now: '立即',
  delay_after: '等待超过 {t} 仍未回答时',
  delay_explain_now: '每个新问题一到就发通知。',
  delay_explain_after: '在电脑前 {t} 内回答了，手机就不会响：只发送那时仍在等待的问题。所有设备共用此设置。',
  buttons_label: '通知上的回答按钮',
  buttons_explain: '直接在通知上点“允许”“拒绝”或一键回答，无需打开应用。',
  buttons_unavailable: '此浏览器（iPhone、iPad 以及 Mac 上的 Safari）不支持通知上的回答按钮：点按通知会打开对应卡片。',
  ntfy_label: '本设备的 ntfy 主题（可选）',
  ntfy_hint:
    '同时把等待中的问题发布到 ntfy 主题，例如 https://ntfy.sh/你的私密主题：须为 https，位于公网服务器。移除本设备时它也会一并移除。知道主题名的人都能读到问题：请用足够长的随机名称。局域网内自建的 ntfy 请在电脑上设置：askaway ntfy set <地址>。',
  ntfy_host: '主机还会发布到 {url}，这是在电脑上设置的（askaway ntfy）。',
  ntfy_save: '保存',
  ntfy_clear: '移除',
  ntfy_saved: '已保存。',
  ntfy_invalid: '请输入 https:// 地址。',
  unsupported: {
    'ios-not-installed':
      '在 iPhone 和 iPad 上，只有安装后的应用才能接收通知：点按“分享”，选择“添加到主屏幕”，再从主屏幕打开 Askaway（需 iOS 16.4 或更高版本）。',
    'ios-too-old': '此 iOS 版本无法显示网页通知，需要 iOS 16.4 或更高版本。',
    'insecure-context':
      '通知需要安全连接（https 或 localhost）。请通过 https 打开 Askaway，例如使用 --tls-cert 或隧道。',
    'no-service-worker': '此浏览器无法运行应用的后台服务，因此收不到通知。',
    'no-push': '此浏览器不支持网页推送通知。下面的 ntfy 仍然可用。',
  },
};

export const PUSH_MESSAGES: Record<Lang, Messages> = { en, zh };
export type PushMessages = Messages;

export function fill(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match);
}
