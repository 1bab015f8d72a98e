/**
 * For long loops that must not hold the event loop (forgetting over thousands of files): call the
 * returned function in the loop; once `sliceMs` of work has run since the last pause it gives the
 * event loop a turn (timers, other people's replies) before going on.
 */
export function slicer(sliceMs = 10): () => Promise<void> {
  let sliceStarted = performance.now();
  return async () => {
    if (performance.now() - sliceStarted < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    sliceStarted = performance.now();
  };
}
