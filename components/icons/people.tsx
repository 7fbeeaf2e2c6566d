import { Svg, type IconProps } from './svg';

// People on a team hub (R21): whose a question is, on chips and in Settings.

export const IconPerson = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
  </Svg>
);
export const IconGroup = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6" />
    <path d="M16 4.5a3.5 3.5 0 0 1 0 7M18 14.3c2.1.7 3.5 2.8 3.5 5.7" />
  </Svg>
);
export const IconHandOver = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 12h13M13 7l5 5-5 5" />
    <path d="M20 5v14" />
  </Svg>
);
