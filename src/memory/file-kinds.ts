/**
 * The memory files every person has: the one table of them, and the leaf every layer may name.
 * A new whole-file kind (say GOALS.md) is a row here; docs/design.md §11 lists what else to touch.
 */
export type FileKind = "soul" | "user" | "memory" | "daily";
export const FILE_KINDS: readonly FileKind[] = ["soul", "user", "memory", "daily"];

/** The kinds that are one file each (daily is a file a day). */
export type WholeFileKind = Exclude<FileKind, "daily">;

interface FileKindRow {
  /** Characters at most (Unicode code points). */
  cap: number;
  /** The file's name in the person's folder and everywhere it is named ("daily" for the logs). */
  label: string;
  /** Its page on the web (/memory/<kind>). */
  page: string;
  /** Its block in the frozen prompt (the logs are one block of the last days). */
  tag: string;
  /**
   * When the prompt is too long for the model's context, blocks go lowest first (after the oldest
   * logs and the server's notes); a kind without one always stays (the persona).
   */
  dropOrder?: number;
  /**
   * Its sections can be marked private: they stay out of public places (the prompt, public search,
   * receipts, the tools' reads and writes there).
   */
  privateSections: boolean;
  /**
   * Facts about the person: only the owner's own words go there unasked (a guest's words, a reply
   * or a file wait for their Save), and "ask before saving: profile" covers it.
   */
  personFacts: boolean;
  /** What it is, as the assistant says it, in English and Chinese ("your profile", "你的资料"). */
  name: { en: string; zh: string };
  /** Its short name where the kinds are listed (a menu, the web page's navigation): "Profile", "资料". */
  short: { en: string; zh: string };
}

export const FILE_TABLE: Readonly<Record<FileKind, FileKindRow>> = {
  soul: {
    cap: 2000,
    label: "SOUL.md",
    page: "/memory/soul",
    tag: "agent-identity",
    privateSections: false,
    personFacts: false,
    name: { en: "my persona", zh: "我的人设" },
    short: { en: "Persona", zh: "人设" },
  },
  user: {
    cap: 1400,
    label: "USER.md",
    page: "/memory/user",
    tag: "user-profile",
    dropOrder: 3,
    privateSections: true,
    personFacts: true,
    name: { en: "your profile", zh: "你的资料" },
    short: { en: "Profile", zh: "资料" },
  },
  memory: {
    cap: 2200,
    label: "MEMORY.md",
    page: "/memory/memory",
    tag: "agent-notes",
    dropOrder: 2,
    privateSections: true,
    personFacts: false,
    name: { en: "my notes", zh: "我的笔记" },
    short: { en: "Notes", zh: "笔记" },
  },
  daily: {
    cap: 1000,
    label: "daily",
    page: "/memory/daily",
    tag: "recent-activity",
    privateSections: false,
    personFacts: false,
    name: { en: "daily log", zh: "每日日志" },
    short: { en: "Log", zh: "日志" },
  },
};

export const CAPS: Readonly<Record<FileKind, number>> = Object.fromEntries(FILE_KINDS.map((kind) => [kind, FILE_TABLE[kind].cap])) as Record<FileKind, number>;

/** The one-file kinds, in the order they are shown and exported. */
export const WHOLE_FILE_KINDS: readonly WholeFileKind[] = ["soul", "user", "memory"];
/** Their file names: SOUL.md, USER.md, MEMORY.md. */
export const WHOLE_FILE_LABELS: readonly string[] = WHOLE_FILE_KINDS.map((kind) => FILE_TABLE[kind].label);

/** Whether a name a caller holds (a search hit's source, a form's field) is a one-file kind. */
export function isWholeFileKind(kind: string): kind is WholeFileKind {
  return (WHOLE_FILE_KINDS as readonly string[]).includes(kind);
}

/** Every one-file kind empty: a snapshot's files before any is read (a measure, a test). */
export const NO_FILES: Readonly<Record<WholeFileKind, string>> = Object.fromEntries(WHOLE_FILE_KINDS.map((kind) => [kind, ""])) as Record<
  WholeFileKind,
  string
>;

/** The one-file kind whose file name this is, ignoring case ("user.md" is USER.md): one file uploaded alone. */
export function wholeFileNamed(fileName: string): WholeFileKind | undefined {
  const name = fileName.toLowerCase();
  return WHOLE_FILE_KINDS.find((kind) => FILE_TABLE[kind].label.toLowerCase() === name);
}

/** The one-file kinds whose sections can be marked private (USER.md, MEMORY.md). */
export const PRIVATE_SECTION_KINDS: readonly WholeFileKind[] = WHOLE_FILE_KINDS.filter((kind) => FILE_TABLE[kind].privateSections);

/** Their file names: USER.md, MEMORY.md. */
export const PRIVATE_SECTION_LABELS: readonly string[] = PRIVATE_SECTION_KINDS.map((kind) => FILE_TABLE[kind].label);

/** Whether `kind` (a file kind, or any other name a caller holds) is one whose sections can be marked private. */
export function hasPrivateSections(kind: string): boolean {
  return (FILE_KINDS as readonly string[]).includes(kind) && FILE_TABLE[kind as FileKind].privateSections;
}

/** Whether `kind` holds facts about the person (USER.md): the owner's own words only, unasked. */
export function holdsPersonFacts(kind: string): boolean {
  return (FILE_KINDS as readonly string[]).includes(kind) && FILE_TABLE[kind as FileKind].personFacts;
}

/** What "ask before saving: profile" holds for the person's OK: the files of their facts, then the persona. */
export const PROFILE_KINDS: readonly WholeFileKind[] = [...WHOLE_FILE_KINDS.filter((kind) => FILE_TABLE[kind].personFacts), "soul"];

/** The kind of a journal label: a whole file by its name, a log by its `daily/` path; undefined for anything else. */
export function kindOfLabel(label: string): FileKind | undefined {
  if (label.startsWith("daily/")) return "daily";
  return WHOLE_FILE_KINDS.find((kind) => FILE_TABLE[kind].label === label);
}
