import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

const discordEnv = { DISCORD_TOKEN: "token", DISCORD_CLIENT_ID: "123456789012345678" };

describe("loadConfig", () => {
  it("takes only an http(s) base URL for the model, without /chat/completions at the end", () => {
    const base = { OPENAI_API_KEY: "sk-test" };
    const problem = (url: string) => {
      try {
        loadConfig("chat", { ...base, OPENAI_BASE_URL: url });
        return "";
      } catch (error) {
        return (error as ConfigError).problems.join("\n");
      }
    };
    expect(problem("localhost:11434")).toMatch(/^OPENAI_BASE_URL: must be an http:\/\/ or https:\/\/ URL/);
    expect(problem("http://localhost:11434/v1/chat/completions")).toMatch(/^OPENAI_BASE_URL: must be the server's base, without \/chat\/completions/);
    expect(problem("http://localhost:11434/v1")).toBe("");
    expect(problem("https://openrouter.ai/api/v1/")).toBe("");
  });

  it("applies defaults for the terminal chat with no Discord settings at all", () => {
    const config = loadConfig("chat", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(config.home).toBe(join(homedir(), ".agentkit"));
    expect(config.openai.model).toBeTruthy();
    expect(config.sessionIdleMinutes).toBe(60);
    expect(config.allowDms).toBe(true);
    expect(config.discord).toBeUndefined();
  });

  it("knows the model's context (OPENAI_CONTEXT_TOKENS: OpenAI's 128000, 32768 elsewhere) and the long requests' time-out", () => {
    expect(loadConfig("chat", { OPENAI_API_KEY: "sk-x" }).openai).toMatchObject({ contextTokens: 128_000, longTimeoutMs: 600_000, timeoutMs: 60_000 });
    expect(loadConfig("chat", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" }).openai.contextTokens).toBe(32_768);
    const set = loadConfig("chat", { OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", OPENAI_CONTEXT_TOKENS: "8192", OPENAI_LONG_TIMEOUT_SECONDS: "900" });
    expect(set.openai).toMatchObject({ contextTokens: 8_192, longTimeoutMs: 900_000 });
    // Never shorter than a turn's own time-out.
    expect(loadConfig("chat", { OPENAI_BASE_URL: "http://x/v1", OPENAI_TIMEOUT_SECONDS: "120", OPENAI_LONG_TIMEOUT_SECONDS: "30" }).openai.longTimeoutMs).toBe(
      120_000,
    );
    expect(() => loadConfig("chat", { OPENAI_BASE_URL: "http://x/v1", OPENAI_CONTEXT_TOKENS: "4k" })).toThrow(
      "Configuration: OPENAI_CONTEXT_TOKENS: must be the model's context length in tokens, a whole number of at least 4096: AgentKit's instructions and tools alone take about 3000 (e.g. 32768)",
    );
    expect(() => loadConfig("chat", { OPENAI_BASE_URL: "http://x/v1", OPENAI_CONTEXT_TOKENS: "2048" })).toThrow(/at least 4096/);
    expect(() => loadConfig("chat", { OPENAI_BASE_URL: "http://x/v1", OPENAI_LONG_TIMEOUT_SECONDS: "soon" })).toThrow(
      /OPENAI_LONG_TIMEOUT_SECONDS: must be a positive number/,
    );
  });

  it("needs nothing but AGENTKIT_HOME for the operator CLI, and no key unless embeddings are asked for", () => {
    const config = loadConfig("operator", { AGENTKIT_HOME: "/tmp/agentkit" });
    expect(config.home).toBe("/tmp/agentkit");
    expect(config.openai.embeddingModel).toBeUndefined();
    expect(() => loadConfig("operator", { OPENAI_EMBEDDING_MODEL: "text-embedding-3-small" })).toThrow(/OPENAI_API_KEY: is required/);
    const local = loadConfig("operator", { OPENAI_EMBEDDING_MODEL: "nomic-embed-text", OPENAI_BASE_URL: "http://127.0.0.1:11434/v1" });
    expect(local.openai.embeddingModel).toBe("nomic-embed-text");
  });

  it("expands ~ in AGENTKIT_HOME", () => {
    const config = loadConfig("chat", { AGENTKIT_HOME: "~/bots/agentkit", OPENAI_API_KEY: "k" });
    expect(config.home).toBe(join(homedir(), "bots/agentkit"));
  });

  it("reads the Discord settings and the allow lists for the bot", () => {
    const config = loadConfig("discord", {
      ...discordEnv,
      OPENAI_API_KEY: "k",
      ALLOWED_GUILD_IDS: "1, 2",
      ALLOWED_USER_IDS: "",
      ALLOW_DMS: "false",
      SESSION_IDLE_MINUTES: "0.05",
      DISCORD_API_URL: "http://127.0.0.1:9999/api",
    });
    expect(config.discord?.token).toBe("token");
    expect(config.discord?.apiUrl).toBe("http://127.0.0.1:9999/api");
    expect(config.allowed.guildIds).toEqual(["1", "2"]);
    expect(config.allowed.userIds).toEqual([]);
    expect(config.allowDms).toBe(false);
    expect(config.sessionIdleMinutes).toBe(0.05);
  });

  it("reports every problem at once, each with the variable and a good example", () => {
    let caught: unknown;
    try {
      loadConfig("discord", {
        AGENTKIT_TIMEZONE: "Mars/Olympus",
        SESSION_IDLE_MINUTES: "soon",
        ALLOWED_USER_IDS: "12,abc",
        LOG_LEVEL: "loud",
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    const variables = problems.map((p) => p.split(":")[0]);
    expect(variables).toEqual(
      expect.arrayContaining([
        "DISCORD_TOKEN",
        "DISCORD_CLIENT_ID",
        "OPENAI_API_KEY",
        "AGENTKIT_TIMEZONE",
        "SESSION_IDLE_MINUTES",
        "ALLOWED_USER_IDS",
        "LOG_LEVEL",
      ]),
    );
    expect(problems.find((p) => p.startsWith("AGENTKIT_TIMEZONE"))).toMatch(/Asia\/Shanghai/);
    expect((caught as ConfigError).message).toContain("DISCORD_TOKEN");
  });

  it("refuses an idle time longer than a timer can wait", () => {
    expect(() => loadConfig("chat", { OPENAI_API_KEY: "k", SESSION_IDLE_MINUTES: "43200" })).toThrow(/SESSION_IDLE_MINUTES: must be at most 35000/);
  });

  it("does not need an API key for a local OpenAI-compatible server", () => {
    expect(() => loadConfig("chat", { OPENAI_BASE_URL: "http://localhost:11434/v1" })).not.toThrow();
  });
  it("reads SHARD_COUNT as auto or a number of shards, and refuses anything else", () => {
    const base = { DISCORD_TOKEN: "t", DISCORD_CLIENT_ID: "1", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(loadConfig("discord", base).shardCount).toBeUndefined();
    expect(loadConfig("discord", { ...base, SHARD_COUNT: "auto" }).shardCount).toBe("auto");
    expect(loadConfig("discord", { ...base, SHARD_COUNT: "2", SHARDS: "1" })).toMatchObject({ shardCount: 2, shardId: 1 });
    expect(() => loadConfig("discord", { ...base, SHARD_COUNT: "0" })).toThrow(/SHARD_COUNT: must be auto or a whole number of shards/);
  });

  it("reads the nightly tidy-up's hour and concurrency, with defaults, and refuses what is not one", () => {
    const base = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(loadConfig("chat", { ...base, TIDY_AT: "", TIDY_CONCURRENCY: "" }).tidy).toEqual({ at: "04:00", concurrency: 2 });
    expect(loadConfig("chat", { ...base, TIDY_AT: "23:59", TIDY_CONCURRENCY: "0" }).tidy).toEqual({ at: "23:59", concurrency: 0 });
    for (const at of ["4am", "24:00", "4:00", "04:60"])
      expect(() => loadConfig("chat", { ...base, TIDY_AT: at })).toThrow(/TIDY_AT: must be a time of day as HH:mm/);
    expect(() => loadConfig("chat", { ...base, TIDY_CONCURRENCY: "-1" })).toThrow(/TIDY_CONCURRENCY: must be a whole number of at least 0/);
  });

  it("serves health and metrics only with METRICS_PORT, on 127.0.0.1 unless METRICS_HOST says otherwise", () => {
    const base = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(loadConfig("chat", base).metrics).toBeUndefined();
    expect(loadConfig("chat", { ...base, METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(loadConfig("chat", { ...base, METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0" }).metrics).toEqual({ port: 9464, host: "0.0.0.0" });
    for (const port of ["0", "65536", "http", "94.64"]) {
      expect(() => loadConfig("chat", { ...base, METRICS_PORT: port })).toThrow(/METRICS_PORT: must be a port number from 1 to 65535/);
    }
  });

  it("serves the web page only with WEB_PORT, on 127.0.0.1, at PUBLIC_URL or its own address; Login with Discord needs the secret and the application id", () => {
    const base = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1", DISCORD_TOKEN: "t", DISCORD_CLIENT_ID: "123456789012345678" };
    expect(loadConfig("discord", base)).toMatchObject({ web: undefined, publicUrl: undefined, oauth: undefined });
    expect(loadConfig("discord", { ...base, WEB_PORT: "8080" })).toMatchObject({ web: { port: 8080, host: "127.0.0.1" }, publicUrl: "http://127.0.0.1:8080" });
    expect(loadConfig("discord", { ...base, WEB_PORT: "8080", WEB_HOST: "0.0.0.0" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig("discord", { ...base, WEB_PORT: "8080", PUBLIC_URL: "https://memory.example.com/" }).publicUrl).toBe("https://memory.example.com");
    // A bot without the page still makes /memory web links for a page another process serves.
    expect(loadConfig("discord", { ...base, PUBLIC_URL: "https://memory.example.com" })).toMatchObject({
      web: undefined,
      publicUrl: "https://memory.example.com",
    });
    for (const url of ["memory.example.com", "ftp://x", "https://x/path", "https://x/?a=1", "javascript:alert(1)"]) {
      expect(() => loadConfig("discord", { ...base, PUBLIC_URL: url })).toThrow(/PUBLIC_URL: must be the page's address/);
    }
    expect(() => loadConfig("discord", { ...base, WEB_PORT: "0" })).toThrow(/WEB_PORT: must be a port number/);
    expect(loadConfig("discord", { ...base, DISCORD_CLIENT_SECRET: "s" }).oauth).toEqual({
      clientId: "123456789012345678",
      clientSecret: "s",
      apiUrl: undefined,
    });
    // npm run web alone: its port is required, the bot token is not, and the secret needs the application id.
    expect(() => loadConfig("web", {})).toThrow(/WEB_PORT: is required for npm run web/);
    expect(loadConfig("web", { WEB_PORT: "8080" })).toMatchObject({ web: { port: 8080 }, oauth: undefined });
    expect(() => loadConfig("web", { WEB_PORT: "8080", DISCORD_CLIENT_SECRET: "s" })).toThrow(/DISCORD_CLIENT_ID: is required with DISCORD_CLIENT_SECRET/);
    expect(() => loadConfig("web", { WEB_PORT: "8080", DISCORD_API_URL: "not a url" })).toThrow(/DISCORD_API_URL: must be a URL/);
  });

  it("gives an empty, a blank and an unset required variable the same message", () => {
    const problemsFor = (env: Record<string, string | undefined>) => {
      try {
        loadConfig("discord", env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    const unset = problemsFor({});
    const empty = problemsFor({ DISCORD_TOKEN: "", DISCORD_CLIENT_ID: "", OPENAI_API_KEY: "" });
    const blank = problemsFor({ DISCORD_TOKEN: "  ", DISCORD_CLIENT_ID: " \t", OPENAI_API_KEY: " " });
    expect(unset).toHaveLength(3);
    expect(empty).toEqual(unset);
    expect(blank).toEqual(unset);
    expect(unset.find((p) => p.startsWith("DISCORD_CLIENT_ID"))).toMatch(/is required/);
    // A value that is there but wrong still says what is wrong with it.
    expect(problemsFor({ ...discordEnv, DISCORD_CLIENT_ID: "my-app", OPENAI_API_KEY: "k" })).toEqual([
      expect.stringMatching(/^DISCORD_CLIENT_ID: must be the application id, digits only/),
    ]);
  });

  it("reads the fair-use limits, with defaults when unset or empty, and refuses what is not a whole positive number", () => {
    const base = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    const defaults = { messagesPerMinute: 20, turnsAtOnce: 2, queuePerSession: 5 };
    expect(loadConfig("chat", base).fairUse).toEqual(defaults);
    expect(loadConfig("chat", { ...base, PERSON_MESSAGES_PER_MINUTE: "", PERSON_TURNS_AT_ONCE: "", SESSION_QUEUE_MAX: "" }).fairUse).toEqual(defaults);
    expect(loadConfig("chat", { ...base, PERSON_MESSAGES_PER_MINUTE: "6", PERSON_TURNS_AT_ONCE: "1", SESSION_QUEUE_MAX: "0" }).fairUse).toEqual({
      messagesPerMinute: 6,
      turnsAtOnce: 1,
      queuePerSession: 0,
    });
    for (const [name, value] of [
      ["PERSON_MESSAGES_PER_MINUTE", "0"],
      ["PERSON_MESSAGES_PER_MINUTE", "2.5"],
      ["PERSON_TURNS_AT_ONCE", "0"],
      ["PERSON_TURNS_AT_ONCE", "many"],
      ["SESSION_QUEUE_MAX", "-1"],
      ["SESSION_QUEUE_MAX", "1e9"],
    ] as const) {
      expect(() => loadConfig("chat", { ...base, [name]: value }), `${name}=${value}`).toThrow(new RegExp(`${name}: must be a whole number`));
    }
  });

  it("reads STORAGE_QUOTA_MB as megabytes of 1,000,000 bytes (100 when unset), and refuses what is not a positive number up to a terabyte", () => {
    const base = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(loadConfig("chat", base).storageQuotaBytes).toBe(100_000_000);
    expect(loadConfig("chat", { ...base, STORAGE_QUOTA_MB: "" }).storageQuotaBytes).toBe(100_000_000);
    expect(loadConfig("chat", { ...base, STORAGE_QUOTA_MB: "2.5" }).storageQuotaBytes).toBe(2_500_000);
    for (const value of ["0", "-5", "lots", "1e7"]) {
      expect(() => loadConfig("chat", { ...base, STORAGE_QUOTA_MB: value }), value).toThrow(/STORAGE_QUOTA_MB: must be /);
    }
  });
});
