import { MessageFlags, type ChatInputCommandInteraction } from "discord.js";
import type { Config } from "../../config.js";
import { mintSignInToken, SIGN_IN_LINK_MS, webSecret } from "../../sessions/web-sign-in.js";
import { sayFor } from "../interaction-helpers.js";

/**
 * /memory web: a sign-in link to the web page for the caller alone (ephemeral), good for ten
 * minutes and once. The page may run in another process (`npm run web`): it shares the home,
 * whose web-secret signs the link, and the session store, which uses it up.
 */
export async function runWebLink(interaction: ChatInputCommandInteraction, config: Config): Promise<void> {
  const say = sayFor(interaction);
  if (!config.publicUrl) {
    await interaction.reply({
      content: say(
        "The web page is not set up on this bot. Whoever runs it adds to the bot's .env either WEB_PORT (the bot serves the page) or, when the page runs on its own (npm run web), PUBLIC_URL with the page's address.",
        "这个机器人没有设置网页。运行它的人需要在机器人的 .env 中添加 WEB_PORT（由机器人提供网页），或者在网页单独运行（npm run web）时添加 PUBLIC_URL，值为网页的地址。",
      ),
      flags: MessageFlags.Ephemeral,
    });
    return;
  }
  const token = mintSignInToken(await webSecret(config.home), interaction.user.id);
  const minutes = SIGN_IN_LINK_MS / 60_000;
  await interaction.reply({
    content: say(
      `Your memory on the web: <${config.publicUrl}/auth/link/${token}>\n-# For you only: it signs in as you, works once and for ${minutes} minutes. Don't share it.`,
      `你的记忆网页：<${config.publicUrl}/auth/link/${token}>\n-# 仅限你本人：它会以你的身份登录，只能用一次，${minutes} 分钟内有效。请勿分享。`,
    ),
    flags: MessageFlags.Ephemeral,
    allowedMentions: { parse: [] },
  });
}
