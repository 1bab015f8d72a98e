import { describe, expect, it } from "vitest";
import { mintSignInToken, readSignInToken, SIGN_IN_LINK_MS } from "../../../src/sessions/web-sign-in.js";
import { expectLinear } from "../../helpers/linear-time.js";

const SECRET = "a".repeat(64);

describe("/memory web sign-in tokens", () => {
  it("name their person until they expire, and are refused when forged, edited or from another home", () => {
    const now = new Date("2026-12-03T12:00:00Z");
    const token = mintSignInToken(SECRET, "111", now);
    expect(readSignInToken(SECRET, token, now)).toMatchObject({ ok: true, userId: "111" });
    expect(readSignInToken(SECRET, token, new Date(now.getTime() + SIGN_IN_LINK_MS - 1))).toMatchObject({ ok: true });
    expect(readSignInToken(SECRET, token, new Date(now.getTime() + SIGN_IN_LINK_MS))).toEqual({ ok: false, reason: "expired" });
    expect(readSignInToken("b".repeat(64), token, now)).toEqual({ ok: false, reason: "invalid" });
    expect(readSignInToken(SECRET, token.replace("111", "222"), now)).toEqual({ ok: false, reason: "invalid" });
    expect(readSignInToken(SECRET, `${token}x`, now)).toEqual({ ok: false, reason: "invalid" });
    expect(mintSignInToken(SECRET, "111", now)).not.toBe(token);
  });

  it("reads a megabyte of the worst text in linear time", () => {
    for (const make of [(n: number) => "1".repeat(n), (n: number) => `1.${"a".repeat(n)}`, (n: number) => "1.a.".repeat(n / 4)]) {
      expectLinear(make, (input) => readSignInToken(SECRET, input));
    }
  });
});
