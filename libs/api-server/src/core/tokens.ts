/** Injection tokens of what the API receives from outside Nest: configuration, database, bus. */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const BUS = Symbol('BUS');
