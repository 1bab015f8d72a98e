import { createHash, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeDiscord, type FakeDiscord } from "../fakes/fake-discord/index.js";

let discord: FakeDiscord | undefined;
afterEach(async () => {
  await discord?.close();
  discord = undefined;
});

const REDIRECT = "http://127.0.0.1:3000/auth/callback";

/** The browser's part: open the authorize page without following the redirect. */
async function authorize(d: FakeDiscord, overrides: Record<string, string> = {}) {
  const verifier = randomBytes(32).toString("base64url");
  const params = new URLSearchParams({
    client_id: d.applicationId,
    redirect_uri: REDIRECT,
    response_type: "code",
    scope: "identify",
    state: "s-123",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    ...overrides,
  });
  const base = d.apiUrl.replace(/\/api$/, "");
  const response = await fetch(`${base}/oauth2/authorize?${params}`, { redirect: "manual" });
  return { response, verifier, location: response.headers.get("location") };
}

async function token(d: FakeDiscord, fields: Record<string, string>) {
  const response = await fetch(`${d.apiUrl}/v10/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: d.applicationId,
      client_secret: d.oauth2.clientSecret,
      grant_type: "authorization_code",
      redirect_uri: REDIRECT,
      ...fields,
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe("the fake Discord's Login with Discord (OAuth2 code grant with PKCE)", () => {
  it("sends the signed-in person back with a code and the state, trades the code for a token, and /users/@me names them", async () => {
    discord = await startFakeDiscord();
    discord.oauth2.redirectUris.add(REDIRECT);
    discord.oauth2.signedIn = discord.alice.id;
    const { response, verifier, location } = await authorize(discord);
    expect(response.status).toBe(302);
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe("s-123");
    const granted = await token(discord, { code: back.searchParams.get("code")!, code_verifier: verifier });
    expect(granted).toMatchObject({ status: 200, body: { token_type: "Bearer", scope: "identify" } });
    const me = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: `Bearer ${granted.body.access_token}` } });
    expect(await me.json()).toMatchObject({ id: discord.alice.id, username: discord.alice.username });
    // The bot's own token still names the bot.
    const bot = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: `Bot ${discord.token}` } });
    expect(((await bot.json()) as { id: string }).id).toBe(discord.botUser.id);
  });

  it("refuses what Discord refuses: an unknown redirect, no PKCE, nobody signed in, a wrong verifier, a used code, a wrong secret, a bad token", async () => {
    discord = await startFakeDiscord();
    discord.oauth2.redirectUris.add(REDIRECT);
    expect((await authorize(discord)).response.status).toBe(401);
    discord.oauth2.signedIn = discord.bob.id;
    expect((await authorize(discord, { redirect_uri: "http://evil.example/cb" })).response.status).toBe(400);
    expect((await authorize(discord, { code_challenge_method: "plain" })).response.status).toBe(400);
    expect((await authorize(discord, { client_id: "1" })).response.status).toBe(400);
    const first = await authorize(discord);
    const code = new URL(first.location!).searchParams.get("code")!;
    expect(await token(discord, { code, code_verifier: "wrong".repeat(10) })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    // A code is good once: the failed try used it up.
    expect(await token(discord, { code, code_verifier: first.verifier })).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const second = await authorize(discord);
    const secondCode = new URL(second.location!).searchParams.get("code")!;
    expect(await token(discord, { code: secondCode, code_verifier: second.verifier, client_secret: "nope" })).toMatchObject({
      status: 401,
      body: { error: "invalid_client" },
    });
    const me = await fetch(`${discord.apiUrl}/v10/users/@me`, { headers: { authorization: "Bearer made-up" } });
    expect(me.status).toBe(401);
    expect(discord.unhandledRequests).toEqual([]);
  });
});
