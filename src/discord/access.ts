import type { Config } from "../config.js";

export interface Caller {
  userId: string;
  /** Undefined in a DM. */
  guildId: string | undefined;
  roleIds: readonly string[];
}

/**
 * Each non-empty allow list must be satisfied. In a DM there is no server or role to
 * check, so a role list admits DM users only when they are listed by id.
 */
export function isAllowed(config: Pick<Config, "allowed" | "allowDms">, caller: Caller): boolean {
  const { guildIds, userIds, roleIds } = config.allowed;
  if (userIds.length > 0 && !userIds.includes(caller.userId)) return false;
  if (caller.guildId === undefined) {
    if (!config.allowDms) return false;
    return roleIds.length === 0 || userIds.includes(caller.userId);
  }
  if (guildIds.length > 0 && !guildIds.includes(caller.guildId)) return false;
  return roleIds.length === 0 || caller.roleIds.some((id) => roleIds.includes(id));
}

export const REFUSAL = "Sorry, you're not allowed to use this bot here. Ask the server's admins if you think you should be.";
