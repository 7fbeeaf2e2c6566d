import { Svg, type IconProps } from './svg';

// How a prompt ended: receipts, History. Icons come in files by where they show, so a route carries only its own (R13.4).

export const IconUndo = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 7v6h6" />
    <path d="M21 17a9 9 0 0 0-15-6.7L3 13" />
  </Svg>
);
export const IconSkip = (p: IconProps) => (
  <Svg {...p}>
    <path d="m5 5 10 7-10 7z" />
    <path d="M19 5v14" />
  </Svg>
);
export const IconX = (p: IconProps) => (
  <Svg {...p}>
    <path d="M18 6 6 18M6 6l12 12" />
  </Svg>
);
export const IconCheckDouble = (p: IconProps) => (
  <Svg {...p}>
    <path d="M17 7 7.5 16.5 3 12M22 7l-9.5 9.5-1.5-1.5" />
  </Svg>
);
