/*
 * Frames delivered again. The API forwards each frame the moment it arrives, so frames of several
 * ingest instances (each publishes after its own write commits) can arrive out of time order, and a
 * redelivered MQTT message comes again: the API's live stream and the dashboard's frame source
 * (apps/dashboard/src/features/live/frame-source.ts) both recognise a frame seen before with this.
 */

/**
 * The last `capacity` frame times seen (a set with a ring of insertion order): enough to recognise
 * a frame delivered again, however far out of order frames arrive, in bounded memory.
 */
export class RecentTimes {
  private readonly set = new Set<number>();
  private readonly ring: number[] = [];
  private next = 0;

  constructor(private readonly capacity = 4096) {}

  has(time: number): boolean {
    return this.set.has(time);
  }

  /** Records `time`; false when it was already there. */
  add(time: number): boolean {
    if (this.set.has(time)) return false;
    if (this.ring.length < this.capacity) {
      this.ring.push(time);
    } else {
      this.set.delete(this.ring[this.next] as number);
      this.ring[this.next] = time;
      this.next = (this.next + 1) % this.capacity;
    }
    this.set.add(time);
    return true;
  }

  clear(): void {
    this.set.clear();
    this.ring.length = 0;
    this.next = 0;
  }
}
