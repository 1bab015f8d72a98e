import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../lib/private-files.js";
import type { SessionStore } from "./session-store.js";
import { SNOWFLAKE_DIGITS } from "../lib/snowflake.js";

/** `<person id>.<issued, base 36>.<nonce>.<signature>`; each part one bounded class: linear. */
const SIGN_IN_TOKEN = new RegExp(`^(${SNOWFLAKE_DIGITS})\\.([0-9a-z]{1,12})\\.([A-Za-z0-9_-]{16})\\.([A-Za-z0-9_-]{43})$`);

/** How long a `/memory web` link may be opened. */
export const SIGN_IN_LINK_MS = 10 * 60_000;
const SECRET_FILE = "web-secret";

/**
 * The key that signs the web page's cookies and `/memory web` links: made once per home
 * ($AGENTKIT_HOME/web-secret, mode 600) and read by every process of that home, so a link
 * the bot mints is good on the page `npm run web` serves. The first writer wins (exclusive
 * create); a second one reads what the first wrote.
 */
export async function webSecret(home: string): Promise<string> {
  const path = join(home, SECRET_FILE);
  const read = async () => (await readFile(path, "utf8")).trim();
  try {
    const secret = await read();
    if (/^[0-9a-f]{64}$/.test(secret)) return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(home, { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFile(path, randomBytes(32).toString("hex"), { mode: PRIVATE_FILE_MODE, flag: "wx" }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  const secret = await read();
  if (!/^[0-9a-f]{64}$/.test(secret)) throw new Error(`${path} is not a web secret (64 hex digits): remove it and start again`);
  return secret;
}

const sign = (secret: string, payload: string) => createHmac("sha256", secret).update(`sign-in-link:${payload}`).digest("base64url");

/** A one-time sign-in for one person, good for SIGN_IN_LINK_MS: `<person>.<expiry>.<nonce>.<signature>`. */
export function mintSignInToken(secret: string, userId: string, now = new Date()): string {
  const payload = `${userId}.${(now.getTime() + SIGN_IN_LINK_MS).toString(36)}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${sign(secret, payload)}`;
}

export type SignInCheck = { ok: true; userId: string; nonce: string; expiresAt: number } | { ok: false; reason: "invalid" | "expired" | "used" };

/** Whether a token is ours, for whom, and unexpired; it is not used up here (see useSignInToken). */
export function readSignInToken(secret: string, token: string, now = new Date()): SignInCheck {
  const match = SIGN_IN_TOKEN.exec(token);
  if (!match) return { ok: false, reason: "invalid" };
  const [, userId, expiry, nonce, signature] = match as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, `${userId}.${expiry}.${nonce}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: "invalid" };
  const expiresAt = Number.parseInt(expiry, 36);
  if (expiresAt <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, userId, nonce, expiresAt };
}

/** Whether a link's one use is gone already: its page says so before anyone presses Sign in. Reads only. */
export async function signInTokenUsed(store: SessionStore, nonce: string): Promise<boolean> {
  return (await store.holderOf(`sign-in-link:${nonce}`)) !== undefined;
}

/**
 * Uses a token up: the first caller, in any process of the store, gets the person; every later
 * one "used". The claim outlives the token, and each attempt claims as a new owner, so a second
 * use is refused however close it follows the first.
 */
export async function useSignInToken(store: SessionStore, secret: string, token: string, now = new Date()): Promise<SignInCheck> {
  const check = readSignInToken(secret, token, now);
  if (!check.ok) return check;
  const first = await store.claim(`sign-in-link:${check.nonce}`, randomBytes(8).toString("hex"), SIGN_IN_LINK_MS * 2);
  return first ? check : { ok: false, reason: "used" };
}
