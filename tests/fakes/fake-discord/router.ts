import type { FakeDiscordWorld } from "./discord-actions.js";
import type { DiscordFailure } from "./discord-errors.js";

export interface UploadedFile {
  /** The form field name, `files[n]` as discord.js sends them. */
  key: string;
  filename: string;
  contentType: string | null;
  data: Buffer;
}

export interface ParsedRequest {
  method: string;
  /** Path below `/api/v10`. */
  path: string;
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The JSON body, or `payload_json` of a multipart body, or the fields of a form. */
  body: unknown;
  files: UploadedFile[];
  /** The Authorization header as sent (routes that take a Bearer token read it). */
  authorization?: string | undefined;
}

export interface RouteResponse {
  status: number;
  body?: unknown;
}

export type RouteOutcome = RouteResponse | DiscordFailure;

export interface Route {
  method: string;
  /** e.g. `/channels/:channelId/messages/:messageId`; literal segments such as `@me` win when listed first. */
  pattern: string;
  /** Interaction callbacks and webhooks are authorised by the token in the URL, not the bot token. */
  needsBotToken: boolean;
  handle(request: ParsedRequest, world: FakeDiscordWorld): RouteOutcome | Promise<RouteOutcome>;
}

export function route(method: string, pattern: string, handle: Route["handle"], options: { needsBotToken?: boolean } = {}): Route {
  return { method, pattern, needsBotToken: options.needsBotToken ?? true, handle };
}

export function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split("/").filter(Boolean);
  for (const candidate of routes) {
    if (candidate.method !== method) continue;
    const patternSegments = candidate.pattern.split("/").filter(Boolean);
    if (patternSegments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = patternSegments.every((part, index) => {
      const actual = decodeURIComponent(segments[index] ?? "");
      if (part.startsWith(":")) {
        params[part.slice(1)] = actual;
        return true;
      }
      return part === actual;
    });
    if (matches) return { route: candidate, params };
  }
  return undefined;
}

/** A path parameter the route pattern guarantees. */
export function param(request: ParsedRequest, name: string): string {
  const value = request.params[name];
  if (value === undefined) throw new Error(`route has no :${name} parameter`);
  return value;
}

export const json = (body: unknown, status = 200): RouteResponse => ({ status, body });
export const noContent = (): RouteResponse => ({ status: 204 });
