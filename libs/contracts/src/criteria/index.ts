export * from './types';
export * from './curves';
export * from './profiles';
export * from './observations';
export * from './conformity';
export * from './classification';
export * from './engine';
export * from './chart-data';
