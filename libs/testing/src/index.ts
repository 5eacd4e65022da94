// What tests and benchmarks share, so that none imports another app's test folder.
export * from './api';
export * from './app-processes';
export * from './bus';
export * from './database';
export * from './frames';
export * from './ids';
export * from './logger';
export * from './mqtt';
export * from './mosquitto';
export * from './ports';
export * from './research-rows';
export * from './viewer-client';
export * from './wait';
export * from './research-body';
export * from './comparable';
export * from './redis-server';
export * from './lab-client';
