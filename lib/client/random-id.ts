/** 128 random bits as hex. crypto.randomUUID needs a secure context; a phone on http://<LAN IP> is not one. */
export function randomId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
