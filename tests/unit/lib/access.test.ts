import { describe, expect, it } from "vitest";
import { Access, MEMBER_CACHE_MS, type MemberRoles } from "../../../src/lib/access.js";

const GUILD = "100";
const OTHER_GUILD = "200";
const ROLE = "300";

/** Discord as seen over REST: who is a member of which server, with which roles; every question is counted. */
function discordMembers(members: Record<string, Record<string, string[]>>) {
  const asked: string[] = [];
  const lookup: MemberRoles = async (guildId, userId) => {
    asked.push(`${guildId}:${userId}`);
    return members[guildId]?.[userId] ?? null;
  };
  return { asked, lookup, members };
}

const dm = (userId: string) => ({ userId, guildId: undefined, roleIds: [] });
const lists = (allowed: Partial<{ guildIds: string[]; userIds: string[]; roleIds: string[] }>, allowDms = true) => ({
  allowed: { guildIds: [], userIds: [], roleIds: [], ...allowed },
  allowDms,
});

describe("Access", () => {
  it("in a server, each list that is set must hold; no lookup is made", async () => {
    const discord = discordMembers({});
    const access = new Access(lists({ guildIds: [GUILD], roleIds: [ROLE] }), discord.lookup, () => []);
    expect(await access.check({ userId: "1", guildId: GUILD, roleIds: [ROLE] })).toBeUndefined();
    expect(await access.check({ userId: "1", guildId: GUILD, roleIds: [] })).toBe("not-allowed");
    expect(await access.check({ userId: "1", guildId: OTHER_GUILD, roleIds: [ROLE] })).toBe("not-allowed");
    expect(discord.asked).toEqual([]);
  });

  it("admits a DM from a member of any allowed server, and refuses everyone else", async () => {
    const discord = discordMembers({ [OTHER_GUILD]: { "7": [] } });
    const access = new Access(lists({ guildIds: [GUILD, OTHER_GUILD] }), discord.lookup, () => []);
    expect(await access.check(dm("7"))).toBeUndefined();
    expect(await access.check(dm("8"))).toBe("dm-not-member");
  });

  it("with only a user list, a DM needs no lookup; with no list at all, everyone may DM unless DMs are off", async () => {
    const discord = discordMembers({});
    expect(await new Access(lists({ userIds: ["7"] }), discord.lookup, () => []).check(dm("7"))).toBeUndefined();
    expect(await new Access(lists({ userIds: ["7"] }), discord.lookup, () => []).check(dm("8"))).toBe("not-allowed");
    expect(await new Access(lists({}), discord.lookup, () => []).check(dm("8"))).toBeUndefined();
    expect(await new Access(lists({}, false), discord.lookup, () => []).check(dm("8"))).toBe("dms-off");
    expect(discord.asked).toEqual([]);
  });

  it("with a role list and no server list, asks the servers that own the roles", async () => {
    const discord = discordMembers({ [GUILD]: { "7": [ROLE], "8": [] } });
    const access = new Access(lists({ roleIds: [ROLE] }), discord.lookup, (roles) => (roles.includes(ROLE) ? [GUILD] : []));
    expect(await access.check(dm("7"))).toBeUndefined();
    expect(await access.check(dm("8"))).toBe("dm-no-role");
    expect(discord.asked).toEqual([`${GUILD}:7`, `${GUILD}:8`]);
  });

  it("trusts an answer for a minute: someone who leaves the server is refused once it has passed", async () => {
    let now = 1_000_000;
    const discord = discordMembers({ [GUILD]: { "7": [] } });
    const access = new Access(
      lists({ guildIds: [GUILD] }),
      discord.lookup,
      () => [],
      () => now,
    );
    expect(await access.check(dm("7"))).toBeUndefined();
    delete discord.members[GUILD]!["7"];
    now += MEMBER_CACHE_MS - 1;
    expect(await access.check(dm("7"))).toBeUndefined();
    now += 1;
    expect(await access.check(dm("7"))).toBe("dm-not-member");
    expect(discord.asked).toHaveLength(2);
  });

  it("asks once for several messages at the same moment", async () => {
    const discord = discordMembers({ [GUILD]: { "7": [] } });
    const access = new Access(lists({ guildIds: [GUILD] }), discord.lookup, () => []);
    const answers = await Promise.all(Array.from({ length: 20 }, () => access.check(dm("9"))));
    expect(new Set(answers)).toEqual(new Set(["dm-not-member"]));
    expect(discord.asked).toEqual([`${GUILD}:9`]);
  });

  it("refuses when the lookup fails or hangs, and asks again next time", async () => {
    let mode: "fail" | "hang" | "ok" = "fail";
    const asked: string[] = [];
    const lookup: MemberRoles = (guildId, userId) => {
      asked.push(`${guildId}:${userId}`);
      if (mode === "fail") return Promise.reject(new Error("500"));
      if (mode === "hang") return new Promise(() => {});
      return Promise.resolve([]);
    };
    const access = new Access(lists({ guildIds: [GUILD] }), lookup, () => []);
    expect(await access.check(dm("7"))).toBe("check-failed");
    mode = "hang";
    const started = Date.now();
    expect(await access.check(dm("7"))).toBe("check-failed");
    expect(Date.now() - started).toBeLessThan(2_900);
    mode = "ok";
    expect(await access.check(dm("7"))).toBeUndefined();
    expect(asked).toHaveLength(3);
  });
});
