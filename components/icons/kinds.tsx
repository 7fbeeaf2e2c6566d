import { Svg, type IconProps } from './svg';

// Kind chips (a permission's chip has the shield, ./shell.tsx). Icons come in files by where they show, so a route carries only its own (R13.4).

export const IconQuestion = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="12" cy="12" r="9" />
    <path d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01" />
  </Svg>
);
export const IconPlan = (p: IconProps) => (
  <Svg {...p}>
    <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
    <path d="M14 2v6h6M8 13h8M8 17h5" />
  </Svg>
);
export const IconTurnEnd = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 21V4M4 4h11l-2 4 2 4H4" />
  </Svg>
);
