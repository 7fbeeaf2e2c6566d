// Entry of /sw.js. Bundled by scripts/build-pwa/service-worker.mjs (esbuild, then Workbox injectManifest).
// One concern per module: a feature adds a module and a line here.
import { installLifecycle } from './lifecycle';
import { installPrecache } from './precache';
import { registerPushHandlers } from './push';

installLifecycle();
registerPushHandlers();
installPrecache();
