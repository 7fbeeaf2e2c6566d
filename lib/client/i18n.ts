/**
 * Every UI string, in English and Chinese. A key names the part of the app that shows the string,
 * then what the string is: `inbox.emptyTitle`, `outcome.declined` (how an interaction ended).
 */
const en = {
  'status.connected': 'Connected',
  'status.connecting': 'Connecting…',
  'status.reconnecting': 'Reconnecting…',
  'status.offline': 'Offline',
  'status.offlineQueued': 'Offline — {n} answer(s) queued',
  'status.queuedCount': '{n} answer(s) queued',
  'status.notPaired': 'Not connected to a host',

  'inbox.waiting': '{n} waiting',
  'inbox.nothingWaiting': 'Nothing waiting',
  'inbox.title': 'Inbox',
  'inbox.emptyTitle': 'No questions waiting',
  'inbox.emptyBody':
    'When your coding agent needs a decision from you, its question appears here — answer it from anywhere.',
  'inbox.connectAgent': 'Connect an agent',
  'inbox.connectAgentBody':
    'Run “askaway start” next to your agent and add the Askaway MCP server or the Claude Code hook. See the README for setup.',
  'inbox.questionCount': '{n} questions',
  'inbox.oneQuestion': '1 question',

  'question.other': 'Other…',
  'question.otherPlaceholder': 'Type your answer',
  'question.addNote': 'Add a note',
  'question.noteLabel': 'Note for the agent',
  'question.skip': 'Skip this question',
  'question.unskip': 'Answer this question',
  'question.recommended': 'Recommended',
  'question.skipped': 'skipped',

  'answers.edit': 'Edit',
  'answers.notes': 'Notes',

  'card.skipAll': 'Skip all',
  'card.decline': 'Decline…',
  'card.declineTitle': 'Decline this question?',
  'card.declineReason': 'Reason (optional)',
  'card.declineHint': 'The agent sees that you declined, with your reason.',
  'card.declineConfirm': 'Decline',
  'card.skipAllTitle': 'Skip all questions?',
  'card.skipAllHint': 'The agent continues on its best judgment. Skipping is not a rejection.',
  'card.review': 'Review',
  'card.submit': 'Submit',
  'card.next': 'Next',
  'card.back': 'Back',
  'card.step': '{i} of {n}',
  'card.moreActions': 'More actions',
  'card.agentSaid': 'Agent said',
  'card.showMore': 'Show more',
  'card.showLess': 'Show less',
  'card.notFoundTitle': 'Not found',
  'card.notFoundBody': 'This question is no longer here. It may have been answered elsewhere.',
  'card.backToInbox': 'Back to inbox',
  'card.nextQuestion': 'Next question',

  'countdown.continuesIn': 'Agent continues on its own in {t}',
  'countdown.continuesNow': 'Agent continues on its own now',
  'countdown.waits': 'The agent waits for you',

  'receipt.applied': 'Received by the agent',
  'receipt.sending': 'Sending…',
  'receipt.queued': 'Queued — will send when connected',
  'receipt.delivered': 'Answered · delivered {time}',
  'receipt.lostRace': 'Already answered {by} at {time}',
  'receipt.byOtherDevice': 'by another device',
  'receipt.byAuto': 'by auto-resolution',
  'receipt.byAgent': 'by the agent',
  'receipt.yourAnswer': 'Your answer (not sent)',

  'preview.title': 'Preview',
  'preview.of': 'Preview of “{label}”',
  'preview.none': 'This option has no preview.',

  'plan.chip': 'Plan',
  'plan.title': 'Approve the plan?',
  'plan.missing':
    'Claude Code did not include the plan text. You can still approve or reject it; the terminal shows the plan.',
  'plan.fileUnreadable':
    'Claude Code did not include the plan text, and its plan file could not be read. You can still approve or reject it; the terminal shows the plan.',
  'plan.file': 'Plan file:',
  'plan.approve': 'Approve',
  'plan.reject': 'Reject',
  'plan.rejectFeedback': 'What should change? (optional)',
  'plan.rejectTitle': 'Reject with feedback',

  'permission.title': 'Allow {tool}?',
  'permission.allow': 'Allow',
  'permission.deny': 'Deny',
  'permission.denyReason': 'Reason (optional)',
  'permission.command': 'Command',
  'permission.file': 'File',
  'permission.input': 'Input',

  'nav.inbox': 'Inbox',
  'nav.sessions': 'Sessions',
  'nav.history': 'History',
  'nav.settings': 'Settings',

  'pair.needed': 'Open the pairing link printed by “askaway start”, or enter the host address and token.',
  'pair.title': 'Connect',
  'pair.host': 'Host address',
  'pair.hostHint': 'Leave empty to use this address.',
  'pair.token': 'Token',
  'pair.device': 'Device name',
  'pair.submit': 'Connect',
  'pair.saved': 'Paired. Connecting…',

  'error.unauthorized': 'The token was refused. Open a fresh pairing link or check the token.',
  'error.protocol': 'This app and the host speak different protocol versions. Update the host or reload the app.',
  'error.unreachable': 'Cannot reach the host at {url}. Is “askaway start” running and reachable from this device?',
  'error.generic': 'Something went wrong: {message}',

  'sessions.title': 'Sessions',
  'sessions.empty': 'No sessions yet. Sessions appear when an agent asks something.',
  'sessions.pendingCount': '{n} pending',
  'sessions.resolvedCount': '{n} resolved',
  'sessions.lastQuestion': 'Last: {q}',
  'sessions.statusPending': 'Waiting',
  'sessions.statusResolved': 'Resolved',

  'history.title': 'History',
  'history.empty': 'Answered and withdrawn questions appear here.',
  'history.filterSession': 'Session',
  'history.allSessions': 'All sessions',
  'history.reason': 'Reason: {r}',

  'outcome.answered': 'Answered',
  'outcome.partly': 'Partly answered ({n} of {m})',
  'outcome.skipped': 'Skipped',
  'outcome.auto': 'Auto-resolved',
  'outcome.declined': 'Declined',
  'outcome.cancelled': 'Cancelled',
  'outcome.otherDevice': 'Answered on another device',
  'outcome.withdrawn': 'Withdrawn by the agent',
  'outcome.approved': 'Approved',
  'outcome.rejected': 'Rejected',
  'outcome.allowed': 'Allowed',
  'outcome.denied': 'Denied',

  'settings.title': 'Settings',
  'settings.connection': 'Connection',
  'settings.host': 'Host',
  'settings.device': 'This device',
  'settings.deviceHint': 'Shown to other devices when you answer.',
  'settings.forget': 'Forget this device',
  'settings.forgetConfirm': 'Forget the token on this device? You will need the pairing link again.',
  'settings.pairAgain': 'Pair with another host',
  'settings.autoResolution': 'Auto-resolution',
  'settings.autoToggle': 'Let the agent continue on its own',
  'settings.autoExplainOn':
    'When nobody answers within {t}, the agent continues on its best judgment. It is told you did not answer — silence is never taken as a preference.',
  'settings.autoExplainOff': 'Off: the agent waits for you as long as it takes.',
  'settings.autoTimeout': 'Wait before continuing',
  'settings.autoShared': 'Shared by every device connected to this host.',
  'settings.autoOffline': 'Connect to change this setting.',
  'settings.saveFailed': 'Could not save. Check the connection.',
  'settings.notifications': 'Notifications',
  'settings.language': 'Language',
  'settings.languageSystem': 'Follow the browser',
  'settings.theme': 'Theme',
  'settings.themeSystem': 'System',
  'settings.themeLight': 'Light',
  'settings.themeDark': 'Dark',
  'settings.about': 'About',
  'settings.appVersion': 'App version',
  'settings.hostVersion': 'Host version',
  'settings.protocolVersion': 'Protocol version',

  'update.ready': 'A new version is ready.',
  'update.reload': 'Reload',

  'time.minutes': '{n} min',
  'time.seconds': '{n} s',
  'time.hours': '{n} h',
  'time.justNow': 'just now',
  'time.minutesAgo': '{n}m ago',
  'time.hoursAgo': '{n}h ago',
  'time.daysAgo': '{n}d ago',

  'common.cancel': 'Cancel',
  'common.loading': 'Loading…',
  'common.session': 'session {id}',
  'common.mainAgent': 'main agent',
  'common.skipToContent': 'Skip to content',
} as const;

export type MessageKey = keyof typeof en;

// Typed as the English table's keys: a key missing here, or one English does not have, fails to compile.
const zh: Record<MessageKey, string> = {
  'status.connected': '已连接',
  'status.connecting': '正在连接…',
  'status.reconnecting': '正在重新连接…',
  'status.offline': '离线',
  'status.offlineQueued': '离线 — {n} 个回答待发送',
  'status.queuedCount': '{n} 个回答待发送',
  'status.notPaired': '尚未连接主机',

  'inbox.waiting': '{n} 个待回答',
  'inbox.nothingWaiting': '没有待回答的问题',
  'inbox.title': '收件箱',
  'inbox.emptyTitle': '没有待回答的问题',
  'inbox.emptyBody': '当编码代理需要你做决定时，问题会出现在这里——随时随地回答。',
  'inbox.connectAgent': '连接代理',
  'inbox.connectAgentBody': '在代理旁运行 “askaway start”，并添加 Askaway MCP 服务器或 Claude Code 钩子。详见 README。',
  'inbox.questionCount': '{n} 个问题',
  'inbox.oneQuestion': '1 个问题',

  'question.other': '其他…',
  'question.otherPlaceholder': '输入你的回答',
  'question.addNote': '添加备注',
  'question.noteLabel': '给代理的备注',
  'question.skip': '跳过此问题',
  'question.unskip': '回答此问题',
  'question.recommended': '推荐',
  'question.skipped': '已跳过',

  'answers.edit': '修改',
  'answers.notes': '备注',

  'card.skipAll': '全部跳过',
  'card.decline': '拒绝…',
  'card.declineTitle': '拒绝这个提问？',
  'card.declineReason': '原因（可选）',
  'card.declineHint': '代理会看到你拒绝了，以及你的原因。',
  'card.declineConfirm': '拒绝',
  'card.skipAllTitle': '跳过全部问题？',
  'card.skipAllHint': '代理将按自己的判断继续。跳过不等于拒绝。',
  'card.review': '检查答案',
  'card.submit': '提交',
  'card.next': '下一步',
  'card.back': '返回',
  'card.step': '第 {i} / {n} 题',
  'card.moreActions': '更多操作',
  'card.agentSaid': '代理说',
  'card.showMore': '展开',
  'card.showLess': '收起',
  'card.notFoundTitle': '找不到',
  'card.notFoundBody': '这个问题已不在这里，可能已在别处回答。',
  'card.backToInbox': '返回收件箱',
  'card.nextQuestion': '下一个问题',

  'countdown.continuesIn': '{t} 后代理将自行决定',
  'countdown.continuesNow': '代理即将自行决定',
  'countdown.waits': '代理会一直等待你的回答',

  'receipt.applied': '代理已收到',
  'receipt.sending': '正在发送…',
  'receipt.queued': '已排队 — 连接后发送',
  'receipt.delivered': '已回答 · {time} 送达',
  'receipt.lostRace': '已由{by}于 {time} 回答',
  'receipt.byOtherDevice': '其他设备',
  'receipt.byAuto': '自动决定',
  'receipt.byAgent': '代理',
  'receipt.yourAnswer': '你的回答（未发送）',

  'preview.title': '预览',
  'preview.of': '“{label}”的预览',
  'preview.none': '此选项没有预览。',

  'plan.chip': '计划',
  'plan.title': '批准这个计划？',
  'plan.missing': 'Claude Code 没有附上计划内容。你仍然可以批准或拒绝；计划显示在终端里。',
  'plan.fileUnreadable': 'Claude Code 没有附上计划内容，计划文件也无法读取。你仍然可以批准或拒绝；计划显示在终端里。',
  'plan.file': '计划文件：',
  'plan.approve': '批准',
  'plan.reject': '驳回',
  'plan.rejectFeedback': '需要改什么？（可选）',
  'plan.rejectTitle': '驳回并反馈',

  'permission.title': '允许 {tool}？',
  'permission.allow': '允许',
  'permission.deny': '拒绝',
  'permission.denyReason': '原因（可选）',
  'permission.command': '命令',
  'permission.file': '文件',
  'permission.input': '输入',

  'nav.inbox': '收件箱',
  'nav.sessions': '会话',
  'nav.history': '历史',
  'nav.settings': '设置',

  'pair.needed': '打开 “askaway start” 打印的配对链接，或输入主机地址和令牌。',
  'pair.title': '连接',
  'pair.host': '主机地址',
  'pair.hostHint': '留空则使用当前地址。',
  'pair.token': '令牌',
  'pair.device': '设备名称',
  'pair.submit': '连接',
  'pair.saved': '已配对，正在连接…',

  'error.unauthorized': '令牌被拒绝。请打开新的配对链接或检查令牌。',
  'error.protocol': '应用与主机的协议版本不一致。请更新主机或重新加载应用。',
  'error.unreachable': '无法连接到 {url} 的主机。“askaway start” 是否正在运行，且本设备可以访问？',
  'error.generic': '出错了：{message}',

  'sessions.title': '会话',
  'sessions.empty': '还没有会话。代理提问后会显示在这里。',
  'sessions.pendingCount': '{n} 个待回答',
  'sessions.resolvedCount': '{n} 个已完成',
  'sessions.lastQuestion': '最近：{q}',
  'sessions.statusPending': '待回答',
  'sessions.statusResolved': '已完成',

  'history.title': '历史',
  'history.empty': '已回答和已撤回的问题会显示在这里。',
  'history.filterSession': '会话',
  'history.allSessions': '全部会话',
  'history.reason': '原因：{r}',

  'outcome.answered': '已回答',
  'outcome.partly': '部分回答（{n}/{m}）',
  'outcome.skipped': '已跳过',
  'outcome.auto': '已自动决定',
  'outcome.declined': '已拒绝',
  'outcome.cancelled': '已取消',
  'outcome.otherDevice': '已在其他设备回答',
  'outcome.withdrawn': '代理已撤回',
  'outcome.approved': '已批准',
  'outcome.rejected': '已驳回',
  'outcome.allowed': '已允许',
  'outcome.denied': '已拒绝',

  'settings.title': '设置',
  'settings.connection': '连接',
  'settings.host': '主机',
  'settings.device': '本设备',
  'settings.deviceHint': '你回答时其他设备会看到这个名称。',
  'settings.forget': '忘记此设备',
  'settings.forgetConfirm': '要删除本设备上的令牌吗？之后需要重新打开配对链接。',
  'settings.pairAgain': '与其他主机配对',
  'settings.autoResolution': '自动决定',
  'settings.autoToggle': '让代理自行继续',
  'settings.autoExplainOn':
    '如果 {t} 内无人回答，代理会按自己的判断继续。代理会知道你没有回答——沉默不会被当成你的偏好。',
  'settings.autoExplainOff': '关闭：代理会一直等待你的回答。',
  'settings.autoTimeout': '继续前等待',
  'settings.autoShared': '连接到此主机的所有设备共享此设置。',
  'settings.autoOffline': '连接后才能修改此设置。',
  'settings.saveFailed': '保存失败，请检查连接。',
  'settings.notifications': '通知',
  'settings.language': '语言',
  'settings.languageSystem': '跟随浏览器',
  'settings.theme': '主题',
  'settings.themeSystem': '跟随系统',
  'settings.themeLight': '浅色',
  'settings.themeDark': '深色',
  'settings.about': '关于',
  'settings.appVersion': '应用版本',
  'settings.hostVersion': '主机版本',
  'settings.protocolVersion': '协议版本',

  'update.ready': '新版本已就绪。',
  'update.reload': '重新加载',

  'time.minutes': '{n} 分钟',
  'time.seconds': '{n} 秒',
  'time.hours': '{n} 小时',
  'time.justNow': '刚刚',
  'time.minutesAgo': '{n} 分钟前',
  'time.hoursAgo': '{n} 小时前',
  'time.daysAgo': '{n} 天前',

  'common.cancel': '取消',
  'common.loading': '加载中…',
  'common.session': '会话 {id}',
  'common.mainAgent': '主代理',
  'common.skipToContent': '跳到内容',
};

export const MESSAGES: Record<'en' | 'zh', Record<MessageKey, string>> = { en, zh };

export type Lang = keyof typeof MESSAGES;
export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

const translators = new Map<Lang, Translate>();

/** The translate function of a language; the same function every time, so it is safe in React deps. */
export function translator(lang: Lang): Translate {
  let translate = translators.get(lang);
  if (!translate) {
    const table = MESSAGES[lang];
    translate = (key, vars) => {
      const template = table[key];
      if (!vars) return template;
      return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in vars ? String(vars[name]) : match));
    };
    translators.set(lang, translate);
  }
  return translate;
}

/** Browser languages starting with zh get Chinese; everything else English. */
export function langFromNavigator(languages: readonly string[] | undefined): Lang {
  const first = languages?.[0]?.toLowerCase() ?? 'en';
  return first.startsWith('zh') ? 'zh' : 'en';
}
