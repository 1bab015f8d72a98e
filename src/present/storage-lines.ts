import type { Say } from "../lib/locale.js";
import type { StorageFull, StorageUsage } from "../memory/storage-quota.js";

/** Bytes as people read them, rounded up (a file just over a limit never shows as the limit): "1.4 MB", "820 KB". */
export function bytesShown(bytes: number): string {
  return bytes >= 1_000_000 ? `${Math.ceil(bytes / 100_000) / 10} MB` : `${Math.ceil(bytes / 1000)} KB`;
}

/** "12.3 MB of 100 MB" (or only the used figure where there is no quota). */
export function storageLine(usage: StorageUsage, say: Say): string {
  const used = bytesShown(usage.usedBytes);
  if (usage.quotaBytes === undefined) return used;
  return say(`${used} of ${bytesShown(usage.quotaBytes)}`, `已用 ${used}，共 ${bytesShown(usage.quotaBytes)}`);
}

/** What frees room, on every front end: the person deletes; the operator can raise the quota. */
const whatToDelete = (say: Say) =>
  say(
    "Delete conversations you no longer need (the web page's Conversations, from /memory web) or forget words with /memory forget, then try again; the bot's operator can raise STORAGE_QUOTA_MB.",
    "请删除不再需要的对话（网页的“对话”，从 /memory web 打开），或用 /memory forget 遗忘某些词，然后重试；机器人的运营者可以调高 STORAGE_QUOTA_MB。",
  );

/** A write refused for the quota, in one line: how much is used, what it would add, what to delete. */
export function storageFullLine(full: StorageFull, say: Say): string {
  const used = bytesShown(full.usedBytes);
  const quota = bytesShown(full.quotaBytes);
  const adds = full.addsBytes > 0 ? say(`, and this would add ${bytesShown(full.addsBytes)}`, `，这次会再增加 ${bytesShown(full.addsBytes)}`) : "";
  return (
    say(`Your memory here is full: it uses ${used} of its ${quota}${adds}. `, `你在这里的记忆空间已满：已用 ${used}，共 ${quota}${adds}。`) + whatToDelete(say)
  );
}

/** Said once a conversation while the person is over their quota: what they send now is not kept (`files`: where they can attach some). */
export function storageFullTurnLine(full: StorageFull, say: Say, { files }: { files: boolean }): string {
  const used = bytesShown(full.usedBytes);
  const quota = bytesShown(full.quotaBytes);
  const unread = files ? say(" and I don't read the files you attach", "，你发送的文件我也不会读取") : "";
  return (
    say(
      `💾 Your memory here is full (${used} of ${quota}): I still answer, but this conversation won't be kept word for word${unread}. `,
      `💾 你在这里的记忆空间已满（已用 ${used}，共 ${quota}）：我仍会回答，但这次对话不会逐字保存${unread}。`,
    ) + whatToDelete(say)
  );
}
