export * from './tool-types';
export * from './tool-executor';
export * from './format-issues';
export * from './ask-user-question-description';
export * from './format-model-content';
export * from './ask-user-question-tool';
export * from './subagent-interaction-broker';
export * from './interaction-auto-resolution';
