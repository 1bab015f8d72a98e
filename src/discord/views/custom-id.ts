/**
 * `<prefix>:<owner id>:<args…>`: everything a handler needs is in the id, so a button keeps
 * working after a restart, and only its owner may use it. Discord allows 100 characters.
 */
/**
 * Every prefix a custom id may start with, by what its component does: views make ids with these
 * and handlers are routed by them (tests/unit/discord/component-ids.test.ts: each has one handler).
 */
export const COMPONENT = {
  historyPage: "mh",
  undoMenu: "mu",
  undoChain: "mc",
  undoChainCancel: "mx",
  undo: "ru",
  tidyDetails: "td",
  stop: "st",
  importConfirm: "im",
  importCancel: "ix",
  forgetConfirm: "fg",
  forgetCancel: "fx",
  deleteAll: "md",
  sourceNotRight: "nr",
  sourceMenu: "ns",
  sourceForget: "nf",
  sourceCorrect: "nc",
  sourceCorrection: "nm",
  proposalSave: "ps",
  proposalDiscard: "pd",
  serverSuggestion: "sn",
} as const;

export type ComponentPrefix = (typeof COMPONENT)[keyof typeof COMPONENT];

export function componentId(prefix: ComponentPrefix, ownerId: string, ...args: string[]): string {
  const id = [prefix, ownerId, ...args].join(":");
  if (id.length > 100) throw new Error(`custom id too long: ${id}`);
  return id;
}

/** The parts of a custom id made by componentId. */
export function parseComponentId(customId: string): { prefix: string; owner: string; args: string[] } {
  const [prefix = "", owner = "", ...args] = customId.split(":");
  return { prefix, owner, args };
}
