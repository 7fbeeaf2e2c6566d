import { Svg, type IconProps } from './svg';

// Machines (R17): chips, filters, their state. Icons come in files by where they show, so a route carries only its own (R13.4).

export const IconMachine = (p: IconProps) => (
  <Svg {...p}>
    <rect x="4" y="4" width="16" height="11" rx="1.5" />
    <path d="M2 19h20" />
  </Svg>
);
export const IconHub = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="3" width="18" height="7" rx="1.5" />
    <rect x="3" y="14" width="18" height="7" rx="1.5" />
    <path d="M7 6.5h.01M7 17.5h.01" />
  </Svg>
);
