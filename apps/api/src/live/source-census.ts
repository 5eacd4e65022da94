/**
 * Which ingest instances have published lately. Frames of one ingest arrive in time order; frames
 * of several that share the DAQ topic can cross (each publishes after its own write commits), so
 * the live service holds frames in its reorder window only while more than one is heard, or while
 * it has not yet heard enough to know (the first frames after start-up or after a silence).
 */
export class SourceCensus {
  private readonly lastSeen = new Map<string, number>();
  private framesHeard = 0;

  constructor(
    /** A source silent this long is taken to be gone (ms). */
    private readonly ttlMs = 30_000,
    /** Frames to hear before trusting that a lone source is alone. */
    private readonly learningFrames = 8,
  ) {}

  /** Records a frame from `source` (frames without one count as one anonymous source); says whether frames must be reordered now. */
  heard(source: string | undefined, now: number): boolean {
    for (const [id, at] of this.lastSeen) if (now - at > this.ttlMs) this.lastSeen.delete(id);
    if (this.lastSeen.size === 0) this.framesHeard = 0;
    this.lastSeen.set(source ?? '', now);
    this.framesHeard++;
    return this.lastSeen.size > 1 || this.framesHeard <= this.learningFrames;
  }
}
