import { type InteractionView } from '@/lib/contracts';
import { originLabel } from '@/lib/client/view-keys';

/** "reviewer › tests": which subagent asked (R9.6). Nothing for the root agent. */
export function OriginLabel({ view }: { view: Pick<InteractionView, 'origin'> }) {
  const label = originLabel(view);
  if (!label) return null;
  return (
    <span className="origin" data-testid="origin" title={view.origin?.agentType}>
      {label}
    </span>
  );
}
