import fastifyCookie from "@fastify/cookie";
import fastifyCsrf from "@fastify/csrf-protection";
import fastifyFormbody from "@fastify/formbody";
import fastifyHelmet from "@fastify/helmet";
import fastifyMultipart from "@fastify/multipart";
import fastifyOauth2, { type OAuth2Namespace } from "@fastify/oauth2";
import fastifyRateLimit from "@fastify/rate-limit";
import fastifySession from "@fastify/session";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type Session } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../config.js";
import type { SessionEngine } from "../engine/session-engine.js";
import type { Logger } from "../lib/logger.js";
import { isChineseLocale, sayIn } from "../lib/locale.js";
import type { SessionStore } from "../sessions/session-store.js";
import { webSecret } from "../sessions/web-sign-in.js";
import { FAVICON, SCRIPT, STYLESHEET } from "./assets.js";
import { registerAuth } from "./auth.js";
import { DiscordLookups } from "./discord-lookups.js";
import { page, banner, type Frame } from "./page.js";
import { perPerson, signedOutKey, WEB_SESSION_MS, type WebContext, type WebDeps } from "./web-context.js";
import { registerConversationPages } from "./pages/conversations.js";
import { registerFilePages } from "./pages/file.js";
import { registerHistoryPages } from "./pages/history.js";
import { registerOverview } from "./pages/overview.js";
import { registerSearchPage } from "./pages/search.js";
import { registerServersPage } from "./pages/servers.js";
import { registerSettingsPages } from "./pages/settings.js";

declare module "fastify" {
  interface FastifyInstance {
    /** Login with Discord (registered only when DISCORD_CLIENT_SECRET is set). */
    discordOAuth2: OAuth2Namespace;
  }
  interface Session {
    /** The Discord id of the person signed in. */
    userId?: string;
    /** When they signed in (ms): "sign out everywhere" ends every session that began before it. */
    signedInAt?: number;
    /** The state of the Login with Discord this browser started: the callback must bring it back. */
    oauthState?: string;
  }
}

/**
 * Under HTTPS the session cookie is `__Host-` prefixed: a browser takes such a cookie only from this
 * host over HTTPS with Path=/, so a sibling subdomain or a plaintext answer cannot plant one (and
 * with it a Login with Discord state bound to it).
 */
const COOKIE = "agentkit_session";
const HOST_COOKIE = `__Host-${COOKIE}`;
/** Pages a person may open a minute (a route may set its own limit). */
const PAGES_A_MINUTE = 120;

/** The browser's first language, as Accept-Language gives it: zh-* is Chinese, anything else English. */
function browserLocale(request: FastifyRequest): string | undefined {
  const header = request.headers["accept-language"];
  return typeof header === "string" ? header.slice(0, 200).split(",")[0]?.trim() : undefined;
}

const langOf = (locale: string | undefined): Frame["lang"] => (isChineseLocale(locale) ? "zh-CN" : "en");

/** @fastify/session's store, over the session store's items: every process of the home sees every sign-in. */
function sessionRecords(store: SessionStore): fastifySession.SessionStore {
  // The cookie holds the id; the store keeps its hash, so a copy of the store signs nobody in.
  const key = (id: string) => `web-session:${createHash("sha256").update(id).digest("hex")}`;
  return {
    set(id, session, done) {
      store.setItem(key(id), session, WEB_SESSION_MS).then(() => done(), done);
    },
    get(id, done) {
      store.getItem<Session>(key(id)).then(
        (session) => done(null, session ?? null),
        (error: unknown) => done(error),
      );
    },
    destroy(id, done) {
      store.deleteItem(key(id)).then(() => done(), done);
    },
  };
}

/** Two strings compared in time that does not tell how much of them matched. */
function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The web page (docs/design.md §12): a front end like discord/ and cli/, over the same engine and store. */
export async function buildWeb(deps: WebDeps): Promise<FastifyInstance> {
  const now = deps.now ?? (() => new Date());
  const secure = deps.config.publicUrl?.startsWith("https://") === true;
  const headers = {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
    },
    hsts: secure,
    crossOriginEmbedderPolicy: false,
  } satisfies HelmetOptions;
  /** Set by the time a request arrives: the page's 400 for a request the router cannot read. */
  let cannotRead: ((request: FastifyRequest, reply: FastifyReply) => void) | undefined;
  const app = Fastify({
    // A reverse proxy on this machine (Caddy, nginx) tells the page it was reached over HTTPS.
    trustProxy: "loopback",
    bodyLimit: 1024 * 1024,
    logger: false,
    // A URL the router cannot decode ("%E0%A4%A") never reaches a hook: without this it is Fastify's
    // JSON 400 with none of the page's headers.
    frameworkErrors: (_error, request, reply) => cannotRead?.(request, reply),
  });
  await app.register(fastifyHelmet, headers);
  await app.register(fastifyFormbody);
  await app.register(fastifyCookie);
  await app.register(fastifySession, {
    secret: deps.secret,
    cookieName: secure ? HOST_COOKIE : COOKIE,
    saveUninitialized: false,
    // A week from signing in, not from the last page: no renewed cookie, no store write per page.
    rolling: false,
    store: sessionRecords(deps.store),
    // "auto": Secure when the request came over HTTPS (directly, or through a proxy on this machine).
    cookie: { httpOnly: true, sameSite: "lax", secure: secure ? true : "auto", maxAge: WEB_SESSION_MS, path: "/" },
  });
  await app.register(fastifyCsrf, {
    sessionPlugin: "@fastify/session",
    getToken: (request) => {
      const body = request.body as Record<string, unknown> | undefined;
      const query = request.query as Record<string, unknown> | undefined;
      const token = (body && typeof body === "object" ? body._csrf : undefined) ?? query?._csrf;
      return typeof token === "string" ? token : "";
    },
  });
  // Every page, per person (per address before signing in): a route's own limit replaces this one.
  if (deps.rateLimits !== false) await app.register(fastifyRateLimit, { global: true, ...perPerson(PAGES_A_MINUTE).rateLimit });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 5, parts: 6 } });
  // Login with Discord needs the address Discord sends people back to.
  const oauth = deps.config.publicUrl ? deps.config.oauth : undefined;
  if (oauth && deps.config.publicUrl) {
    const api = new URL(oauth.apiUrl ?? "https://discord.com/api");
    await app.register(fastifyOauth2, {
      name: "discordOAuth2",
      scope: ["identify"],
      credentials: {
        client: { id: oauth.clientId, secret: oauth.clientSecret },
        auth: {
          authorizeHost: api.origin,
          authorizePath: "/oauth2/authorize",
          tokenHost: api.origin,
          tokenPath: `${api.pathname.replace(/\/$/, "")}/v10/oauth2/token`,
        },
        options: { authorizationMethod: "body" },
      },
      pkce: "S256",
      callbackUri: `${deps.config.publicUrl}/auth/callback`,
      cookie: { secure, sameSite: "lax", httpOnly: true, path: "/auth" },
      // The plugin's own check only compares the callback's state with a cookie, which whoever can
      // write cookies for the host can plant with their own sign-in's (login CSRF): the state is
      // kept in this browser's session instead, and used once.
      hostPrefixedCookies: secure,
      generateStateFunction: (request: FastifyRequest) => {
        const state = randomBytes(24).toString("base64url");
        request.session.oauthState = state;
        return state;
      },
      checkStateFunction: (request: FastifyRequest) => {
        const expected = request.session.oauthState;
        request.session.oauthState = undefined;
        const given = (request.query as { state?: unknown }).state;
        return typeof expected === "string" && typeof given === "string" && sameText(expected, given);
      },
    });
  }

  const ctx: WebContext = {
    ...deps,
    config: { ...deps.config, oauth },
    now,
    discordLookups: deps.config.discord ? new DiscordLookups(deps.config.discord) : undefined,
    visitorSay(request) {
      const locale = browserLocale(request);
      return { say: sayIn(locale), lang: langOf(locale) };
    },
    async person(request, reply) {
      const { userId, signedInAt } = request.session;
      if (!userId) return undefined;
      const signedOut = await deps.store.getItem<number>(signedOutKey(userId));
      const tooOld = now().getTime() - (signedInAt ?? 0) > WEB_SESSION_MS;
      if (tooOld || (signedOut !== undefined && (signedInAt ?? 0) <= signedOut)) {
        await request.session.destroy();
        return undefined;
      }
      // The person's chosen language first: the default persona reads in it too (defaultSoul).
      const memory = deps.engine.memoryOf(userId, browserLocale(request));
      const locale = memory.readSettings().locale ?? browserLocale(request);
      const say = sayIn(locale);
      const csrf = reply.generateCsrf();
      return { userId, memory, say, frame: (current) => ({ say, lang: langOf(locale), csrf, ...(current ? { current } : {}) }) };
    },
    async signOutEverywhere(userId) {
      await deps.store.setItem(signedOutKey(userId), now().getTime(), WEB_SESSION_MS + 3_600_000);
    },
    linePage(reply, status, frame, title, line) {
      return reply
        .code(status)
        .type("text/html; charset=utf-8")
        .send(page(frame, title, banner(status < 400 ? "notice" : "error", line)));
    },
  };

  for (const asset of [STYLESHEET, SCRIPT, FAVICON]) {
    app.get(asset.path, { config: { rateLimit: false } }, (_request, reply) =>
      reply.type(asset.type).header("cache-control", "public, max-age=31536000, immutable").send(asset.body),
    );
  }
  app.addHook("onSend", async (_request, reply, payload) => {
    // Nothing of a person's memory is kept by a browser's or a proxy's cache.
    if (!String(reply.getHeader("cache-control") ?? "").includes("immutable")) reply.header("cache-control", "no-store");
    return payload;
  });
  registerAuth(app, ctx);
  registerOverview(app, ctx);
  registerFilePages(app, ctx);
  registerHistoryPages(app, ctx);
  registerConversationPages(app, ctx);
  registerSearchPage(app, ctx);
  registerServersPage(app, ctx);
  registerSettingsPages(app, ctx);

  const setHeaders = helmet(headers);
  cannotRead = (request, reply) => {
    // The same headers helmet's hook sets on every other answer, and no cache, as onSend does.
    setHeaders(request.raw, reply.raw, () => {
      const { say, lang } = ctx.visitorSay(request);
      reply.header("cache-control", "no-store");
      void ctx.linePage(reply, 400, { say, lang }, say("Refused", "已拒绝"), say("The page could not read that request.", "页面无法读取这个请求。"));
    });
  };

  // Browsers ask for /favicon.ico whatever the page links: sent to the icon.
  app.get("/favicon.ico", { config: { rateLimit: false } }, (_request, reply) => reply.redirect(FAVICON.path, 301));
  app.setNotFoundHandler(async (request, reply) => {
    // Signed in, the page keeps its navigation: a wrong address is not a dead end.
    const person = await ctx.person(request, reply).catch(() => undefined);
    const frame = person ? person.frame() : ctx.visitorSay(request);
    const { say } = frame;
    return ctx.linePage(reply, 404, frame, say("Not found", "未找到"), say("There is no such page.", "没有这个页面。"));
  });
  app.setErrorHandler((error: { statusCode?: number; code?: string; message?: string }, request, reply) => {
    const { say, lang } = ctx.visitorSay(request);
    const frame = { say, lang };
    if (error.code === "FST_CSRF_INVALID_TOKEN" || error.code === "FST_CSRF_MISSING_SECRET") {
      return ctx.linePage(
        reply,
        403,
        frame,
        say("Refused", "已拒绝"),
        say("This form has expired or did not come from this page: go back, reload and try again.", "这个表单已过期或不是来自本页面：请返回、刷新后重试。"),
      );
    }
    if (error.statusCode === 429) {
      return ctx.linePage(
        reply,
        429,
        frame,
        say("Too many requests", "请求太多"),
        say("That was asked for too often in the last minute: wait a minute and try again.", "最近一分钟内请求太频繁：请等一分钟再试。"),
      );
    }
    if (error.statusCode === 413 || error.code === "FST_REQ_FILE_TOO_LARGE") {
      return ctx.linePage(
        reply,
        413,
        frame,
        say("Too large", "太大"),
        say("That is more than the page takes (10 MB a file, 1 MB a form).", "超出了页面能接收的大小（文件 10 MB，表单 1 MB）。"),
      );
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return ctx.linePage(reply, error.statusCode, frame, say("Refused", "已拒绝"), say("The page could not read that request.", "页面无法读取这个请求。"));
    }
    // The route's pattern, not its URL: a sign-in link or a form's token must not reach the log.
    deps.log.error({ err: String(error.message ?? error), route: `${request.method} ${request.routeOptions.url ?? "?"}` }, "web page failed");
    return ctx.linePage(
      reply,
      500,
      frame,
      say("Something went wrong", "出错了"),
      say(
        "Something went wrong on our side. Open the page again to see what was saved, then try again.",
        "我们这边出错了。请重新打开页面查看已保存的内容，然后再试一次。",
      ),
    );
  });
  return app;
}

export interface WebServer {
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  address: string;
  close(): Promise<void>;
}

/** Listens on WEB_HOST:WEB_PORT (a port taken stops the start with one line). */
async function startWeb(deps: WebDeps, where: { port: number; host: string }): Promise<WebServer> {
  const app = await buildWeb(deps);
  const address = await app.listen({ port: where.port, host: where.host });
  deps.log.info({ address, publicUrl: deps.config.publicUrl }, "web page ready");
  return { address, close: () => app.close() };
}

/**
 * The page for a process that has an engine already (the bot, the launcher) or makes one
 * (`npm run web`): WEB_HOST:WEB_PORT, PUBLIC_URL, Login with Discord when set up. Undefined
 * without WEB_PORT.
 */
export async function serveWeb(config: Config, parts: { engine: SessionEngine; store: SessionStore }, log: Logger): Promise<WebServer | undefined> {
  if (!config.web) return undefined;
  const secret = await webSecret(config.home);
  return startWeb({ config, engine: parts.engine, store: parts.store, log, secret }, config.web);
}
