import { type Readable } from 'node:stream';
import { spawnChild, unlessExited, type Child } from './processes';

export interface VirtualDisplay {
  /** For the DISPLAY variable, e.g. ":42". */
  display: string;
  stop(): Promise<void>;
}

/**
 * Starts `Xvfb` on a display number it picks itself (`-displayfd`), so suites running side by side
 * (or a desktop's own :0) never collide. `XVFB_PATH` overrides the binary.
 */
export async function startXvfb(screen = '1280x1024x24'): Promise<VirtualDisplay> {
  const binary = process.env.XVFB_PATH ?? 'Xvfb';
  // -terminate: the server exits when its last client (the browser) goes, even if this process died first.
  const child: Child = spawnChild(
    binary,
    ['-displayfd', '3', '-screen', '0', screen, '-nolisten', 'tcp', '-terminate'],
    {
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    },
  );
  const fd = child.process.stdio[3] as Readable | null;
  if (!fd) throw new Error('Xvfb: no display pipe');
  const number = new Promise<string>((resolve) => {
    let text = '';
    fd.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
  });
  let display: string;
  try {
    display = `:${await unlessExited(child, `${binary} (install the xvfb package, or set XVFB_PATH)`, number)}`;
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { display, stop: () => child.stop() };
}
