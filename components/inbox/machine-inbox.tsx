'use client';
import { useLayoutEffect } from 'react';
import { selectShowAgents } from '@/lib/client/agent-selectors';
import { longInbox } from '@/lib/client/long-inbox';
import { selectMachineSections } from '@/lib/client/machine-sections';
import { selectPendingCount } from '@/lib/client/pending-count';
import { type RemoteState } from '@/lib/client/store';
import { markInboxRendered } from '@/lib/client/test-hook';
import { MachineSection } from './machine-section';

export { MachinesSummary } from './machines-summary';

/**
 * The inbox grouped by machine, then session (R17.3): only when more than one machine is known, so in a chunk
 * of its own, loaded when the inbox sees a second machine (./inbox-view.tsx).
 */
export function MachineList({ state, live }: { state: RemoteState; live: boolean }) {
  const pending = selectPendingCount(state.host);
  const showAgents = selectShowAgents(state.host);
  const sections = selectMachineSections(state.host);
  useLayoutEffect(() => {
    // Committed to the DOM: what the R13.2 and R17.9 benchmarks and the tests wait for.
    if (state.host.hasSnapshot) markInboxRendered(pending);
  }, [state.host, pending]);
  return (
    <div
      className="inbox"
      data-testid="inbox.list"
      data-live={live ? 'true' : 'false'}
      data-long={longInbox(sections.flatMap((section) => section.groups))}
    >
      {sections.map((section, index) => (
        <MachineSection
          key={section.machine.id}
          section={section}
          id={`m-${index}`}
          answers={state.answers}
          clockOffsetMs={state.host.clockOffsetMs}
          live={live}
          showAgent={showAgents}
        />
      ))}
    </div>
  );
}
