import { Mutex } from "async-mutex";

/**
 * One async-mutex per key (a session, a person's folder, a channel), dropped once nobody holds
 * or waits for it, so the map does not grow with every key ever seen.
 */
export class KeyedMutex {
  private readonly mutexes = new Map<string, Mutex>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    let mutex = this.mutexes.get(key);
    if (!mutex) {
      mutex = new Mutex();
      this.mutexes.set(key, mutex);
    }
    try {
      return await mutex.runExclusive(work);
    } finally {
      if (!mutex.isLocked()) this.mutexes.delete(key);
    }
  }
}
