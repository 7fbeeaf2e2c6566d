export * from './ask-user-question';
export * from './interaction';
export * from './preferences';
export * from './events';
export * from './wire';
export * from './push';
export * from './unknown';
export * from './pairing-link';
