// Entry of /sw.js. Bundled by scripts/build-pwa/service-worker.mjs (esbuild, then Workbox injectManifest).
// One concern per module, so that later features (push notifications) add a module and a line here.
import { installLifecycle } from './lifecycle';
import { installPrecache } from './precache';

installLifecycle();
installPrecache();
