import type { Client, MessageCreateOptions } from "discord.js";
import type { ReceiptPlace } from "./views/receipt.js";

/** Posts a receipt in a channel (a thread or DM) or in the person's DMs; false when it could not be posted. */
export async function postReceipt(client: Client, place: ReceiptPlace, channelId: string, owner: string, message: MessageCreateOptions): Promise<boolean> {
  if (place === "none") return false;
  if (place === "dm-unless-deleted" && !(await client.channels.fetch(channelId).catch(() => null))) return false;
  const channel = place === "channel" ? await client.channels.fetch(channelId) : await (await client.users.fetch(owner)).createDM();
  if (!channel?.isSendable()) return false;
  await channel.send(message);
  return true;
}
