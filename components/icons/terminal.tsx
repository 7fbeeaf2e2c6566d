import { Svg, type IconProps } from './svg';

// A terminal: the agent chip and filter (R18.1), and a prompt answered in the terminal (R18.6).

/** A terminal prompt: every agent Askaway carries runs in one. */
export const IconTerminal = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="18" height="16" rx="2" />
    <path d="m7 9 3 3-3 3M13 15h4" />
  </Svg>
);
