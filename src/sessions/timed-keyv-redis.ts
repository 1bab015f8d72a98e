import KeyvRedis from "@keyv/redis";
import { withTimeout } from "../lib/with-timeout.js";

/** A Redis call not answered by then fails, so nothing waits on a hung server. */
const COMMAND_TIMEOUT_MS = 3_000;

/**
 * Every call settles within COMMAND_TIMEOUT_MS. The client's own command timeout only covers
 * a command still waiting to be sent: one already sent to a server that stopped answering
 * (a hung or partitioned host) would wait forever.
 */
export function timed<T>(work: Promise<T>): Promise<T> {
  return withTimeout(work, COMMAND_TIMEOUT_MS, `the session store (Redis) did not answer within ${COMMAND_TIMEOUT_MS} ms`);
}

/** @keyv/redis with the calls keyv makes (get, getMany, set, delete) bounded by `timed`. */
export class TimedKeyvRedis extends KeyvRedis<unknown> {
  override get<U = unknown>(key: string): Promise<U | undefined> {
    return timed(super.get<U>(key));
  }

  override getMany<U = unknown>(keys: string[]): Promise<Array<U | undefined>> {
    return timed(super.getMany<U>(keys));
  }

  override set(key: string, value: string, ttl?: number): Promise<void> {
    return timed(super.set(key, value, ttl));
  }

  override delete(key: string): Promise<boolean> {
    return timed(super.delete(key));
  }
}
