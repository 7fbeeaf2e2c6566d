export function inlineStylesheets(html: string, readCss: (href: string) => Promise<string>): Promise<string>;
export function loaderScript(urls: readonly string[]): string;
export function loaderChunks(html: string): string[];
export function deferChunkScripts(html: string): string;
export function paintFirst(outDir: string): Promise<{ pages: number; stylesheets: number }>;
