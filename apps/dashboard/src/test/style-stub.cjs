// CSS in jest: plain imports do nothing; CSS-module class names come back as their keys.
module.exports = new Proxy({}, { get: (_target, key) => (key === '__esModule' ? false : key) });
