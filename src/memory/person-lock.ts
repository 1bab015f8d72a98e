import { Mutex } from "async-mutex";

/** One mutex per person folder: every write of one person runs in turn. */
const mutexes = new Map<string, Mutex>();

export function withPersonLock<T>(folder: string, work: () => Promise<T>): Promise<T> {
  let mutex = mutexes.get(folder);
  if (!mutex) {
    mutex = new Mutex();
    mutexes.set(folder, mutex);
  }
  return mutex.runExclusive(work);
}
