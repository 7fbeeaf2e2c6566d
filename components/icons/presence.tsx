import { Svg, type IconProps } from './svg';

// Whether a machine's agents are connected (R17.6): Settings and the inbox's machine summary, not every chip.

export const IconDot = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="5" fill="currentColor" />
  </Svg>
);
export const IconDotOff = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="5" />
  </Svg>
);
