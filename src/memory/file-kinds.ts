/** The memory files every person has, and their caps: the leaf every layer may name. */
export type FileKind = "soul" | "user" | "memory" | "daily";
export const FILE_KINDS: readonly FileKind[] = ["soul", "user", "memory", "daily"];

export const CAPS: Record<FileKind, number> = { soul: 2000, user: 1400, memory: 2200, daily: 1000 };
