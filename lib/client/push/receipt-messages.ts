/**
 * What a notification says after one of its buttons was pressed (R14.11), and the app's own button words
 * (R14.8), in the phone's language: the service worker's own small table, so it carries no screen's words.
 */
const en = {
  /** A tool permission's buttons, as its card says them (permission.allow, permission.deny). */
  allow: 'Allow',
  deny: 'Deny',
  allowed: 'Allowed',
  denied: 'Denied',
  answered: 'Answered “{label}”',
  received: '{outcome} · received by {agent}',
  agent: 'the agent',
  queued: 'Will be sent when you’re online',
  terminal: 'Already answered in the terminal',
  lost: 'Already answered {by}',
  byDevice: 'by another device ({name})',
  byAnotherDevice: 'by another device',
  byAuto: 'by auto-resolution',
  byAgent: 'by the agent',
  withdrawn: 'The agent stopped waiting for this',
  removed: 'This device was removed from the host: pair it again to answer',
  refused: 'Not sent: {message}. Tap to open the card.',
};

export type ReceiptMessages = typeof en;

const zh: ReceiptMessages = {
  allow: '允许',
  deny: '拒绝',
  allowed: '已允许',
  denied: '已拒绝',
  answered: '已回答“{label}”',
  received: '{outcome} · {agent} 已收到',
  agent: '代理',
  queued: '联网后会发送',
  terminal: '已在终端中回答',
  lost: '已{by}回答',
  byDevice: '由另一台设备（{name}）',
  byAnotherDevice: '由另一台设备',
  byAuto: '由自动处理',
  byAgent: '由代理',
  withdrawn: '代理已不再等待此问题',
  removed: '本设备已从主机移除：请重新配对后再回答',
  refused: '未发送：{message}。点按打开卡片。',
};

export function receiptMessages(language: string | undefined): ReceiptMessages {
  return language?.toLowerCase().startsWith('zh') ? zh : en;
}

export function fillReceipt(template: string, vars: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => vars[name] ?? match);
}
