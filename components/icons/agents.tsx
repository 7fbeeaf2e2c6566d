import { Svg, type IconProps } from './svg';

// Agents (R18.1): the chip beside the machine's, and the agent filter.

/** A terminal prompt: every agent Askaway carries runs in one. */
export const IconAgent = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="m7 9 3 3-3 3M13 15h4" />
  </Svg>
);
