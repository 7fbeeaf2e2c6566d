import { type Metafile } from 'esbuild';

export function bundleCli(outfile: string, options?: { sourcemap?: boolean }): Promise<Metafile>;

/** The OpenCode plugin, bundled into one self-contained ES module (Node built-ins only). */
export function bundleOpenCodePlugin(): Promise<string>;
