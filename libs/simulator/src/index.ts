export * from './frames';
export * from './publisher';
export * from './demo';
