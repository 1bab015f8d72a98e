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
}

export const FILE_TABLE: Readonly<Record<FileKind, FileKindRow>> = {
  soul: { cap: 2000, label: "SOUL.md", page: "/memory/soul" },
  user: { cap: 1400, label: "USER.md", page: "/memory/user" },
  memory: { cap: 2200, label: "MEMORY.md", page: "/memory/memory" },
  daily: { cap: 1000, label: "daily", page: "/memory/daily" },
};

export const CAPS: Readonly<Record<FileKind, number>> = Object.fromEntries(FILE_KINDS.map((kind) => [kind, FILE_TABLE[kind].cap])) as Record<FileKind, number>;

/** The one-file kinds, in the order they are shown and exported. */
export const WHOLE_FILE_KINDS: readonly WholeFileKind[] = ["soul", "user", "memory"];
/** Their file names: SOUL.md, USER.md, MEMORY.md. */
export const WHOLE_FILE_LABELS: readonly string[] = WHOLE_FILE_KINDS.map((kind) => FILE_TABLE[kind].label);

/** The kind of a journal label: a whole file by its name, a log by its `daily/` path; undefined for anything else. */
export function kindOfLabel(label: string): FileKind | undefined {
  if (label.startsWith("daily/")) return "daily";
  return WHOLE_FILE_KINDS.find((kind) => FILE_TABLE[kind].label === label);
}
