/**
 * A FIFO with O(1) push and shift-from-front, for the outage buffer (up to hundreds of thousands of
 * frames, where Array#shift would copy the whole array each time).
 */
export class FrameQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  /** Up to `n` items from the front, left in the queue. */
  peek(n: number): T[] {
    return this.items.slice(this.head, this.head + n) as T[];
  }

  drop(n: number): void {
    const end = Math.min(this.head + n, this.items.length);
    for (let i = this.head; i < end; i++) this.items[i] = undefined;
    this.head = end;
    // Compact once the dead prefix outweighs the live part, so memory follows the length.
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  unshiftAll(front: readonly T[]): void {
    this.items = [...front, ...this.items.slice(this.head)];
    this.head = 0;
  }
}
