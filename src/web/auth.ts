import { stat } from "node:fs/promises";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Say } from "../lib/locale.js";
import { readSignInToken, signInTokenUsed, useSignInToken } from "../sessions/web-sign-in.js";
import type { WebContext } from "./web-context.js";
import { banner, csrfField, html, page, type Frame } from "./page.js";
import { signInAccess } from "./who-may-sign-in.js";
import { isSnowflake } from "../lib/snowflake.js";

/** Sign-in routes: a few tries a minute from one address (the one-time links and Discord's callback). */
const SIGN_IN_LIMIT = { rateLimit: { max: 10, timeWindow: "1 minute" } };

/** The page a visitor who is not signed in sees: how to sign in, in their browser's language. */
export function signInPage(ctx: WebContext, request: FastifyRequest, reply: FastifyReply, status = 200, error?: string): FastifyReply {
  const { say, lang } = ctx.visitorSay(request);
  const frame: Frame = { say, lang };
  const discord = ctx.config.oauth
    ? html`<p><a href="/auth/discord">${say("Sign in with Discord", "用 Discord 登录")}</a></p>`
    : html`<p class="muted">${say("Sign-in with Discord is not set up on this bot.", "这个机器人没有设置 Discord 登录。")}</p>`;
  const body = html`!${banner("error", error)}
<p>${say("See and edit what AgentKit remembers about you: your profile, its notes, the history of every change, and every conversation.", "查看和编辑 AgentKit 记得的关于你的一切：你的资料、它的笔记、每次改动的记录，以及每一段对话。")}</p>
!${discord}
<p>${say("Or type /memory web in Discord: it gives you a sign-in link of your own (good for 10 minutes, once).", "或在 Discord 里输入 /memory web：它会给你一个专属登录链接（10 分钟内有效，只能用一次）。")}</p>`;
  return reply
    .code(status)
    .type("text/html; charset=utf-8")
    .send(page(frame, say("Your memory", "你的记忆"), body));
}

/** A new sign-in: a new session id (no id set before signing in survives it), the person and the time. */
async function signIn(request: FastifyRequest, userId: string, now: Date): Promise<void> {
  await request.session.regenerate();
  request.session.userId = userId;
  request.session.signedInAt = now.getTime();
}

function linkProblem(reason: "invalid" | "expired" | "used", say: Say): string {
  if (reason === "expired")
    return say(
      "This sign-in link has expired (links last 10 minutes): type /memory web in Discord for a new one.",
      "这个登录链接已过期（10 分钟有效）：请在 Discord 里输入 /memory web 获取新链接。",
    );
  if (reason === "used")
    return say(
      "This sign-in link was used already (each works once): type /memory web in Discord for a new one.",
      "这个登录链接已经用过了（每个只能用一次）：请在 Discord 里输入 /memory web 获取新链接。",
    );
  return say(
    "This is not a sign-in link of this bot: type /memory web in Discord for one.",
    "这不是这个机器人的登录链接：请在 Discord 里输入 /memory web 获取。",
  );
}

export function registerAuth(app: FastifyInstance, ctx: WebContext): void {
  // A link opened (by the person, or by a preview that fetches links) only shows a button: the POST uses it up.
  app.get<{ Params: { token: string } }>("/auth/link/:token", { config: SIGN_IN_LIMIT }, async (request, reply) => {
    const { say, lang } = ctx.visitorSay(request);
    const check = readSignInToken(ctx.secret, request.params.token.slice(0, 200), ctx.now());
    if (!check.ok) return signInPage(ctx, request, reply, check.reason === "invalid" ? 404 : 410, linkProblem(check.reason, say));
    // A used link says so at once, not after a click on Sign in.
    // A store that does not answer shows the page: the POST, which uses the link up, decides.
    if (await signInTokenUsed(ctx.store, check.nonce).catch(() => false)) return signInPage(ctx, request, reply, 410, linkProblem("used", say));
    const frame: Frame = { say, lang, csrf: reply.generateCsrf() };
    // Whose memory it opens, and a warning when someone else is signed in here: a link someone sent is not yours.
    const other = request.session.userId && request.session.userId !== check.userId;
    const body = html`<form method="post" action="/auth/link/${request.params.token}">!${csrfField(frame)}
<p>${say(`This link signs you in to the memory of Discord account ${check.userId} on this browser. Use only a link you got from /memory web yourself.`, `这个链接会在这个浏览器上登录 Discord 账号 ${check.userId} 的记忆。只使用你自己通过 /memory web 得到的链接。`)}</p>
!${other ? banner("error", say(`You are signed in here as another account (${request.session.userId}); signing in with this link switches to ${check.userId}.`, `你在这里已经以另一个账号（${request.session.userId}）登录；用这个链接登录会切换到 ${check.userId}。`)) : ""}
<button type="submit">${say("Sign in", "登录")}</button></form>`;
    return reply.type("text/html; charset=utf-8").send(page({ say, lang }, say("Sign in", "登录"), body));
  });

  app.post<{ Params: { token: string } }>("/auth/link/:token", { config: SIGN_IN_LIMIT, preHandler: app.csrfProtection }, async (request, reply) => {
    const { say } = ctx.visitorSay(request);
    const now = ctx.now();
    const used = await useSignInToken(ctx.store, ctx.secret, request.params.token.slice(0, 200), now);
    if (!used.ok) return signInPage(ctx, request, reply, used.reason === "invalid" ? 404 : 410, linkProblem(used.reason, say));
    await signIn(request, used.userId, now);
    return reply.redirect("/", 303);
  });

  if (ctx.config.oauth) {
    // Their folder, or a session in the session store (a first session writes nothing to the folder).
    const hasMemory = async (userId: string) =>
      (await stat(ctx.engine.memoryOf(userId).dir).catch(() => undefined))?.isDirectory() === true ||
      (await ctx.store.sessionsOf(userId).catch(() => [])).length > 0;
    const mayUse = signInAccess(ctx.config, ctx.discordLookups, hasMemory);
    app.get("/auth/discord", { config: SIGN_IN_LIMIT }, async (request, reply) => {
      const uri = await app.discordOAuth2.generateAuthorizationUri(request, reply);
      return reply.redirect(uri, 302);
    });
    app.get("/auth/callback", { config: SIGN_IN_LIMIT }, async (request, reply) => {
      const { say } = ctx.visitorSay(request);
      const refused = say(
        "Discord did not sign you in (the sign-in was cancelled, expired or came from elsewhere): try again.",
        "Discord 没有让你登录（登录被取消、已过期或来自别处）：请再试一次。",
      );
      let accessToken: string;
      try {
        accessToken = (await app.discordOAuth2.getAccessTokenFromAuthorizationCodeFlow(request, reply)).token.access_token;
      } catch {
        return signInPage(ctx, request, reply, 400, refused);
      }
      const api = (ctx.config.oauth!.apiUrl ?? "https://discord.com/api").replace(/\/$/, "");
      const me = await fetch(`${api}/v10/users/@me`, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) }).catch(
        () => undefined,
      );
      const user = me?.ok ? ((await me.json().catch(() => undefined)) as { id?: unknown } | undefined) : undefined;
      if (!isSnowflake(user?.id)) return signInPage(ctx, request, reply, 502, refused);
      const refusal = await mayUse(user.id).catch(() => "check-failed" as const);
      if (refusal === "check-failed")
        return signInPage(
          ctx,
          request,
          reply,
          503,
          say(
            "I couldn't check with Discord whether you may use this bot just now. Try again in a minute, or type /memory web in Discord.",
            "我现在无法向 Discord 确认你是否可以使用这个机器人。请过一分钟再试，或在 Discord 里输入 /memory web。",
          ),
        );
      if (refusal)
        return signInPage(
          ctx,
          request,
          reply,
          403,
          say(
            "This bot does not serve your Discord account, so there is no memory of yours here. If you use it in a server, type /memory web there.",
            "这个机器人不为你的 Discord 账号服务，所以这里没有你的记忆。如果你在某个服务器里使用它，请在那里输入 /memory web。",
          ),
        );
      await signIn(request, user.id, ctx.now());
      return reply.redirect("/", 303);
    });
  }

  app.post("/auth/sign-out", { preHandler: app.csrfProtection }, async (request, reply) => {
    await request.session.destroy();
    return reply.redirect("/", 303);
  });

  app.post("/auth/sign-out-everywhere", { preHandler: app.csrfProtection }, async (request, reply) => {
    const userId = request.session.userId;
    // Every session of theirs that began before now ends, in every browser and every process.
    if (userId) await ctx.signOutEverywhere(userId);
    await request.session.destroy();
    return reply.redirect("/", 303);
  });
}
