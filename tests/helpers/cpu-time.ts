/**
 * The CPU time this process spent on `work`, in ms: what a linearity check compares. Wall time
 * counts the moments the OS gave the core to another test file (three run at once on two cores),
 * which can make a small input look slow and a large one fast.
 */
export function cpuMs(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const { user, system } = process.cpuUsage(before);
  return (user + system) / 1000;
}
