import { ChannelType, MessageFlags, SlashCommandBuilder, type ChatInputCommandInteraction, type ThreadChannel } from "discord.js";
import { parsePersona } from "../../memory/index.js";
import type { BotContext, Command } from "../bot-context.js";
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
    // In a thread of one of the bot's conversations, with:@member brings them into that conversation.
    if (interaction.inGuild() && channel?.isThread() && (await ctx.engine.sessionIn(channel.id))) return inviteIntoThread(interaction, channel, ctx);
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
      await interaction.editReply(
        inLocale(
          interaction,
          "Invite another person (not yourself, not a bot), or leave with: out.",
          "请邀请另一个人（不能是你自己或机器人），或者不填“邀请”。",
        ),
      );
      return;
    }
    const invitedMember = invited ? interaction.options.getMember("with") : null;
    const guests = invited
      ? [
          {
            userId: invited.id,
            displayName: (invitedMember && "displayName" in invitedMember ? invitedMember.displayName : undefined) ?? invited.globalName ?? invited.username,
          },
        ]
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
    const persona = parsePersona(await ctx.engine.memoryOf(person.userId, interaction.locale).soul.read(), interaction.locale);
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

/**
 * /chat with:@member inside a conversation's public thread: the member joins that conversation.
 * Its prompt was frozen for the owner alone, so the conversation so far is closed (summarised as
 * usual) and a new one opens in the same thread with the members it had and the new one, as /chat
 * with: would have started it. A private thread is refused: the member would read all of it.
 */
async function inviteIntoThread(interaction: ChatInputCommandInteraction<"cached" | "raw">, thread: ThreadChannel, ctx: BotContext): Promise<void> {
  const say = (en: string, zh: string) => inLocale(interaction, en, zh);
  const session = (await ctx.engine.sessionIn(thread.id))!;
  const invited = interaction.options.getUser("with");
  if (session.userId !== interaction.user.id) {
    return void (await interaction.reply({
      content: say("Only the person this conversation is with can invite someone into it.", "只有这段对话的主人才能邀请别人加入。"),
      flags: MessageFlags.Ephemeral,
    }));
  }
  if (!invited) {
    return void (await interaction.reply({
      content: say(
        "You are in a conversation with me already: /chat with:@someone here brings them into it, and /chat in a channel starts a new one.",
        "你已经在和我对话：在这里用 /chat 邀请:@某人 可以让对方加入，在频道里用 /chat 可以开始新的对话。",
      ),
      flags: MessageFlags.Ephemeral,
    }));
  }
  // A private thread holds what was said before with the private sections in view: whoever is added reads it all.
  if (thread.type === ChannelType.PrivateThread) {
    return void (await interaction.reply({
      content: say(
        "This thread is private, and everything said in it so far would be theirs to read: start a new conversation with them instead (/chat with:@someone in a channel).",
        "这是私密子区，之前说过的一切对方都能看到：请改为和对方开始新的对话（在频道里用 /chat 邀请:@某人）。",
      ),
      flags: MessageFlags.Ephemeral,
    }));
  }
  // Each invitation ends a conversation (a summary by the model): no faster than new conversations.
  const refused = ctx.conversations.mayStart(interaction.user.id, say);
  if (refused) return void (await interaction.reply({ content: refused, flags: MessageFlags.Ephemeral }));
  const guests = session.status === "open" ? (session.guests ?? []) : [];
  if (invited.bot || invited.id === interaction.user.id || guests.some((g) => g.userId === invited.id)) {
    const line = guests.some((g) => g.userId === invited.id)
      ? say(`<@${invited.id}> is in this conversation already.`, `<@${invited.id}> 已经在这段对话里了。`)
      : say("Invite another person (not yourself, not a bot).", "请邀请另一个人（不能是你自己或机器人）。");
    return void (await interaction.reply({ content: line, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS }));
  }
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const member = interaction.options.getMember("with");
  const guest = {
    userId: invited.id,
    displayName: (member && "displayName" in member ? member.displayName : undefined) ?? invited.globalName ?? invited.username,
  };
  await ctx.conversations.closeChannel(thread.id, "a member was invited", "channel");
  const person = { userId: interaction.user.id, displayName: displayNameOf(interaction), locale: interaction.locale };
  await ctx.conversations.openInThread(thread.id, thread.name, interaction.guildId, person, "public", [...guests, guest]);
  await thread.members.add(guest.userId).catch((error: unknown) => ctx.log.warn({ err: String(error) }, "could not add a member to the thread"));
  await thread.send({
    content: say(
      `<@${guest.userId}> is invited: I hear you both from here on, and remember only what ${person.displayName} tells me about themselves. (What we said before is in ${person.displayName}'s daily log.)`,
      `已邀请 <@${guest.userId}>：从现在起我会听你们两位说话，但只记住 ${person.displayName} 关于自己的事。（之前的对话已记入 ${person.displayName} 的每日日志。）`,
    ),
    allowedMentions: { users: [guest.userId] },
  });
  await interaction.editReply({
    content: say(`Invited <@${guest.userId}> into this conversation.`, `已邀请 <@${guest.userId}> 加入这段对话。`),
    allowedMentions: NO_MENTIONS,
  });
}
