import { createHash, randomBytes } from "node:crypto";

/**
 * Discord's OAuth2 authorization code grant with PKCE, as a web page needs it ("Login with
 * Discord", scope identify): `GET /oauth2/authorize` (discord.com's page: here the person signed
 * in to the fake's browser session approves at once and is sent back), `POST /api/v10/oauth2/token`
 * and `GET /api/v10/users/@me` with the Bearer token. Enough to test a sign-in end to end; it checks
 * what Discord checks and answers errors in Discord's shape (`{error, error_description}`).
 */
export class FakeOAuth2 {
  /** What the Developer Portal's OAuth2 page holds. */
  clientSecret = "fake-discord-client-secret";
  readonly redirectUris = new Set<string>();
  /** The Discord account signed in to the browser that opens the authorize page; undefined: nobody. */
  signedIn: string | undefined;
  private readonly codes = new Map<string, { userId: string; clientId: string; redirectUri: string; challenge: string; expiresAt: number }>();
  private readonly tokens = new Map<string, { userId: string; expiresAt: number }>();
  /** How long a code and a token live (Discord: 10 minutes and 7 days). */
  codeMs = 10 * 60_000;
  tokenMs = 7 * 24 * 3_600_000;

  constructor(private readonly applicationId: string) {}

  /** GET /oauth2/authorize: a redirect with `code` and `state`, or an error page (status and a line). */
  authorize(query: URLSearchParams): { status: 302; location: string } | { status: number; error: string } {
    const redirectUri = query.get("redirect_uri") ?? "";
    if (query.get("client_id") !== this.applicationId) return { status: 400, error: "Unknown application" };
    if (!this.redirectUris.has(redirectUri)) return { status: 400, error: "Invalid OAuth2 redirect_uri" };
    if (query.get("response_type") !== "code") return { status: 400, error: "Invalid response_type" };
    if (!(query.get("scope") ?? "").split(" ").includes("identify")) return { status: 400, error: "Invalid scope" };
    const challenge = query.get("code_challenge") ?? "";
    if (query.get("code_challenge_method") !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return { status: 400, error: "Invalid code_challenge" };
    if (!this.signedIn) return { status: 401, error: "Log in to continue to the app" };
    const code = randomBytes(15).toString("hex");
    this.codes.set(code, { userId: this.signedIn, clientId: this.applicationId, redirectUri, challenge, expiresAt: Date.now() + this.codeMs });
    const back = new URL(redirectUri);
    back.searchParams.set("code", code);
    const state = query.get("state");
    if (state !== null) back.searchParams.set("state", state);
    return { status: 302, location: back.toString() };
  }

  /** POST /oauth2/token (form fields): a Bearer token for the code's person, or Discord's error. */
  token(fields: Record<string, string>): { status: number; body: unknown } {
    const invalid = (error: string, description: string, status = 400) => ({ status, body: { error, error_description: description } });
    if (fields.client_id !== this.applicationId || fields.client_secret !== this.clientSecret) return invalid("invalid_client", "Invalid client", 401);
    if (fields.grant_type !== "authorization_code") return invalid("unsupported_grant_type", "Unsupported grant type");
    const grant = this.codes.get(fields.code ?? "");
    // A code is good once, whatever happens next.
    this.codes.delete(fields.code ?? "");
    if (!grant || grant.expiresAt < Date.now()) return invalid("invalid_grant", 'Invalid "code" in request.');
    if (fields.redirect_uri !== grant.redirectUri) return invalid("invalid_grant", 'Invalid "redirect_uri" in request.');
    const verifier = fields.code_verifier ?? "";
    if (createHash("sha256").update(verifier).digest("base64url") !== grant.challenge) return invalid("invalid_grant", 'Invalid "code_verifier"');
    const accessToken = randomBytes(20).toString("hex");
    this.tokens.set(accessToken, { userId: grant.userId, expiresAt: Date.now() + this.tokenMs });
    return {
      status: 200,
      body: {
        access_token: accessToken,
        token_type: "Bearer",
        expires_in: Math.round(this.tokenMs / 1000),
        refresh_token: randomBytes(20).toString("hex"),
        scope: "identify",
      },
    };
  }

  /** The person a Bearer token stands for; undefined when it is unknown or expired. */
  userOf(authorization: string | undefined): string | undefined {
    const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
    const grant = token === undefined ? undefined : this.tokens.get(token);
    return grant && grant.expiresAt > Date.now() ? grant.userId : undefined;
  }
}
