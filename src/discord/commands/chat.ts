import { ChannelType, MessageFlags, SlashCommandBuilder, type ThreadChannel } from "discord.js";
import { parsePersona } from "../../memory/persona.js";
import type { Command } from "../bot-context.js";
import { displayNameOf, inLocale } from "../interaction-helpers.js";
import { NO_MENTIONS } from "../reply-stream.js";

export const chatCommand: Command = {
  data: new SlashCommandBuilder()
    .setName("chat")
    .setNameLocalization("zh-CN", "聊天")
    .setDescription("Start a conversation with me in a new thread")
    .setDescriptionLocalization("zh-CN", "在新的子区里和我开始对话")
    .addStringOption((o) =>
      o
        .setName("topic")
        .setNameLocalization("zh-CN", "话题")
        .setDescription("What the thread is about (its name)")
        .setDescriptionLocalization("zh-CN", "子区的话题（也是子区名）")
        .setMaxLength(100),
    )
    .addBooleanOption((o) =>
      o
        .setName("private")
        .setNameLocalization("zh-CN", "私密")
        .setDescription("Make the thread private (only you, me and moderators)")
        .setDescriptionLocalization("zh-CN", "创建私密子区（仅你、我和管理员可见）"),
    )
    .addUserOption((o) =>
      o
        .setName("with")
        .setNameLocalization("zh-CN", "邀请")
        .setDescription("Someone to bring into the conversation: I hear them too, and remember only you")
        .setDescriptionLocalization("zh-CN", "邀请某人加入对话：我也会听他们说话，但只记住你的事"),
    ),

  async execute(interaction, ctx) {
    const channel = interaction.channel;
    if (!interaction.inGuild() || !channel || channel.type !== ChannelType.GuildText) {
      await interaction.reply({
        content: inLocale(
          interaction,
          "Use /chat in a server text channel. In direct messages, just write to me.",
          "请在服务器的文字频道里使用 /chat；私信里直接给我发消息即可。",
        ),
        flags: MessageFlags.Ephemeral,
      });
      return;
    }
    // A new thread counts as a message: nobody opens threads faster than PERSON_MESSAGES_PER_MINUTE.
    const refused = ctx.conversations.mayStart(interaction.user.id, (en, zh) => inLocale(interaction, en, zh));
    if (refused) {
      await interaction.reply({ content: refused, flags: MessageFlags.Ephemeral });
      return;
    }
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const displayName = displayNameOf(interaction);
    const topic = interaction.options.getString("topic")?.trim();
    const isPrivate = interaction.options.getBoolean("private") ?? false;
    const invited = interaction.options.getUser("with");
    if (invited && (invited.bot || invited.id === interaction.user.id)) {
      await interaction.editReply(inLocale(interaction, "Invite another person (not yourself, not a bot), or leave with: out.", "请邀请另一个人（不能是你自己或机器人），或者不填“邀请”。"));
      return;
    }
    const invitedMember = invited ? interaction.options.getMember("with") : null;
    const guests = invited
      ? [{ userId: invited.id, displayName: (invitedMember && "displayName" in invitedMember ? invitedMember.displayName : undefined) ?? invited.globalName ?? invited.username }]
      : [];
    const name = (topic || inLocale(interaction, `Chat with ${displayName}`, `与 ${displayName} 的对话`)).slice(0, 100);
    let thread: ThreadChannel;
    try {
      thread = await channel.threads.create({
        name,
        type: isPrivate ? ChannelType.PrivateThread : ChannelType.PublicThread,
        autoArchiveDuration: 1440,
        ...(isPrivate ? { invitable: false } : {}),
      });
    } catch (error) {
      ctx.log.warn({ err: String(error) }, "thread creation failed");
      await interaction.editReply(
        inLocale(
          interaction,
          "I couldn't create a thread here. Please check that I may Create Public/Private Threads in this channel, then try again.",
          "我无法在这里创建子区。请确认我在此频道有创建公开/私密子区的权限，然后再试一次。",
        ),
      );
      return;
    }
    for (const id of [interaction.user.id, ...guests.map((g) => g.userId)]) {
      await thread.members.add(id).catch((error: unknown) => {
        ctx.log.warn({ err: String(error) }, "could not add a member to the thread");
      });
    }
    const person = { userId: interaction.user.id, displayName, locale: interaction.locale };
    await ctx.conversations.openInThread(thread.id, name, interaction.guildId, person, isPrivate ? "private" : "public", guests);
    const persona = parsePersona(await ctx.engine.memoryOf(person.userId).soul.read(), interaction.locale);
    const greeting = inLocale(
      interaction,
      `👋 Hi ${displayName}, I'm ${persona.name}. ${topic ? `Let's talk about “${topic}”.` : "What's on your mind?"} (Use /end when we're done.)`,
      `👋 你好，${displayName}！我是${persona.name}。${topic ? `我们来聊聊“${topic}”吧。` : "想聊些什么？"}（聊完可以用 /end 结束。）`,
    );
    const welcome = guests.length
      ? `\n${inLocale(
          interaction,
          `<@${guests[0]!.userId}> is invited: I hear you both, and remember only what ${displayName} tells me about themselves.`,
          `已邀请 <@${guests[0]!.userId}>：我会听你们两位说话，但只记住 ${displayName} 关于自己的事。`,
        )}`
      : "";
    // The invited member is pinged once, so they know where to talk.
    await thread.send({ content: greeting + welcome, allowedMentions: guests.length ? { users: [guests[0]!.userId] } : NO_MENTIONS });
    await interaction.editReply({ content: inLocale(interaction, `Started ${thread}.`, `已开始：${thread}`), allowedMentions: NO_MENTIONS });
  },
};
