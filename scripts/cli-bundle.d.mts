import { type Metafile } from 'esbuild';

export function bundleCli(outfile: string, options?: { sourcemap?: boolean }): Promise<Metafile>;
