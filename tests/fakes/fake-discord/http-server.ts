import type { IncomingMessage, ServerResponse } from "node:http";
import type { FakeDiscordWorld } from "./discord-actions.js";
import { DiscordFailure, failures } from "./discord-errors.js";
import type { RecordedRequest } from "./model.js";
import { matchRoute, type ParsedRequest, type Route, type RouteOutcome, type UploadedFile } from "./router.js";

export interface FailNextOptions {
  /** Any method when left out. */
  method?: string;
  /** A route pattern (`/channels/:channelId/messages/:messageId`), an exact path, or a RegExp tested on the path. */
  route: string | RegExp;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail; 1 when left out. */
  times?: number;
  /** For 429s: the wait Discord asks for, in seconds; fractions keep tests fast. Defaults to 0.05. */
  retryAfterSeconds?: number;
}

interface FaultRule {
  method: string | undefined;
  route: string | RegExp;
  remaining: number;
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

const API_PREFIX = "/api/v10";

/** The HTTP side of the fake: parses, authorises, records and routes every request under /api/v10. */
export class FakeRestServer {
  private readonly faults: FaultRule[] = [];

  constructor(
    private readonly world: FakeDiscordWorld,
    private readonly routes: readonly Route[],
  ) {}

  failNext(options: FailNextOptions): void {
    const retryAfter = options.retryAfterSeconds ?? 0.05;
    const rateLimited = options.status === 429;
    this.faults.push({
      method: options.method?.toUpperCase(),
      route: options.route,
      remaining: options.times ?? 1,
      status: options.status,
      body:
        options.body ??
        (rateLimited
          ? { message: "You are being rate limited.", retry_after: retryAfter, global: false }
          : { message: `${options.status}: fake Discord failure`, code: 0 }),
      headers: {
        ...(rateLimited ? rateLimitHeaders(retryAfter) : {}),
        ...options.headers,
      },
    });
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = (request.method ?? "GET").toUpperCase();
    const raw = await readBody(request);

    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || "/" : url.pathname;
    const record: RecordedRequest = {
      method,
      path,
      route: null,
      query: Object.fromEntries(url.searchParams),
      body: undefined,
      files: [],
      at: Date.now(),
      status: 0,
    };
    const reply = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      this.world.state.restRequests.push(record);
      writeJson(response, status, body, headers);
    };

    // discord.com's authorize page, outside the API: the signed-in person approves and is sent back.
    if (method === "GET" && url.pathname === "/oauth2/authorize") {
      const answer = this.world.state.oauth2.authorize(url.searchParams);
      record.route = "/oauth2/authorize";
      if ("location" in answer) return reply(302, undefined, { location: answer.location });
      return reply(answer.status, { message: answer.error });
    }

    let parsed: { body: unknown; files: UploadedFile[] };
    try {
      parsed = await parseBody(request.headers["content-type"], raw);
    } catch {
      return reply(400, { message: "The request body contains invalid JSON.", code: 50109 });
    }
    record.body = parsed.body;
    record.files = parsed.files.map((f) => ({ key: f.key, filename: f.filename, size: f.data.length }));

    const matched = url.pathname.startsWith(API_PREFIX) ? matchRoute(this.routes, method, path) : undefined;
    if (!matched) {
      this.world.state.unhandledRequests.push(record);
      return reply(404, failures.notFound().toJSON());
    }
    record.route = matched.route.pattern;
    if (matched.route.needsBotToken && request.headers.authorization !== `Bot ${this.world.state.token}`) {
      return reply(401, failures.unauthorized().toJSON());
    }
    const fault = this.takeFault(method, path, matched.route.pattern);
    if (fault) return reply(fault.status, fault.body, fault.headers);

    const parsedRequest: ParsedRequest = {
      method,
      path,
      params: matched.params,
      query: url.searchParams,
      ...parsed,
      authorization: request.headers.authorization,
    };
    let outcome: RouteOutcome;
    try {
      outcome = await matched.route.handle(parsedRequest, this.world);
    } catch (error) {
      // A bug in the fake, not a Discord answer: make it visible to tests that check unhandledRequests.
      console.error(`fake Discord failed on ${method} ${path}:`, error);
      this.world.state.unhandledRequests.push(record);
      return reply(500, { message: "500: Internal Server Error", code: 0 });
    }
    if (outcome instanceof DiscordFailure) return reply(outcome.status, outcome.toJSON());
    reply(outcome.status, outcome.body);
  }

  private takeFault(method: string, path: string, pattern: string): FaultRule | undefined {
    const fault = this.faults.find(
      (rule) =>
        rule.remaining > 0 &&
        (rule.method === undefined || rule.method === method) &&
        (typeof rule.route === "string" ? rule.route === pattern || rule.route === path : rule.route.test(path)),
    );
    if (fault) fault.remaining -= 1;
    return fault;
  }
}

function rateLimitHeaders(retryAfterSeconds: number): Record<string, string> {
  return {
    "retry-after": String(retryAfterSeconds),
    "x-ratelimit-limit": "5",
    "x-ratelimit-remaining": "0",
    "x-ratelimit-reset": String((Date.now() + retryAfterSeconds * 1000) / 1000),
    "x-ratelimit-reset-after": String(retryAfterSeconds),
    "x-ratelimit-bucket": "fake-discord-bucket",
    "x-ratelimit-scope": "user",
  };
}

function writeJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (status === 204 || body === undefined) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function parseBody(contentType: string | undefined, raw: Buffer): Promise<{ body: unknown; files: UploadedFile[] }> {
  if (raw.length === 0) return { body: undefined, files: [] };
  if (contentType?.startsWith("multipart/form-data")) {
    // Node's fetch Request already knows how to read multipart bodies.
    const form = await new Request("http://fake-discord/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: raw,
    }).formData();
    const files: UploadedFile[] = [];
    const fields: Record<string, string> = {};
    for (const [key, value] of form.entries()) {
      if (typeof value === "string") {
        fields[key] = value;
        continue;
      }
      files.push({
        key,
        filename: value.name,
        contentType: value.type || null,
        data: Buffer.from(await value.arrayBuffer()),
      });
    }
    const body = fields.payload_json !== undefined ? (JSON.parse(fields.payload_json) as unknown) : fields;
    return { body, files };
  }
  if (contentType?.startsWith("application/x-www-form-urlencoded")) return { body: Object.fromEntries(new URLSearchParams(raw.toString("utf8"))), files: [] };
  return { body: JSON.parse(raw.toString("utf8")) as unknown, files: [] };
}
