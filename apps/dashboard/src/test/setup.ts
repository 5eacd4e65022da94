import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// What jsdom lacks and Mantine or the config parser use.
Object.assign(globalThis, { TextDecoder, TextEncoder });

// Node-environment tests (pure logic) have no window.
if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });

  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
  window.HTMLElement.prototype.scrollIntoView = () => undefined;
  window.scrollTo = () => undefined;
}

afterEach(() => {
  if (typeof localStorage !== 'undefined') localStorage.clear();
});
