import { type Metadata, type Viewport } from 'next';
import { AppShell } from '@/components/shell/app-shell';
import { CACHE_PREFETCH_SCRIPT } from '@/lib/client/cache-prefetch';
import { FIRST_PAINT_SCRIPT } from '@/lib/client/first-paint';
import { SOCKET_PREFETCH_SCRIPT } from '@/lib/client/socket-prefetch';
import { THEME_BOOT_SCRIPT } from '@/lib/client/local-settings';
// Every screen's styles; each screen's own come with its components (a route's first screen carries only its own).
import './styles/base.css';
import './styles/shell.css';
import './styles/first-paint.css';

export const metadata: Metadata = {
  title: 'Askaway',
  description: "Answer your coding agent's questions from your phone.",
  applicationName: 'Askaway',
  manifest: '/manifest.webmanifest',
  icons: {
    icon: [
      { url: '/icons/favicon.svg', type: 'image/svg+xml' },
      { url: '/icons/favicon-32.png', sizes: '32x32', type: 'image/png' },
    ],
    apple: '/icons/apple-touch-icon.png',
  },
  appleWebApp: { capable: true, title: 'Askaway', statusBarStyle: 'default' },
  formatDetection: { telephone: false },
};

export const viewport: Viewport = {
  width: 'device-width',
  initialScale: 1,
  viewportFit: 'cover',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f6f6f3' },
    { media: '(prefers-color-scheme: dark)', color: '#121316' },
  ],
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Before first paint, so a chosen dark theme never flashes light. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_BOOT_SCRIPT }} />
        {/* Before first paint too: which of the first screens in this HTML applies to this device (R9.14). */}
        <script dangerouslySetInnerHTML={{ __html: FIRST_PAINT_SCRIPT }} />
        {/* Starts reading the last known inbox while the scripts load (lib/client/cache-prefetch.ts). */}
        <script dangerouslySetInnerHTML={{ __html: CACHE_PREFETCH_SCRIPT }} />
        {/* Opens a paired device's socket to its host, so the snapshot is on its way while the app loads (R13.8). */}
        <script dangerouslySetInnerHTML={{ __html: SOCKET_PREFETCH_SCRIPT }} />
      </head>
      <body>
        <AppShell>{children}</AppShell>
      </body>
    </html>
  );
}
