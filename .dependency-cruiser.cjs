/**
 * The house's layers, bottom to top (docs/design.md, "Layers"). A module imports only from its
 * own floor and the floors below it; `npm run check:structure` (in .ci/run) fails on any import
 * circle and on any import that goes up or sideways between front ends.
 *
 *   lib/        the ground floor: result, logger, mutex, timeouts, text, locale, telemetry words
 *   config.ts   the environment, validated once
 *   memory/     files, journal, recall, safety, secrets (file kinds and caps in file-kinds.ts); the
 *               front ends reach it only through memory/index.ts, its public face
 *   model/      the model client
 *   sessions/   the session stores and their records
 *   engine/     the session engine and the model's tools
 *   present/    wording shared by the front ends (journal lines, import preview, model errors, refused writes)
 *   ops/        metrics and health (the telemetry words from lib/ only)
 *   discord/, cli/, web/   the front ends, which never import each other
 *   index.ts, run-bot.ts, launcher.ts, shard.ts, bot-lock.ts, web.ts, deploy-commands.ts   the entry points
 */
const below = (...floors) => `^src/(?!(?:${floors.join("|")})(?:/|\\.ts$))`;

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "An import circle: split the shared part into a lower module.", from: {}, to: { circular: true } },
    { name: "lib-is-the-ground-floor", severity: "error", from: { path: "^src/lib/" }, to: { path: below("lib") } },
    { name: "config-sees-only-lib", severity: "error", from: { path: "^src/config\\.ts$" }, to: { path: below("lib", "config") } },
    { name: "memory-sees-lib-and-config", severity: "error", from: { path: "^src/memory/" }, to: { path: below("lib", "config", "memory") } },
    { name: "model-sees-below", severity: "error", from: { path: "^src/model/" }, to: { path: below("lib", "config", "memory", "model") } },
    { name: "sessions-see-below", severity: "error", from: { path: "^src/sessions/" }, to: { path: below("lib", "config", "memory", "model", "sessions") } },
    {
      name: "engine-sees-below",
      severity: "error",
      from: { path: "^src/engine/" },
      to: { path: below("lib", "config", "memory", "model", "sessions", "engine") },
    },
    {
      name: "present-sees-below",
      severity: "error",
      from: { path: "^src/present/" },
      to: { path: below("lib", "config", "memory", "model", "sessions", "engine", "present") },
    },
    { name: "ops-sees-lib-and-config", severity: "error", from: { path: "^src/ops/" }, to: { path: below("lib", "config", "ops") } },
    {
      name: "discord-is-a-front-end",
      severity: "error",
      from: { path: "^src/discord/" },
      to: { path: below("lib", "config", "memory", "model", "sessions", "engine", "present", "ops", "discord") },
    },
    {
      name: "cli-is-a-front-end",
      severity: "error",
      from: { path: "^src/cli/" },
      to: { path: below("lib", "config", "memory", "model", "sessions", "engine", "present", "cli") },
    },
    {
      name: "web-is-a-front-end",
      severity: "error",
      from: { path: "^src/web/" },
      to: { path: below("lib", "config", "memory", "model", "sessions", "engine", "present", "web") },
    },
    {
      name: "discord-views-build-messages-only",
      severity: "error",
      comment: "views/ are pure message builders: no handlers, commands or conversations.",
      from: { path: "^src/discord/views/" },
      to: { path: "^src/discord/(?:handlers|commands)/|^src/discord/(?:conversations|closing|bot|bot-context)\\.ts$" },
    },
    {
      name: "front-ends-reach-memory-through-its-face",
      severity: "error",
      comment:
        "discord/, cli/ and web/ use memory/ only through src/memory/index.ts, its public face: one place says what a front end may do with a person's memory.",
      from: { path: "^src/(?:discord|cli|web)/" },
      to: { path: "^src/memory/(?!index\\.ts$)" },
    },
    { name: "discord-handlers-below-commands", severity: "error", from: { path: "^src/discord/handlers/" }, to: { path: "^src/discord/commands/" } },
    {
      name: "the-bot-loads-the-page-and-ops-only-when-asked",
      severity: "error",
      comment:
        "Fastify, its plugins and prom-client cost a bot without WEB_PORT or METRICS_PORT ~180 ms of start and MBs of heap: only web/ and ops/ import them, and the rest of src/ imports those dynamically.",
      from: { path: "^src/", pathNot: "^src/(?:web|ops)/|^src/web\\.ts$" },
      to: { path: "^src/(?:web|ops)/|^node_modules/(?:fastify|@fastify|prom-client)/", dynamic: false, dependencyTypesNot: ["type-only"] },
    },
    { name: "src-never-imports-tests", severity: "error", from: { path: "^src/" }, to: { path: "^(?:tests|bench|scripts)/" } },
    { name: "not-to-unresolvable", severity: "error", from: {}, to: { couldNotResolve: true } },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Type-only imports count: a circle through types is still a circle in the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
