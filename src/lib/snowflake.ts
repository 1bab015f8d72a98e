/**
 * A Discord id (a "snowflake"): digits only, at most 20 of them (a 64-bit number). Every check of
 * an id that names a folder, a file, a session or a setting goes through here, so a path is never
 * built from anything else. The pattern is one class with a bound: linear on any input.
 */
export type Snowflake = string & { readonly snowflake: unique symbol };

/** The digits of one id, for patterns that hold several (`guild/message`, `<id>.sqlite`). */
export const SNOWFLAKE_DIGITS = "\\d{1,20}";

const SNOWFLAKE = new RegExp(`^${SNOWFLAKE_DIGITS}$`);

export function isSnowflake(value: unknown): value is Snowflake {
  return typeof value === "string" && SNOWFLAKE.test(value);
}

/** `channel/message`: where a message came from, as conversation files and session records note it. */
export const MESSAGE_PLACE = new RegExp(`^${SNOWFLAKE_DIGITS}/${SNOWFLAKE_DIGITS}$`);
