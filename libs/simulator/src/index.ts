export * from './frames';
export * from './publisher';
export * from './demo';
export * from './specimens';
export { demoSpecimenPng } from './demo-image';
