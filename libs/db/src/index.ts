export * from './data-source';
export * from './embedded';
export * from './entities';
export * from './naming-strategy';
export * from './rollups';
export * from './research.queries';
export * from './rollup-refresh';
export * from './daq-credentials.queries';
