export * from './embedded-broker';
