// `npm start`, `npm run memory`, `npm run chat`: node scripts/run-compiled.mjs index | cli/memory | cli/chat [args…]
//
// Runs the compiled program (dist/index.js, dist/cli/memory.js) in this very process, so stdin, the terminal and
// signals (Ctrl+C, SIGHUP) reach it exactly as they would with `node dist/cli/memory.js`. tsx would
// compile the program's ~100 files at every start (1–3 s); this costs a stat of each source file.
// dist/ is compiled first when it is missing or was built from other sources: every source file of
// src/ (name, size, mtime) and tsconfig.json, tsconfig.build.json and package.json make a fingerprint,
// kept in dist/.build-stamp. It is plain JavaScript because it must run before anything is compiled.
//
// A build holds a lock (.dist.lock, proper-lockfile: stale after 30 s if its holder died), compiles
// into .dist-build-<pid>/ and then swaps it in for dist/ with two renames, so a run never sees a
// half-written dist/ and two runs at once compile once. Without src/ (the production image) dist/
// runs as it is.

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "dist");
const src = join(root, "src");
const STAMP = ".build-stamp";
const BUILD_INPUTS = ["tsconfig.json", "tsconfig.build.json", "package.json"];

/** One line on stderr and the exit status: what went wrong and what to do. */
function fail(line, code = 1) {
  process.stderr.write(`${line}\n`);
  process.exit(code);
}

/** What the sources are now: every file of src/ and the build's own settings, by name, size and mtime. */
function fingerprint() {
  const hash = createHash("sha256");
  // What tsc may read; an editor's swap or backup file (.x.ts.swp, x.ts~) is not a change.
  const names = readdirSync(src, { recursive: true })
    .filter((name) => /(^|\/)[^./][^/]*\.(ts|tsx|mts|cts|js|mjs|cjs|json)$/.test(name))
    .sort();
  for (const name of names) {
    // An editor's swap file may be gone between the listing and the stat.
    const info = statSync(join(src, name), { bigint: true, throwIfNoEntry: false });
    if (info?.isFile()) hash.update(`src/${name}\0${info.size}\0${info.mtimeNs}\n`);
  }
  for (const name of BUILD_INPUTS) {
    const info = statSync(join(root, name), { bigint: true, throwIfNoEntry: false });
    hash.update(`${name}\0${info?.size ?? "-"}\0${info?.mtimeNs ?? "-"}\n`);
  }
  return hash.digest("hex");
}

function builtFrom() {
  try {
    return readFileSync(join(dist, STAMP), "utf8");
  } catch {
    return undefined;
  }
}

const isFresh = (entry, sources) => builtFrom() === sources && existsSync(entry);

/** Compiles src/ into a folder of its own, then swaps it in for dist/. Called under the lock. */
async function build(sources) {
  // Folders left by a build that was interrupted (Ctrl+C, a kill): no one else builds while we hold the lock.
  for (const name of readdirSync(root)) if (/^\.dist-(build|old)-\d+$/.test(name)) rmSync(join(root, name), { recursive: true, force: true });
  const fresh = join(root, `.dist-build-${process.pid}`);
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  if (!existsSync(tsc)) fail("could not compile src/ into dist/: TypeScript is not installed (npm ci installs it)");
  const output = await new Promise((resolve) => {
    // stdin ignored: piped input belongs to the program, not to the compiler.
    const child = spawn(process.execPath, [tsc, "-p", "tsconfig.build.json", "--outDir", fresh, "--pretty", "false"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.stderr.on("data", (d) => (text += d));
    child.on("error", (error) => resolve({ code: 1, text: error.message }));
    child.on("close", (code, signal) => resolve({ code: code ?? 1, text: text || (signal ? `stopped by ${signal}` : "") }));
  });
  if (output.code !== 0) {
    rmSync(fresh, { recursive: true, force: true });
    const first = output.text.split("\n").find((line) => line.trim() !== "") ?? `tsc exited with ${output.code}`;
    fail(`could not compile src/ into dist/: ${first.trim()} (npm run build shows every error)`);
  }
  // The fingerprint taken before compiling: a file saved during the build makes the next run compile again.
  writeFileSync(join(fresh, STAMP), sources);
  const old = join(root, `.dist-old-${process.pid}`);
  try {
    renameSync(dist, old);
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
  }
  renameSync(fresh, dist);
  rmSync(old, { recursive: true, force: true });
}

async function ensureBuilt(entry) {
  let sources = fingerprint();
  if (isFresh(entry, sources)) return;
  const { default: lockfile } = await import("proper-lockfile");
  let release;
  try {
    release = await lockfile.lock(root, {
      lockfilePath: join(root, ".dist.lock"),
      realpath: false,
      stale: 30_000,
      update: 5_000,
      // A build takes seconds (a minute on a busy machine): wait for the one under way.
      retries: { retries: 1500, factor: 1, minTimeout: 200, maxTimeout: 200 },
      // The swap is atomic whoever holds the lock: a lost lock is not worth a crash.
      onCompromised: () => {},
    });
  } catch (error) {
    const why = error.code === "ELOCKED" ? "another build still holds" : `${error.code ?? error.message} on`;
    fail(`could not compile src/ into dist/: ${why} ${join(root, ".dist.lock")}`);
  }
  try {
    // Whoever held the lock before may have just compiled these very sources.
    sources = fingerprint();
    if (isFresh(entry, sources)) return;
    process.stderr.write(
      existsSync(join(dist, STAMP))
        ? "compiling src/ into dist/ (it changed since the last build)…\n"
        : "compiling src/ into dist/ (the first run builds it; about 10 s)…\n",
    );
    await build(sources);
  } finally {
    await release();
  }
}

const [program, ...args] = process.argv.slice(2);
if (!program || !/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(program)) fail("usage: node scripts/run-compiled.mjs <program under src/, e.g. cli/memory> [args…]", 2);
const entry = join(dist, `${program}.js`);
if (!existsSync(join(root, "node_modules"))) fail("AgentKit is not installed yet: run npm ci first (the README's first command)");
if (existsSync(src)) {
  if (!existsSync(join(src, `${program}.ts`))) fail(`no program src/${program}.ts to run`, 2);
  await ensureBuilt(entry);
} else if (!existsSync(entry)) {
  fail(`no program dist/${program}.js to run (and no src/ to compile it from)`, 2);
}
// The program sees the argv it would see when run directly: node dist/cli/memory.js [args…].
process.argv.splice(1, process.argv.length - 1, entry, ...args);
await import(pathToFileURL(entry).href);
