import type { APIEmbed, APIMessageTopLevelComponent } from "discord.js";
import { z } from "zod";
import { type DiscordFailure, failures, formBodyFailure } from "./discord-errors.js";
import type { AllowedMentions, FakeMessage, MessageContentPatch, RecordedAttachment } from "./model.js";
import type { UploadedFile } from "./router.js";
import type { SnowflakeGenerator } from "./snowflake.js";

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

/** The limits Discord enforces on message bodies, so a bot that breaks them fails here as it would there. */
const allowedMentionsSchema = z
  .object({
    parse: z.array(z.enum(["users", "roles", "everyone"])).nullish(),
    users: z.array(z.string()).max(100).nullish(),
    roles: z.array(z.string()).max(100).nullish(),
    replied_user: z.boolean().nullish(),
  })
  // discord.js passes the bot's allowedMentions through as given; Discord treats null as absent.
  .transform((mentions): AllowedMentions => Object.fromEntries(Object.entries(mentions).filter(([, value]) => value !== null && value !== undefined)));

const messageBodySchema = z.object({
  content: z.string().max(2000, "Must be 2000 or fewer in length.").nullish(),
  embeds: z.array(z.custom<APIEmbed>(isObject)).max(10).nullish(),
  components: z
    .array(z.custom<APIMessageTopLevelComponent>((v) => isObject(v) && "type" in v))
    .max(40)
    .nullish(),
  flags: z.number().int().nullish(),
  allowed_mentions: allowedMentionsSchema.nullish(),
  // Kept attachments come back as whole attachment objects, nulls included.
  attachments: z
    .array(
      z.looseObject({
        id: z.union([z.string(), z.number()]),
        filename: z.string().nullish(),
        description: z.string().max(1024).nullish(),
      }),
    )
    .max(10)
    .nullish(),
  tts: z.boolean().nullish(),
  nonce: z.union([z.string().max(25), z.number()]).nullish(),
  message_reference: z.object({ message_id: z.string().nullish(), fail_if_not_exists: z.boolean().nullish() }).nullish(),
});

type MessageBody = z.infer<typeof messageBodySchema>;

export interface ParsedMessageBody {
  patch: MessageContentPatch;
  body: MessageBody;
}

export interface ParseOptions {
  /** The message being edited: the attachments it keeps are the ones the body lists by id. */
  editing?: FakeMessage;
  /** Deferrals and edits may carry nothing but flags. */
  allowEmpty?: boolean;
}

/** Reads a create or edit body (JSON, or multipart with `payload_json` and `files[n]`) into a patch. */
export function parseMessageBody(raw: unknown, files: UploadedFile[], ids: SnowflakeGenerator, options: ParseOptions = {}): ParsedMessageBody | DiscordFailure {
  const existing = options.editing;
  const result = messageBodySchema.safeParse(raw ?? {});
  if (!result.success) return formBodyFailure(result.error.issues);
  const body = result.data;

  const uploaded = files.map((file, position) => {
    const index = /^files\[(\d+)\]$/.exec(file.key)?.[1] ?? String(position);
    const described = body.attachments?.find((a) => String(a.id) === index);
    return toAttachment(file, ids.next(), described?.description ?? null);
  });
  let attachments: RecordedAttachment[] | undefined;
  if (existing) {
    const kept = body.attachments ? existing.attachments.filter((a) => body.attachments?.some((listed) => String(listed.id) === a.id)) : existing.attachments;
    attachments = body.attachments || uploaded.length > 0 ? [...kept, ...uploaded] : undefined;
  } else {
    attachments = uploaded;
  }

  const patch: MessageContentPatch = {
    ...(body.content !== undefined ? { content: body.content ?? "" } : {}),
    ...(body.embeds !== undefined ? { embeds: body.embeds ?? [] } : {}),
    ...(body.components !== undefined ? { components: body.components ?? [] } : {}),
    ...(body.flags !== undefined && body.flags !== null ? { flags: body.flags } : {}),
    ...(body.allowed_mentions ? { allowedMentions: body.allowed_mentions } : {}),
    ...(attachments ? { attachments } : {}),
  };
  if (!existing && !options.allowEmpty && isEmpty(patch)) return failures.emptyMessage();
  return { patch, body };
}

function isEmpty(patch: MessageContentPatch): boolean {
  return !patch.content && !patch.embeds?.length && !patch.components?.length && !patch.attachments?.length;
}

function toAttachment(file: UploadedFile, id: string, description: string | null): RecordedAttachment {
  return {
    id,
    filename: file.filename,
    contentType: file.contentType,
    size: file.data.length,
    description,
    width: null,
    height: null,
    data: file.data,
    text: file.data.toString("utf8"),
  };
}
