'use client';
import { Link } from '../link';
import { useState } from 'react';
import { useI18n } from '@/hooks/use-i18n';
import { useRememberedChoice } from '@/hooks/use-remembered-choice';
import { useRemote } from '@/hooks/use-remote';
import { type InteractionView } from '@/lib/contracts';
import {
  byAgent,
  effectiveFilter,
  onMachine,
  selectAgentOptions,
  selectMachineOptions,
} from '@/lib/client/filter-options';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { approvalTitle, finishedTurnTitle, formTitle } from '@/lib/client/agent-prompt-title';
import { type Translate } from '@/lib/client/i18n';
import { shortSessionId } from '@/lib/client/format';
import { selectShowMachines } from '@/lib/client/machine-selectors';
import { agentFilter, machineFilter } from '@/lib/client/remembered-choice';
import { selectSessions, subtreeCounts, type SessionNode } from '@/lib/client/session-tree';
import { IconChevron } from '../icons/navigation';
import { IconTree } from '../icons/shell';
import { AgentChip } from '../agent-chip';
import { AgentFilter } from '../agent-filter';
import { KindChip } from '../kind-chip';
import { MachineChip } from '../machine-chip';
import { MachineFilter } from '../machine-filter';
import { ScreenHeader } from '../shell/screen-header';
import '@/lib/client/i18n-en-screens';
import '@/lib/client/i18n-en-sessions';
import '@/app/styles/sessions.css';
import '@/lib/client/i18n-en-prompts';
import '@/lib/client/i18n-en-outcomes';

function promptTitle(view: InteractionView, t: Translate): string {
  if (view.kind === 'question') return view.input.questions[0]?.question ?? '';
  if (view.kind === 'plan-approval') return t('plan.title');
  if (view.kind === 'approval') return approvalTitle(view.input, view.toolName);
  if (view.kind === 'form') return formTitle(view.input);
  if (view.kind === 'finished-turn') return finishedTurnTitle(view.input) ?? '';
  return t('permission.title', { tool: view.toolName });
}

/**
 * Each root session with its subagent tree (R7.3), so subagent prompts can be followed remotely;
 * by machine when there is more than one (R17.3).
 */
export function SessionsView() {
  const state = useRemote();
  const { t } = useI18n();
  const showMachines = selectShowMachines(state.host);
  const machineOptions = selectMachineOptions(state.host);
  const rememberedMachine = useRememberedChoice(machineFilter);
  const machine = showMachines ? effectiveFilter(rememberedMachine, machineOptions) : '';
  const showAgents = selectShowAgents(state.host);
  const agentOptions = selectAgentOptions(state.host);
  const rememberedAgent = useRememberedChoice(agentFilter);
  const agent = showAgents ? effectiveFilter(rememberedAgent, agentOptions) : '';
  const all = selectSessions(state.host);
  const trees =
    machine === '' && agent === '' ? all : all.filter((tree) => onMachine(tree, machine) && byAgent(tree.first, agent));
  return (
    <>
      <ScreenHeader title={t('sessions.title')} />
      {showMachines && machineOptions.length > 1 ? (
        <MachineFilter name="sessions-machine" options={machineOptions} value={machine} />
      ) : null}
      {showAgents ? <AgentFilter name="sessions-agent" options={agentOptions} value={agent} /> : null}
      {trees.length === 0 ? (
        <div className="empty" data-testid="sessions.empty">
          <IconTree size={40} />
          <p>
            {state.host.hasSnapshot || state.host.cached || state.status === 'unpaired' || state.status === 'refused'
              ? t('sessions.empty')
              : t('common.loading')}
          </p>
        </div>
      ) : (
        <div className="sessions" data-testid="sessions.list">
          {trees.map((tree) => (
            <section
              key={tree.key}
              className="session"
              data-testid="sessions.session"
              data-session-id={tree.sessionId}
              data-machine-id={tree.machine.id}
            >
              <h2 className="session__title">
                {showMachines ? <MachineChip machine={tree.machine} /> : null}
                {showAgents ? <AgentChip agent={tree.first.agent} /> : null}
                {tree.project ? <span>{tree.project}</span> : null}
                <span className="session__id">{t('common.session', { id: shortSessionId(tree.sessionId) })}</span>
              </h2>
              <ul className="tree">
                <TreeNode node={tree.root} />
              </ul>
            </section>
          ))}
        </div>
      )}
    </>
  );
}

function TreeNode({ node }: { node: SessionNode }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const counts = subtreeCounts(node);
  const name = node.depth === 0 ? t('common.mainAgent') : node.name;
  const hasItems = node.items.length > 0;
  return (
    <li className="tree__node" data-testid="sessions.node" data-depth={node.depth} data-name={name}>
      <button
        type="button"
        className="tree__row"
        style={{ paddingLeft: `${12 + node.depth * 18}px` }}
        onClick={() => setOpen((value) => !value)}
        disabled={!hasItems}
        aria-expanded={hasItems ? open : undefined}
        data-testid="sessions.node-toggle"
      >
        <span className="tree__head">
          {hasItems ? (
            <IconChevron size={16} className="tree__chevron" data-open={open ? 'true' : undefined} />
          ) : (
            <span className="tree__spacer" />
          )}
          <span className="tree__name">{name}</span>
          <span className="tree__counts">
            {counts.pending > 0 ? (
              <span className="tree__pending">{t('sessions.pendingCount', { n: counts.pending })}</span>
            ) : null}
            {counts.resolved > 0 ? <span>{t('sessions.resolvedCount', { n: counts.resolved })}</span> : null}
          </span>
        </span>
        {node.last ? (
          <span className="tree__last">{t('sessions.lastQuestion', { q: promptTitle(node.last, t) })}</span>
        ) : null}
      </button>
      {open && hasItems ? (
        <ul
          className="tree__prompts"
          data-testid="sessions.prompts"
          style={{ marginLeft: `${12 + node.depth * 18}px` }}
        >
          {node.items.map((view) => (
            <li key={view.requestId}>
              <Link
                href={`/card?id=${encodeURIComponent(view.requestId)}`}
                className="tree__prompt"
                data-testid="sessions.prompt"
                data-status={view.status}
              >
                <KindChip view={view} />
                <span className="tree__prompt-text">{promptTitle(view, t)}</span>
                <span className="tree__prompt-status">
                  {view.status === 'pending'
                    ? t('sessions.statusPending')
                    : view.terminalAnswer
                      ? t(view.terminalAnswer.where === 'editor' ? 'outcome.editor' : 'outcome.terminal')
                      : view.status === 'withdrawn'
                        ? t('outcome.withdrawn')
                        : t('sessions.statusResolved')}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {node.children.length > 0 ? (
        <ul className="tree__children">
          {node.children.map((child) => (
            <TreeNode key={child.key} node={child} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
