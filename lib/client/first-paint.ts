// R9.14: the screens a first visit lands on are in the prerendered HTML, all of them, and this inline script in
// <head> says which one applies to this device before anything is painted: paired or not (or removed), and on
// /pair whether a link brought a code. CSS (app/styles/first-paint.css) hides the others until React has
// hydrated and renders only the one that applies, in the same place. No imports: it runs before any module.

/** `paired`, `unpaired`, `removed` (revoked, R16.5) or `legacy` (the old shared token, R16.7), as ./pairing.ts reads it. */
export const BOOT_DEVICE = 'data-boot-device';
/** On /pair: `link` (`#code=…`), `legacy` (an old `#token=…` link) or `manual`. */
export const BOOT_PAIR = 'data-boot-pair';
/** Present when the pairing page would pair again with the host this device is paired with (R16.9). */
export const BOOT_SAME_HOST = 'data-boot-same-host';

/** Marks a form whose submit before hydration is kept for it (the pairing form: `window.__askawayEarlySubmit`). */
export const EARLY_SUBMIT = 'data-early-submit';

declare global {
  interface Window {
    /** True (once) when the pairing form was submitted before hydration; stops listening (./first-paint.ts). */
    __askawayEarlySubmit?: () => boolean;
  }
}

/** CSS variables holding host names, for text that names a host before React can write it (first-paint.css). */
export const BOOT_HOST_VARIABLES = {
  /** The removed device's host: its name, else its address. */
  removedHost: '--boot-removed-host',
  /** The paired host's name only. */
  hostName: '--boot-host-name',
  /** The host this device is paired with, as the pairing page names it. */
  pairedHost: '--boot-paired-host',
  /** The host a pairing link pairs with. */
  linkHost: '--boot-link-host',
} as const;

const KEY = JSON.stringify('askaway.pairing');
const v = BOOT_HOST_VARIABLES;

/**
 * Mirrors ./pairing.ts (`fromRecord`, `normalizeHostUrl`) and /pair's reading of the fragment
 * (`parsePairingHash`); first-paint.test.ts holds them to the same answers. The pairing form is on screen
 * before its code runs (scripts come after the first paint, scripts/build-pwa/paint-first.mjs): a tap on Pair
 * meanwhile is kept, not lost, and the page pairs once hydrated (components/pair/pair-view.tsx).
 */
export const FIRST_PAINT_SCRIPT = `(function(){var r=document.documentElement,p=null,d='unpaired';try{p=JSON.parse(localStorage.getItem(${KEY})||'null')}catch(e){}if(!p||typeof p!=='object')p={};function s(x){return typeof x==='string'?x:''}function c(x){return '"'+x.replace(/[\\\\"]/g,'\\\\$&').replace(/[\\n\\r\\f]/g,' ')+'"'}function n(x){x=x.trim().replace(/\\/+$/,'');if(!x)return '';if(!/^https?:\\/\\//i.test(x))x='http://'+x;try{var o=new URL(x).origin;return o===location.origin?'':o}catch(e){return x}}if(p.removed==='device-revoked')d='removed';else if(typeof p.credential==='string'&&p.credential!==''&&typeof p.deviceId==='string')d='paired';else if(typeof p.token==='string')d='legacy';r.setAttribute('${BOOT_DEVICE}',d);var name=s(p.hostName),url=s(p.hostUrl),q=new URLSearchParams(location.hash.replace(/^#/,'')),link=q.get('host')||'';if(name||url)r.style.setProperty('${v.removedHost}',c(name||url));if(name)r.style.setProperty('${v.hostName}',c(name));r.style.setProperty('${v.pairedHost}',c(name||url||location.host));r.style.setProperty('${v.linkHost}',c(link||location.host));r.setAttribute('${BOOT_PAIR}',q.get('code')?'link':q.get('token')?'legacy':'manual');if(d==='paired'&&n(link)===url)r.setAttribute('${BOOT_SAME_HOST}','');var k=false;function f(e){if(e.target&&e.target.hasAttribute&&e.target.hasAttribute('${EARLY_SUBMIT}')){e.preventDefault();k=true}}document.addEventListener('submit',f,true);window.__askawayEarlySubmit=function(){document.removeEventListener('submit',f,true);var x=k;k=false;return x}})();`;
