import { config as loadDotenv } from "dotenv";
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { isValidTimeZone } from "./lib/time.js";
import { DEFAULT_CONTEXT_TOKENS, OPENAI_CONTEXT_TOKENS } from "./lib/tokens.js";
import { isSnowflake } from "./lib/snowflake.js";

/** Which front end is starting: each validates only what it needs ("operator": `npm run memory`). */
export type FrontEnd = "discord" | "chat" | "deploy" | "operator" | "web";

export interface Config {
  home: string;
  timeZone: string | undefined;
  openai: {
    apiKey: string;
    baseURL: string;
    model: string;
    timeoutMs: number;
    streamIdleMs: number;
    /** OPENAI_LONG_TIMEOUT_SECONDS: the first token of a summary, condensing or tidy-up (slow hardware reads long prompts for minutes). */
    longTimeoutMs: number;
    /** OPENAI_CONTEXT_TOKENS: the model's context; bounds the frozen prompt, the history and the tidy-up's sources. */
    contextTokens: number;
    /** OPENAI_EMBEDDING_MODEL: recall adds a semantic ranking when set. */
    embeddingModel: string | undefined;
  };
  sessionStoreUrl: string | undefined;
  sessionIdleMinutes: number;
  dailyDays: number;
  historyBudgetChars: number;
  /** What one person may ask of the bot in Discord at once and per minute (§5). */
  fairUse: FairUseLimits;
  /** How much memory history the journal keeps: the newest N changes of the last D days. */
  journal: { entries: number; days: number };
  /** STORAGE_QUOTA_MB in bytes: everything stored for one person (memory/storage-quota.ts). */
  storageQuotaBytes: number;
  /** What a person's Discord attachments may bring into a turn. */
  attachments: AttachmentLimits;
  allowed: { guildIds: string[]; userIds: string[]; roleIds: string[] };
  allowDms: boolean;
  /** Who besides Manage Server may write a server's notes, and where the model's suggestions go (unset: the thread). */
  serverNotes: { roleId: string | undefined; channelId: string | undefined };
  /** level is undefined when LOG_LEVEL is unset: each front end has its own default. */
  /** pretty undefined when LOG_PRETTY is unset: readable lines on a terminal, JSON lines otherwise. */
  log: { level: string | undefined; pretty: boolean | undefined };
  discord?: { token: string; clientId: string; guildId: string | undefined; apiUrl: string | undefined };
  /** SHARD_COUNT: run under discord.js's ShardingManager, one process per shard ("auto": as Discord recommends). */
  shardCount: number | "auto" | undefined;
  /** SHARD_SPAWN_DELAY_MS: between two shards' starts (Discord lets a bot identify once per 5 s unless it has a higher max_concurrency). */
  shardSpawnDelayMs: number;
  /** In a shard's process: its id (SHARDS, set by the ShardingManager). */
  shardId: number | undefined;
  /** The nightly tidy-up: TIDY_AT (local "HH:mm" in each person's zone) and TIDY_CONCURRENCY (runs at once per process; 0: none). */
  tidy: { at: string; concurrency: number };
  /** METRICS_PORT set: /healthz and /metrics on this address (a shard adds its id to the port). */
  metrics: { port: number; host: string } | undefined;
  /** WEB_PORT set: the web page (docs/design.md §12) on WEB_HOST:WEB_PORT. */
  web: { port: number; host: string } | undefined;
  /** PUBLIC_URL, or http://WEB_HOST:WEB_PORT: the address people open (sign-in links, Login with Discord's redirect). No trailing slash. */
  publicUrl: string | undefined;
  /** DISCORD_CLIENT_SECRET set: Login with Discord on the web page (the application id and the API address come with it). */
  oauth: { clientId: string; clientSecret: string; apiUrl: string | undefined } | undefined;
}

export interface AttachmentLimits {
  /** OPENAI_VISION: the model takes images (image parts); otherwise the bot says it cannot see them. */
  vision: boolean;
  imageBytes: number;
  imagesPerMessage: number;
  /** Text read from one file, and from all files of one message. */
  fileBytes: number;
  messageBytes: number;
}

export interface FairUseLimits {
  /** PERSON_MESSAGES_PER_MINUTE: messages (and /chat) a person may send in any 60 s; more are not read. */
  messagesPerMinute: number;
  /** PERSON_TURNS_AT_ONCE: conversations answering one person at the same time. */
  turnsAtOnce: number;
  /** SESSION_QUEUE_MAX: messages that wait in a conversation while it answers; they are answered together. */
  queuePerSession: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super([...problems.map((p) => `Configuration: ${p}`), ...(envFileMissing ? [NO_ENV_FILE()] : [])].join("\n"));
    this.name = "ConfigError";
  }
}

/** Set when `.env` was looked for in the working directory and is not there. */
let envFileMissing = false;
const NO_ENV_FILE = () => `(there is no .env in ${process.cwd()}: copy .env.example to .env there and fill it in, or run from the folder that has it)`;

const DEFAULT_OPENAI_URL = "https://api.openai.com/v1";
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));
const idList = (example: string) =>
  optionalText
    .transform((v) =>
      v
        ? v
            .split(",")
            .map((id) => id.trim())
            .filter(Boolean)
        : [],
    )
    .refine((ids) => ids.every((id) => isSnowflake(id)), `must be Discord ids separated by commas (e.g. ${example})`);
const flag = (fallback: boolean) =>
  optionalText
    .refine((v) => v === undefined || /^(1|0|true|false|yes|no|on|off)$/i.test(v), "must be true or false (e.g. true)")
    .transform((v) => (v === undefined ? fallback : /^(1|true|yes|on)$/i.test(v)));
const positiveNumber = (fallback: number, example: string) =>
  optionalText
    .refine((v) => v === undefined || (Number.isFinite(Number(v)) && Number(v) > 0), `must be a positive number (e.g. ${example})`)
    .transform((v) => (v === undefined ? fallback : Number(v)));
const wholeNumber = (fallback: number, example: string, { min }: { min: number }) =>
  optionalText
    .refine((v) => v === undefined || (/^\d{1,6}$/.test(v) && Number(v) >= min), `must be a whole number of at least ${min} (e.g. ${example})`)
    .transform((v) => (v === undefined ? fallback : Number(v)));

const commonSchema = z.object({
  AGENTKIT_HOME: optionalText,
  AGENTKIT_TIMEZONE: optionalText.refine((v) => v === undefined || isValidTimeZone(v), "is not an IANA time zone name (Asia/Shanghai)"),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: optionalText
    .refine((v) => v === undefined || (/^https?:\/\/[^/]/i.test(v) && URL.canParse(v)), "must be an http:// or https:// URL (http://localhost:11434/v1)")
    .refine(
      (v) => v === undefined || !/\/(chat\/completions|completions|embeddings)\/?$/i.test(v),
      "must be the server's base, without /chat/completions or /embeddings at the end (e.g. http://localhost:11434/v1)",
    ),
  OPENAI_MODEL: optionalText,
  OPENAI_EMBEDDING_MODEL: optionalText,
  OPENAI_TIMEOUT_SECONDS: positiveNumber(60, "60"),
  OPENAI_LONG_TIMEOUT_SECONDS: positiveNumber(600, "600"),
  OPENAI_CONTEXT_TOKENS: optionalText
    // AgentKit's own instructions and tool schemas take about 3,000 tokens before anyone says a word.
    .refine(
      (v) => v === undefined || (/^\d{1,7}$/.test(v) && Number(v) >= 4096),
      "must be the model's context length in tokens, a whole number of at least 4096: AgentKit's instructions and tools alone take about 3000 (e.g. 32768)",
    )
    .transform((v) => (v === undefined ? undefined : Number(v))),
  SESSION_STORE_URL: optionalText,
  // Node timers cannot wait longer than about 24.8 days.
  SESSION_IDLE_MINUTES: positiveNumber(60, "60").refine((n) => n <= 35_000, "must be at most 35000 minutes (about 24 days) (e.g. 60)"),
  DAILY_LOG_DAYS: positiveNumber(2, "2").refine((n) => Number.isInteger(n), "must be a whole number of days (e.g. 2)"),
  HISTORY_BUDGET_CHARS: positiveNumber(60_000, "60000"),
  PERSON_MESSAGES_PER_MINUTE: wholeNumber(20, "20", { min: 1 }),
  PERSON_TURNS_AT_ONCE: wholeNumber(2, "2", { min: 1 }),
  SESSION_QUEUE_MAX: wholeNumber(5, "5", { min: 0 }),
  JOURNAL_MAX_ENTRIES: positiveNumber(1000, "1000").refine((n) => Number.isInteger(n), "must be a whole number (e.g. 1000)"),
  JOURNAL_MAX_DAYS: positiveNumber(180, "180"),
  STORAGE_QUOTA_MB: positiveNumber(100, "100").refine((n) => n <= 1_000_000, "must be at most 1000000 (a terabyte) (e.g. 100)"),
  OPENAI_VISION: flag(false),
  ATTACHMENT_IMAGE_MB: positiveNumber(10, "10"),
  ATTACHMENT_IMAGES_PER_MESSAGE: positiveNumber(4, "4").refine((n) => Number.isInteger(n), "must be a whole number (e.g. 4)"),
  ATTACHMENT_FILE_KB: positiveNumber(100, "100"),
  ATTACHMENT_MESSAGE_KB: positiveNumber(200, "200"),
  ALLOWED_GUILD_IDS: idList("123456789012345678,234567890123456789"),
  ALLOWED_USER_IDS: idList("123456789012345678"),
  ALLOWED_ROLE_IDS: idList("123456789012345678"),
  ALLOW_DMS: flag(true),
  SERVER_NOTES_ROLE_ID: optionalText.refine((v) => v === undefined || isSnowflake(v), "must be a role id, digits only (e.g. 123456789012345678)"),
  SERVER_NOTES_CHANNEL_ID: optionalText.refine((v) => v === undefined || isSnowflake(v), "must be a channel id, digits only (e.g. 123456789012345678)"),
  LOG_LEVEL: optionalText.refine((v) => v === undefined || (LOG_LEVELS as readonly string[]).includes(v), `must be one of ${LOG_LEVELS.join(", ")} (info)`),
  LOG_PRETTY: optionalText
    .refine((v) => v === undefined || /^(1|0|true|false|yes|no|on|off)$/i.test(v), "must be true or false (e.g. true)")
    .transform((v) => (v === undefined ? undefined : /^(1|true|yes|on)$/i.test(v))),
  SHARD_COUNT: optionalText
    .refine((v) => v === undefined || v === "auto" || (/^\d+$/.test(v) && Number(v) >= 1), "must be auto or a whole number of shards (e.g. 2)")
    .transform((v) => (v === undefined ? undefined : v === "auto" ? ("auto" as const) : Number(v))),
  SHARD_SPAWN_DELAY_MS: optionalText
    .refine((v) => v === undefined || /^\d+$/.test(v), "must be a whole number of milliseconds (e.g. 5500)")
    .transform((v) => (v === undefined ? 5_500 : Number(v))),
  SHARDS: optionalText.transform((v) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined)),
  METRICS_PORT: optionalText
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535), "must be a port number from 1 to 65535 (e.g. 9464)")
    .transform((v) => (v === undefined ? undefined : Number(v))),
  METRICS_HOST: optionalText.transform((v) => v ?? "127.0.0.1"),
  TIDY_AT: optionalText
    .refine((v) => v === undefined || /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "must be a time of day as HH:mm, 24-hour (e.g. 04:00)")
    .transform((v) => v ?? "04:00"),
  TIDY_CONCURRENCY: wholeNumber(2, "2", { min: 0 }),
  WEB_PORT: optionalText
    .refine((v) => v === undefined || (/^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535), "must be a port number from 1 to 65535 (e.g. 8080)")
    .transform((v) => (v === undefined ? undefined : Number(v))),
  WEB_HOST: optionalText.transform((v) => v ?? "127.0.0.1"),
  PUBLIC_URL: optionalText
    .refine(
      (v) => v === undefined || (/^https?:\/\/[^/]/i.test(v) && URL.canParse(v) && /^\/?$/.test(new URL(v).pathname) && !new URL(v).search && !new URL(v).hash),
      "must be the page's address, http:// or https:// with no path (e.g. https://memory.example.com)",
    )
    .transform((v) => v?.replace(/\/$/, "")),
  DISCORD_CLIENT_SECRET: optionalText,
});

/** Empty or blank is unset (optionalText), so both get the "is required" line; a value that is there is checked further. */
const requiredText = (what: string) => z.string({ error: `is required: ${what}` });

const discordSchema = z.object({
  DISCORD_TOKEN: optionalText.pipe(requiredText("the bot token from the Developer Portal (Bot → Reset Token)")),
  DISCORD_CLIENT_ID: optionalText.pipe(
    requiredText("the application id (e.g. 123456789012345678)").refine(isSnowflake, "must be the application id, digits only (123456789012345678)"),
  ),
  DISCORD_GUILD_ID: optionalText.refine((v) => v === undefined || isSnowflake(v), "must be a server id, digits only (e.g. 123456789012345678)"),
  DISCORD_API_URL: optionalText.refine((v) => v === undefined || URL.canParse(v), "must be a URL (http://127.0.0.1:8080/api)"),
});

function discordSettings(parsed: ReturnType<typeof discordSchema.safeParse> | undefined): Config["discord"] {
  if (parsed?.success !== true) return undefined;
  const d = parsed.data;
  return { token: d.DISCORD_TOKEN, clientId: d.DISCORD_CLIENT_ID, guildId: d.DISCORD_GUILD_ID, apiUrl: d.DISCORD_API_URL };
}

function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

/**
 * Reads `.env` (when `env` is process.env) and validates it into one Config.
 * This is the only module that reads process.env.
 */
export function loadConfig(frontEnd: FrontEnd, env: Record<string, string | undefined> = readProcessEnv()): Config {
  const problems: string[] = [];
  const common = commonSchema.safeParse(env);
  const discord = frontEnd === "chat" || frontEnd === "operator" || frontEnd === "web" ? undefined : discordSchema.safeParse(env);
  // npm run web uses the bot's token only to ask Discord who may sign in (the allow lists): optional there.
  const webDiscord = frontEnd === "web" && env.DISCORD_TOKEN?.trim() ? discordSchema.safeParse(env) : undefined;
  for (const result of [common, discord]) {
    if (result && !result.success) {
      for (const issue of result.error.issues) problems.push(`${String(issue.path[0])}: ${issue.message}`);
    }
  }
  const usesOpenAI = !env.OPENAI_BASE_URL?.trim() || env.OPENAI_BASE_URL.trim() === DEFAULT_OPENAI_URL;
  // The operator CLI calls the model server only for embeddings.
  const needsModel = frontEnd === "operator" || frontEnd === "web" ? Boolean(env.OPENAI_EMBEDDING_MODEL?.trim()) : frontEnd !== "deploy";
  if (usesOpenAI && !env.OPENAI_API_KEY?.trim() && needsModel) {
    problems.push("OPENAI_API_KEY: is required for api.openai.com (sk-...), or set OPENAI_BASE_URL to a local server");
  }
  if (frontEnd === "web" && !env.WEB_PORT?.trim()) problems.push("WEB_PORT: is required for npm run web: the port the page listens on (e.g. 8080)");
  const clientId = env.DISCORD_CLIENT_ID?.trim();
  const apiUrl = env.DISCORD_API_URL?.trim() || undefined;
  if (frontEnd === "web" && apiUrl && !URL.canParse(apiUrl)) problems.push("DISCORD_API_URL: must be a URL (http://127.0.0.1:8080/api)");
  if (env.DISCORD_CLIENT_SECRET?.trim() && (frontEnd === "web" || frontEnd === "discord") && !isSnowflake(clientId)) {
    problems.push("DISCORD_CLIENT_ID: is required with DISCORD_CLIENT_SECRET (Login with Discord): the application id (e.g. 123456789012345678)");
  }
  if (problems.length > 0 || !common.success) throw new ConfigError(problems);
  const c = common.data;
  const web = c.WEB_PORT === undefined ? undefined : { port: c.WEB_PORT, host: c.WEB_HOST };
  // A page bound to every address is opened as localhost on this machine.
  const localHost = web && (/^(0\.0\.0\.0|::|\[::\])$/.test(web.host) ? "localhost" : web.host.includes(":") ? `[${web.host}]` : web.host);
  const publicUrl = c.PUBLIC_URL ?? (web ? `http://${localHost}:${web.port}` : undefined);
  return {
    home: expandHome(c.AGENTKIT_HOME ?? "~/.agentkit"),
    timeZone: c.AGENTKIT_TIMEZONE,
    // Local servers (Ollama, LM Studio) ignore the key, but the SDK requires one.
    openai: {
      apiKey: c.OPENAI_API_KEY ?? "not-needed",
      baseURL: c.OPENAI_BASE_URL ?? DEFAULT_OPENAI_URL,
      model: c.OPENAI_MODEL ?? "gpt-4o-mini",
      timeoutMs: c.OPENAI_TIMEOUT_SECONDS * 1000,
      streamIdleMs: c.OPENAI_TIMEOUT_SECONDS * 1000,
      longTimeoutMs: Math.max(c.OPENAI_LONG_TIMEOUT_SECONDS, c.OPENAI_TIMEOUT_SECONDS) * 1000,
      contextTokens: c.OPENAI_CONTEXT_TOKENS ?? (usesOpenAI ? OPENAI_CONTEXT_TOKENS : DEFAULT_CONTEXT_TOKENS),
      embeddingModel: c.OPENAI_EMBEDDING_MODEL,
    },
    sessionStoreUrl: c.SESSION_STORE_URL,
    sessionIdleMinutes: c.SESSION_IDLE_MINUTES,
    dailyDays: c.DAILY_LOG_DAYS,
    historyBudgetChars: c.HISTORY_BUDGET_CHARS,
    fairUse: { messagesPerMinute: c.PERSON_MESSAGES_PER_MINUTE, turnsAtOnce: c.PERSON_TURNS_AT_ONCE, queuePerSession: c.SESSION_QUEUE_MAX },
    journal: { entries: c.JOURNAL_MAX_ENTRIES, days: c.JOURNAL_MAX_DAYS },
    // Megabytes as the lines show them (1,000,000 bytes), so a quota of 100 reads "100 MB".
    storageQuotaBytes: Math.round(c.STORAGE_QUOTA_MB * 1_000_000),
    attachments: {
      vision: c.OPENAI_VISION,
      imageBytes: Math.round(c.ATTACHMENT_IMAGE_MB * 1024 * 1024),
      imagesPerMessage: c.ATTACHMENT_IMAGES_PER_MESSAGE,
      fileBytes: Math.round(c.ATTACHMENT_FILE_KB * 1024),
      messageBytes: Math.round(c.ATTACHMENT_MESSAGE_KB * 1024),
    },
    allowed: { guildIds: c.ALLOWED_GUILD_IDS, userIds: c.ALLOWED_USER_IDS, roleIds: c.ALLOWED_ROLE_IDS },
    allowDms: c.ALLOW_DMS,
    serverNotes: { roleId: c.SERVER_NOTES_ROLE_ID, channelId: c.SERVER_NOTES_CHANNEL_ID },
    log: { level: c.LOG_LEVEL, pretty: c.LOG_PRETTY },
    shardCount: c.SHARD_COUNT,
    shardSpawnDelayMs: c.SHARD_SPAWN_DELAY_MS,
    shardId: c.SHARDS,
    tidy: { at: c.TIDY_AT, concurrency: c.TIDY_CONCURRENCY },
    metrics: c.METRICS_PORT === undefined ? undefined : { port: c.METRICS_PORT, host: c.METRICS_HOST },
    web,
    publicUrl,
    oauth: c.DISCORD_CLIENT_SECRET && clientId ? { clientId, clientSecret: c.DISCORD_CLIENT_SECRET, apiUrl } : undefined,
    discord: discordSettings(discord ?? webDiscord),
  };
}

/**
 * Loads `.env`, then hides from the libraries that read the environment themselves what they
 * must not see: an empty line of `.env` means "unset" (discord.js's Client turns `SHARD_COUNT=`
 * into 0 shards and `JSON.parse`s `SHARDS`), and outside a shard process SHARDS and SHARD_COUNT
 * belong to the launcher, which gives each shard its own. Returns what was read, before hiding.
 */
function readProcessEnv(): Record<string, string | undefined> {
  const loaded = loadDotenv({ quiet: true });
  envFileMissing = (loaded.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && value.trim() === "") delete process.env[name];
  }
  const read = { ...process.env };
  if (!process.env.SHARDING_MANAGER) {
    delete process.env.SHARDS;
    delete process.env.SHARD_COUNT;
  }
  return read;
}
