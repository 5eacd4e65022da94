import { act, renderHook } from '@testing-library/react';
import { useAutoCycle } from './use-auto-cycle';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe("the monitor's automatic mode", () => {
  it('advances the view every interval while on, and stops when turned off', () => {
    const advance = jest.fn();
    const { result } = renderHook(() => useAutoCycle(true, advance, 15_000));
    expect(result.current.on).toBe(true);
    act(() => jest.advanceTimersByTime(45_000));
    expect(advance).toHaveBeenCalledTimes(3);
    act(() => result.current.toggle());
    expect(result.current.on).toBe(false);
    act(() => jest.advanceTimersByTime(60_000));
    expect(advance).toHaveBeenCalledTimes(3);
  });

  it('does nothing with a single view', () => {
    const advance = jest.fn();
    renderHook(() => useAutoCycle(false, advance, 15_000));
    act(() => jest.advanceTimersByTime(60_000));
    expect(advance).not.toHaveBeenCalled();
  });
});
