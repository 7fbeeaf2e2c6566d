import { Svg, type IconProps } from './svg';

// Waiting and time: countdowns, a prompt waiting for its machine. Icons come in files by where they show, so a route carries only its own (R13.4).

export const IconClock = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Svg>
);
export const IconPause = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M10 9v6M14 9v6" />
  </Svg>
);
