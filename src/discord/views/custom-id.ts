/**
 * `<prefix>:<owner id>:<args…>`: everything a handler needs is in the id, so a button keeps
 * working after a restart, and only its owner may use it. Discord allows 100 characters.
 */
export function componentId(prefix: string, ownerId: string, ...args: string[]): string {
  const id = [prefix, ownerId, ...args].join(":");
  if (id.length > 100) throw new Error(`custom id too long: ${id}`);
  return id;
}

/** The parts of a custom id made by componentId. */
export function parseComponentId(customId: string): { prefix: string; owner: string; args: string[] } {
  const [prefix = "", owner = "", ...args] = customId.split(":");
  return { prefix, owner, args };
}
