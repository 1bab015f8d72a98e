/**
 * Long work on the event loop, cut into slices: `pause()` hands the loop back (setImmediate,
 * so timers and I/O of other people run) once the current slice has run `sliceMs`, and costs
 * nothing before that. Call it between steps whose own length is bounded.
 */
export class TimeSlices {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = 8) {}

  /** `pause` of a new TimeSlices as a plain function, for loops that pass it along. */
  static pacer(sliceMs?: number): () => Promise<void> {
    const slices = new TimeSlices(sliceMs);
    return () => slices.pause();
  }

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStarted = performance.now();
  }
}
