/**
 * Long work on the event loop, cut into slices: `pause()` hands the loop back (setImmediate,
 * so timers and I/O of other people run) once the current slice has run `sliceMs`, and costs
 * nothing before that. Call it between steps whose own length is bounded.
 */
export class TimeSlices {
  private sliceStarted = performance.now();

  constructor(private readonly sliceMs = 8) {}

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStarted < this.sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStarted = performance.now();
  }
}
