import type { z } from "zod";

/**
 * An error answer as Discord writes it: HTTP status plus the JSON `{ message, code, errors? }`.
 * Returned as a value by the fake's actions; only the HTTP layer turns it into a response.
 */
export class DiscordFailure {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
    readonly errors?: unknown,
  ) {}

  toJSON(): { message: string; code: number; errors?: unknown } {
    return { message: this.message, code: this.code, ...(this.errors === undefined ? {} : { errors: this.errors }) };
  }
}

export const failures = {
  unauthorized: () => new DiscordFailure(401, 0, "401: Unauthorized"),
  notFound: () => new DiscordFailure(404, 0, "404: Not Found"),
  unknownChannel: () => new DiscordFailure(404, 10003, "Unknown Channel"),
  unknownGuild: () => new DiscordFailure(404, 10004, "Unknown Guild"),
  unknownMember: () => new DiscordFailure(404, 10007, "Unknown Member"),
  unknownMessage: () => new DiscordFailure(404, 10008, "Unknown Message"),
  unknownUser: () => new DiscordFailure(404, 10013, "Unknown User"),
  unknownWebhook: () => new DiscordFailure(404, 10015, "Unknown Webhook"),
  unknownInteraction: () => new DiscordFailure(404, 10062, "Unknown interaction"),
  emptyMessage: () => new DiscordFailure(400, 50006, "Cannot send an empty message"),
  wrongChannelType: () => new DiscordFailure(400, 50024, "Cannot execute action on this channel type"),
  alreadyAcknowledged: () => new DiscordFailure(400, 40060, "Interaction has already been acknowledged."),
  threadArchived: () => new DiscordFailure(400, 50083, "Thread is archived"),
  threadAlreadyCreated: () => new DiscordFailure(400, 160004, "A thread has already been created for this message"),
  invalidFormBody: (errors: unknown) => new DiscordFailure(400, 50035, "Invalid Form Body", errors),
};

/** Zod issues in Discord's nested `{ field: { _errors: [{ code, message }] } }` layout. */
export function formBodyFailure(issues: readonly z.core.$ZodIssue[]): DiscordFailure {
  const errors: Record<string, unknown> = {};
  for (const issue of issues) {
    let node = errors;
    for (const key of issue.path) {
      const name = String(key);
      node[name] ??= {};
      node = node[name] as Record<string, unknown>;
    }
    const list = (node._errors ??= []) as { code: string; message: string }[];
    list.push({ code: discordCodeFor(issue), message: issue.message });
  }
  return failures.invalidFormBody(errors);
}

function discordCodeFor(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_big") return "BASE_TYPE_MAX_LENGTH";
  if (issue.code === "too_small") return "BASE_TYPE_MIN_LENGTH";
  if (issue.code === "invalid_type" && issue.input === undefined) return "BASE_TYPE_REQUIRED";
  return "BASE_TYPE_INVALID";
}
