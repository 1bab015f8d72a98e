import type { EventEmitter } from "node:events";
import { AttachmentBuilder, Events, GatewayDispatchEvents, MessageType, type APIMessage, type Client } from "discord.js";
import { describe, expect, it } from "vitest";
import { slashOption, type FakeDiscord } from "../fakes/fake-discord/index.js";
import { fakeDiscordPerTest, nextEvent, nextInteraction } from "./fake-discord-client.js";

let discord: FakeDiscord;
const clients = fakeDiscordPerTest((fresh) => (discord = fresh));

/** The next raw gateway dispatch of `event`, as Discord sent it, before discord.js shapes it. */
function nextRawDispatch(client: Client, event: GatewayDispatchEvents, filter: (data: APIMessage) => boolean): Promise<APIMessage> {
  const emitter = client as unknown as EventEmitter;
  return new Promise((resolve) => {
    const listener = (packet: { t?: string; d?: APIMessage }) => {
      if (packet.t !== event || !packet.d || !filter(packet.d)) return;
      emitter.off(Events.Raw, listener);
      resolve(packet.d);
    };
    emitter.on(Events.Raw, listener);
  });
}

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);

describe("fake Discord: attachments and the CDN", () => {
  it("serves a person's attachments from the CDN at signed URLs, and refuses unsigned or altered ones", async () => {
    const client = await clients.logIn(discord);
    const channelId = discord.textChannel.id;
    const received = nextEvent(client, Events.MessageCreate);

    const sent = await discord.userSends({
      channelId,
      userId: discord.alice.id,
      content: "two files",
      attachments: [
        { filename: "notes.txt", contentType: "text/plain; charset=utf-8", data: "héllo" },
        { filename: "cat.png", contentType: "image/png", data: PNG_BYTES, width: 2, height: 3 },
      ],
    });
    const [message] = await received;

    const [notes, cat] = [...message.attachments.values()];
    if (!notes || !cat) throw new Error("expected two attachments");
    expect(notes).toMatchObject({ name: "notes.txt", size: 6, contentType: "text/plain; charset=utf-8", width: null, ephemeral: false });
    expect(cat).toMatchObject({ name: "cat.png", size: PNG_BYTES.length, contentType: "image/png", width: 2, height: 3 });
    expect(sent.attachments.map((a) => a.size)).toEqual([6, PNG_BYTES.length]);
    const url = new URL(notes.url);
    expect(url.origin).toBe(discord.cdnUrl);
    expect(url.pathname).toBe(`/attachments/${channelId}/${notes.id}/notes.txt`);
    expect([...url.searchParams.keys()]).toEqual(["ex", "is", "hm"]);
    expect(Number.parseInt(url.searchParams.get("ex") ?? "", 16) * 1000).toBeGreaterThan(Date.now());
    expect(notes.proxyURL).toBe(notes.url);

    const download = await fetch(notes.url);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await download.text()).toBe("héllo");
    expect(Buffer.from(await (await fetch(cat.url)).arrayBuffer())).toEqual(PNG_BYTES);

    const unsigned = `${discord.cdnUrl}${url.pathname}`;
    const altered = notes.url.replace(/hm=[0-9a-f]+/, `hm=${"0".repeat(64)}`);
    const borrowed = `${discord.cdnUrl}/attachments/${channelId}/${cat.id}/cat.png${url.search}`;
    for (const bad of [unsigned, altered, borrowed]) expect((await fetch(bad)).status).toBe(404);
    expect(discord.cdnRequests.map((r) => r.status)).toEqual([200, 200, 404, 404, 404]);
    expect(discord.cdnRequests[0]?.path).toBe(url.pathname);
  });

  it("serves the bot's own uploads from the CDN, and stops once the message is deleted", async () => {
    const client = await clients.logIn(discord);
    const channel = client.channels.cache.get(discord.textChannel.id);
    if (!channel?.isSendable()) throw new Error("expected a sendable channel");

    const sent = await channel.send({ files: [new AttachmentBuilder(Buffer.from("# Memory\n"), { name: "MEMORY.md" })] });
    const file = sent.attachments.first();
    if (!file) throw new Error("expected an attachment");
    expect(await (await fetch(file.url)).text()).toBe("# Memory\n");

    await sent.delete();
    expect((await fetch(file.url)).status).toBe(404);
  });

  it("hands a slash command's attachment option to the bot in resolved.attachments", async () => {
    const client = await clients.logIn(discord);
    const arrived = nextInteraction(client);
    const upload = { filename: "memory.md", contentType: "text/markdown", data: "# Memory\n- likes tea\n" };

    discord.runSlashCommand({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      name: "memory",
      options: [slashOption.subcommand("import", [slashOption.attachment("file", upload)])],
    });
    const interaction = await arrived;
    if (!interaction.isChatInputCommand()) throw new Error("expected a chat input command");
    const file = interaction.options.getAttachment("file", true);

    expect(file).toMatchObject({ name: "memory.md", size: Buffer.byteLength(upload.data), contentType: "text/markdown", ephemeral: true });
    expect(new URL(file.url).pathname).toBe(`/ephemeral-attachments/${discord.textChannel.id}/${file.id}/memory.md`);
    expect(await (await fetch(file.url)).text()).toBe(upload.data);
  });

  it("delivers a reply with stickers and embeds, with the message it replies to", async () => {
    const client = await clients.logIn(discord);
    const channelId = discord.textChannel.id;
    const original = await discord.userSends({ channelId, userId: discord.bob.id, content: "first" });
    const raw = nextRawDispatch(client, GatewayDispatchEvents.MessageCreate, (m) => m.id !== original.id);
    const received = nextEvent(client, Events.MessageCreate, (m) => m.id !== original.id);

    await discord.userSends({
      channelId,
      userId: discord.alice.id,
      content: "look",
      reference: { messageId: original.id },
      stickers: [{ id: "749054660769218631", name: "Wave" }],
      embeds: [{ title: "A link", url: "https://example.com/" }],
    });
    const [message] = await received;

    expect(message.type).toBe(MessageType.Reply);
    expect(message.reference?.messageId).toBe(original.id);
    expect(message.mentions.repliedUser?.id).toBe(discord.bob.id);
    expect(message.stickers.first()?.name).toBe("Wave");
    expect(message.embeds[0]?.title).toBe("A link");
    const payload = await raw;
    expect(payload.type).toBe(MessageType.Reply);
    expect(payload.message_reference).toMatchObject({ message_id: original.id, channel_id: channelId, guild_id: discord.guild.id });
    expect(payload.referenced_message).toMatchObject({ id: original.id, content: "first", author: { id: discord.bob.id } });
    expect(payload.sticker_items).toEqual([{ id: "749054660769218631", name: "Wave", format_type: 1 }]);
  });

  it("refuses messages a person could not send", async () => {
    const at = { channelId: discord.textChannel.id, userId: discord.alice.id };
    const file = (n: number) => ({ filename: `f${n}.txt`, data: "x" });

    await expect(discord.userSends({ ...at, content: "" })).rejects.toThrow(/empty/);
    await expect(discord.userSends({ ...at, content: "", attachments: Array.from({ length: 11 }, (_, n) => file(n)) })).rejects.toThrow(
      /at most 10 attachments/,
    );
    const tooBig = { filename: "big.bin", data: Buffer.alloc(10 * 1024 * 1024 + 1) };
    await expect(discord.userSends({ ...at, content: "", attachments: [tooBig] })).rejects.toThrow(/10 MiB/);
    const sticker = (n: number) => ({ id: String(n), name: `s${n}` });
    await expect(discord.userSends({ ...at, content: "", stickers: [1, 2, 3, 4].map(sticker) })).rejects.toThrow(/at most 3 stickers/);
    await expect(discord.userSends({ ...at, content: "hi", reference: { messageId: "1" } })).rejects.toThrow(/not in channel/);
  });
});
