export * from './normalize-answers';
export * from './response-to-broker-result';
export * from './request-recovery';
export * from './interaction-broker';
