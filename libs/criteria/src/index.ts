export * from './curves';
export * from './profiles';
export * from './observations';
export * from './conformity';
export * from './classification';
export * from './engine';
export * from './chart-data';
export * from './category-max-mean';
export { EARLIEST_FRAME_TIME_S } from './t0';
