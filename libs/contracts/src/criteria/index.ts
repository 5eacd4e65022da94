export * from './types';
export * from './labels';
