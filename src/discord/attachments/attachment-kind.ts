/**
 * Which reader an attachment goes to, from its name and content type, before anything is
 * downloaded. The extension wins over the content type because Discord guesses the type from
 * the extension and sometimes guesses wrong (a TypeScript ".ts" arrives as "video/mp2t").
 * The reader then checks the bytes; this only picks which check.
 */

export type AttachmentKind =
  | { kind: "image" }
  | { kind: "unsupported-image"; format: string }
  /** `language`: the fence's info string, "" when no highlighting fits. */
  | { kind: "text"; language: string }
  | { kind: "secret" }
  | { kind: "other" };

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "jpe", "jfif", "webp", "gif"]);
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/jpg", "image/pjpeg", "image/webp", "image/gif"]);

const UNSUPPORTED_IMAGE_EXTENSIONS: Record<string, string> = {
  svg: "SVG",
  svgz: "SVG",
  bmp: "BMP",
  tif: "TIFF",
  tiff: "TIFF",
  heic: "HEIC",
  heif: "HEIF",
  avif: "AVIF",
  ico: "ICO",
  jxl: "JPEG XL",
  psd: "PSD",
  raw: "RAW",
  cr2: "RAW",
  nef: "RAW",
  dng: "RAW",
  apng: "APNG",
};

/** Extensions read as text, each with its fence language ("" for plain text). */
const TEXT_EXTENSIONS: Record<string, string> = {
  txt: "",
  text: "",
  md: "markdown",
  markdown: "markdown",
  rst: "rst",
  adoc: "asciidoc",
  log: "log",
  out: "",
  csv: "csv",
  tsv: "tsv",
  json: "json",
  jsonl: "json",
  ndjson: "json",
  json5: "json5",
  geojson: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  ini: "ini",
  cfg: "ini",
  conf: "",
  properties: "properties",
  xml: "xml",
  html: "html",
  htm: "html",
  css: "css",
  scss: "scss",
  less: "less",
  vue: "vue",
  svelte: "svelte",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "jsx",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  py: "python",
  pyi: "python",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  scala: "scala",
  groovy: "groovy",
  gradle: "groovy",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  hh: "cpp",
  cs: "csharp",
  fs: "fsharp",
  php: "php",
  pl: "perl",
  dart: "dart",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hs: "haskell",
  ml: "ocaml",
  clj: "clojure",
  lisp: "lisp",
  sh: "bash",
  bash: "bash",
  zsh: "zsh",
  fish: "fish",
  ps1: "powershell",
  bat: "batch",
  cmd: "batch",
  sql: "sql",
  graphql: "graphql",
  gql: "graphql",
  proto: "protobuf",
  swift: "swift",
  lua: "lua",
  r: "r",
  jl: "julia",
  zig: "zig",
  nim: "nim",
  nix: "nix",
  tf: "hcl",
  hcl: "hcl",
  tex: "latex",
  bib: "bibtex",
  diff: "diff",
  patch: "diff",
  srt: "",
  vtt: "",
  gitignore: "",
  dockerignore: "",
  editorconfig: "ini",
};

/** Files named without an extension that are text. */
const TEXT_NAMES: Record<string, string> = {
  dockerfile: "dockerfile",
  containerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  jenkinsfile: "groovy",
  procfile: "",
  gemfile: "ruby",
  rakefile: "ruby",
  vagrantfile: "ruby",
  brewfile: "ruby",
  readme: "",
  license: "",
  licence: "",
  changelog: "",
  authors: "",
  codeowners: "",
};

/** Content types of text that do not start with "text/". */
const TEXT_TYPE =
  /^(text\/.+|application\/(json|ld\+json|.+\+json|x?ndjson|xml|.+\+xml|javascript|x-javascript|ecmascript|x-yaml|yaml|toml|x-toml|x-sh|x-shellscript|sql|x-sql|x-httpd-php|x-python|x-ruby|x-perl|graphql))$/;

/**
 * Files that hold credentials by what they are (dotenv files, key files, the credential files of
 * git, npm, PyPI, cloud SDKs): sending them to a model provider would leak what they hold.
 */
const SECRET_NAME =
  /^(?:\.envrc|id_[a-z0-9_]+(?:\.pub)?|\.netrc|\.pgpass|\.npmrc|\.pypirc|\.git-credentials|\.htpasswd|credentials(?:\.json)?|service[-_]account.*\.json|client_secret.*\.json|authkey_.*\.p8)$/;
/** The same files renamed or copied (`id_rsa.txt`, `aws_credentials`, `my-service-account.json`, `sa-key.json`). */
const SECRET_NAME_PART = /^id_(?:rsa|dsa|ecdsa|ed25519)|(?:^|[._-])credentials?(?:\.[a-z0-9]+)?$|service[-_]?account[^/]*\.json$|(?:^|[._-])key\.json$/;
const SECRET_EXTENSIONS = new Set(["pem", "key", "p12", "pfx", "jks", "keystore", "ppk", "asc", "gpg", "kdbx", "p8", "tfvars", "tfstate"]);
/** A dotenv file under any name: `.env`, `.env.local`, `.env-prod`, `.env_backup`, `.env~`, `prod.env`, `prod.env.txt`. */
const DOTENV = /(?:^|\.)env(?:$|[._~-])/;
/** `.env.example`, `.env.local.sample`, `.env.template`: the shape of a dotenv file without its values. */
const DOTENV_TEMPLATE = /\.(?:example|sample|template)$/;

export function kindOf(name: string, contentType: string | null): AttachmentKind {
  const lower = name.toLowerCase();
  const dot = lower.lastIndexOf(".");
  const extension = dot >= 0 ? lower.slice(dot + 1) : "";
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const dotenv = DOTENV.test(lower);
  if (dotenv && DOTENV_TEMPLATE.test(lower)) return { kind: "text", language: "" };
  if (dotenv || SECRET_NAME.test(lower) || SECRET_NAME_PART.test(lower) || SECRET_EXTENSIONS.has(extension)) return { kind: "secret" };
  if (IMAGE_EXTENSIONS.has(extension)) return { kind: "image" };
  const unsupported = UNSUPPORTED_IMAGE_EXTENSIONS[extension];
  if (unsupported) return { kind: "unsupported-image", format: unsupported };
  const language = TEXT_EXTENSIONS[extension] ?? (dot < 0 ? TEXT_NAMES[lower] : undefined);
  if (language !== undefined) return { kind: "text", language };
  if (IMAGE_TYPES.has(type)) return { kind: "image" };
  if (type.startsWith("image/")) return { kind: "unsupported-image", format: imageFormatName(type) };
  if (TEXT_TYPE.test(type)) return { kind: "text", language: "" };
  return { kind: "other" };
}

function imageFormatName(type: string): string {
  const subtype = type.slice("image/".length).replace(/\+xml$/, "");
  return subtype.toUpperCase();
}
