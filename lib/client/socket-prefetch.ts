import { REMOTE_PROTOCOL_VERSION } from '../contracts/limits';
import { EARLY_NAMESPACE } from './early-answer';

/**
 * Runs inline in <head> (app/layout.tsx): a paired device opens its socket to the host as the HTML is parsed,
 * not once the app's code has loaded and hydrated, so the host's snapshot is on its way (or here) by the time the
 * live connection exists (R13.8). It speaks just enough of engine.io (v4) and socket.io to connect the remote
 * namespace with the stored credential, as socket.io-client would; everything the host sends is kept for the
 * connection to replay. A device that is not paired opens nothing.
 */
export const SOCKET_PREFETCH_SCRIPT = `(function(){try{var p=JSON.parse(localStorage.getItem("askaway.pairing")||"null");if(!p||typeof p!=="object"||typeof p.credential!=="string"||p.credential===""||typeof p.deviceId!=="string")return;var h=typeof p.hostUrl==="string"?p.hostUrl:"",ws=new WebSocket((h||location.origin).replace(/^http/,"ws")+"/socket.io/?EIO=4&transport=websocket"),e={ws:ws,hostUrl:h,credential:p.credential,messages:[],sent:false,closed:false};ws.onmessage=function(m){var d=m.data;if(d==="2"){ws.send("3");return}if(!e.sent&&typeof d==="string"&&d.charAt(0)==="0"){e.sent=true;ws.send("40${EARLY_NAMESPACE},"+JSON.stringify({credential:p.credential,protocolVersion:${REMOTE_PROTOCOL_VERSION}}))}e.messages.push(d);if(e.listener)e.listener(d)};ws.onclose=ws.onerror=function(){e.closed=true};window.__askawaySocket=e}catch(x){}})();`;
