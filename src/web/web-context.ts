import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../config.js";
import type { SessionEngine } from "../engine/session-engine.js";
import type { Logger } from "../lib/logger.js";
import type { Say } from "../lib/locale.js";
import type { MemoryStore } from "../memory/index.js";
import type { SessionStore } from "../sessions/session-store.js";
import type { DiscordLookups } from "./discord-lookups.js";
import type { Frame, NavItem } from "./page.js";

/** What the web page's routes share (server.ts builds it; auth.ts and pages/ use it). */
/** How long a sign-in lasts: a week from signing in (the cookie and the record alike). */
export const WEB_SESSION_MS = 7 * 24 * 3_600_000;

export interface WebDeps {
  /** The allow lists and the bot's token decide who may sign in with Discord; without them, anyone. */
  config: Pick<Config, "publicUrl" | "oauth"> & Partial<Pick<Config, "allowed" | "discord">>;
  engine: SessionEngine;
  store: SessionStore;
  log: Logger;
  /** $AGENTKIT_HOME/web-secret (sessions/web-sign-in.ts): signs cookies and /memory web links. */
  secret: string;
  now?: () => Date;
  /** false: no rate limits (the benchmark times the pages themselves). */
  rateLimits?: boolean;
}

/** What a page handler gets for the person signed in. */
export interface PersonContext {
  userId: string;
  memory: MemoryStore;
  say: Say;
  frame: (current?: NavItem) => Frame;
}

export interface WebContext extends WebDeps {
  now: () => Date;
  /** Membership and server names, asked of Discord with the bot's token; undefined without DISCORD_TOKEN. */
  discordLookups: DiscordLookups | undefined;
  /** The person signed in, or undefined (the handler answers with the sign-in page). */
  person(request: FastifyRequest, reply: FastifyReply): Promise<PersonContext | undefined>;
  /** The words of a visitor who is not signed in: the browser's language. */
  visitorSay(request: FastifyRequest): { say: Say; lang: Frame["lang"] };
  /** Ends every sign-in of the person begun before now, in every browser and every process. */
  signOutEverywhere(userId: string): Promise<void>;
  /** An answer page with one line, in the visitor's or the person's words. */
  linePage(reply: FastifyReply, status: number, frame: Frame, title: string, line: string): FastifyReply;
}

/** The session-store item that ends a person's sign-ins begun before its time ("sign out everywhere", delete-all). */
export const signedOutKey = (userId: string) => `web-signed-out:${userId}`;

/**
 * A route's limit per signed-in person (a visitor: per address), a minute at a time: what costs the
 * bot (a search may ask the embeddings server, an import reads 10 MB, a write takes the person's
 * lock) cannot be asked for without end. Checked after the session is read.
 */
export function perPerson(max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: "1 minute",
      hook: "preHandler" as const,
      keyGenerator: (request: FastifyRequest) => (request.session?.userId ? `person:${request.session.userId}` : request.ip),
    },
  };
}
