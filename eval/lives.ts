/**
 * Scripted lives for `npm run eval`: a month of one person talking to the bot, in English and in
 * Chinese, with the nights' tidy-ups, and what should be true of their memory at the end.
 *
 * The person's words are the script. `scripted` is what a careful model would answer, used only
 * with --test-model (the test fake, in CI): it makes the real engine, tools, checks and tidy-up
 * run the whole life; a real model ignores it and answers for itself.
 */
import type { ScriptedReply } from "../tests/fakes/fake-openai.js";

interface EvalTurn {
  person: string;
  scripted?: ScriptedReply[];
}

interface EvalConversation {
  kind: "conversation";
  /** Local date and time (the person's zone) it happens. */
  at: string;
  title: string;
  turns: EvalTurn[];
  /** The daily log's summary, for the test model. */
  summary: string;
}

interface EvalNight {
  kind: "night";
  at: string;
  /** The tidy-up's plan, for the test model. */
  plan?: object;
}

export type EvalCheck =
  | { kind: "stale-replaced"; name: string; current: RegExp; stale: RegExp }
  | { kind: "one-entry"; name: string; pattern: RegExp }
  | { kind: "not-saved"; name: string; pattern: RegExp }
  | { kind: "recalled"; name: string; pattern: RegExp }
  | { kind: "under-cap"; name: string; kept: RegExp[] }
  | { kind: "dated"; name: string; pattern: RegExp };

export interface EvalLife {
  id: string;
  language: "en" | "zh";
  userId: string;
  name: string;
  zone: string;
  events: (EvalConversation | EvalNight)[];
  checks: EvalCheck[];
}

const call = (name: string, args: Record<string, unknown>) => ({ name, arguments: args });
const add = (file: string, section: string, content: string) => call("memory_add", { file, section, content });
const replace = (file: string, section: string, old_text: string, new_text: string) => call("memory_replace", { file, section, old_text, new_text });
const says = (text: string, ...tools: ReturnType<typeof call>[]): ScriptedReply[] => (tools.length > 0 ? [{ toolCalls: tools }, { text }] : [{ text }]);
const op = (fields: object) => ({ old_lines: [], new_lines: [], reason: "", source: "", quote: "", ...fields });

/** Facts enough to bring USER.md near its cap (1,400 characters). */
const MANY_EN = [
  "- Works as a nurse at St. Mary's, night shifts",
  "- Has a cat called Miso (a tabby)",
  "- Sister Clara lives in Lyon",
  "- Plays the cello in a community orchestra",
  "- Runs 5 km on Saturday mornings",
  "- Prefers short answers with examples",
  "- Reads mostly fantasy novels",
  "- Learning German for the move, A2 level",
  "- Vegetarian since 2019",
  "- Birthday: 14 March",
  "- Favourite composer is Dvořák; practises the cello concerto slowly, a page a week",
  "- Takes the U8 to work; dislikes crowded trams in the morning rush",
  "- Best friend Noor is a pharmacist; they cook together on Sundays",
  "- Wants to visit Kyoto in spring to see the temples and eat good tofu",
  "- Keeps a paper journal and a reading list of about forty books",
  "- Allergic to cats in theory, but Miso seems to be fine",
  "- Drinks no alcohol; likes sparkling water with lemon instead",
  "- Night shifts end at 07:00; sleeps until early afternoon after them",
  "- Grew up in Rennes; parents still live there and visit twice a year",
];
const MANY_ZH = [
  "- 在第一人民医院做护士，上夜班",
  "- 养了一只叫年糕的猫（狸花）",
  "- 姐姐住在成都",
  "- 在社区乐团拉大提琴",
  "- 周六早上跑五公里",
  "- 喜欢简短、带例子的回答",
  "- 爱看奇幻小说",
  "- 为了搬家在学北京话的儿化音",
  "- 2019 年起吃素",
  "- 生日：3 月 14 日",
  "- 最喜欢的作曲家是德沃夏克，正在慢慢练他的大提琴协奏曲，每周练一页",
  "- 坐地铁二号线上班，不喜欢早高峰拥挤的车厢，常常提前半小时出门",
  "- 最好的朋友阿诺是药剂师，她们周日常常一起做饭，最拿手的是番茄炒蛋",
  "- 想在春天去京都看寺庙，顺便吃好吃的豆腐料理，还想去奈良喂小鹿",
  "- 有写纸质日记的习惯，阅读清单上大约有四十本书，大多是小说和散文",
  "- 理论上对猫毛过敏，但和年糕相处一直没什么问题，大概是习惯了吧",
  "- 不喝酒，聚会时喜欢点加柠檬的气泡水，偶尔也喝一点无糖的酸梅汤",
  "- 夜班早上七点结束，下班后睡到下午一两点，晚上再去跑步或者练琴",
  "- 在成都长大，父母还住在那里，每年来看她两次，每次都带很多腊肉",
  "- 周末喜欢去书店坐一下午，最常去的是离家不远的一家独立小书店",
  "- 做饭喜欢放很多花椒和辣椒，但最近在学做清淡一点的广东菜和粥",
  "- 计划 2027 年考护理方向的研究生，正在准备英语考试，每天背五十个单词",
  "- 喜欢雨天在家听播客，最常听的是讲历史和城市故事的中文节目",
  "- 手机里存了很多猫的照片，最喜欢年糕睡觉时把爪子盖在脸上的样子",
  "- 夏天喜欢去海边，最想再去一次厦门鼓浪屿，上次去是大学毕业那年",
  "- 每个月给自己买一束花，通常是洋桔梗或者小雏菊，放在餐桌上",
];

export const lives: EvalLife[] = [
  {
    id: "en",
    language: "en",
    userId: "900001",
    name: "Sam",
    zone: "Europe/Paris",
    events: [
      {
        kind: "conversation",
        at: "2026-11-02T10:00",
        title: "hello",
        summary: "Sam lives in Paris near the canal and is allergic to peanuts.",
        turns: [
          {
            person: "Hi! I'm Sam. I live in Paris, near the canal. Important: I'm allergic to peanuts.",
            scripted: says(
              "Nice to meet you, Sam! I'll keep the peanut allergy in mind.",
              add("user", "Home", "- Lives in Paris, near the canal"),
              add("user", "Health", "- Allergic to peanuts"),
            ),
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-04T08:30",
        title: "tea",
        summary: "Sam said they love oolong tea.",
        turns: [{ person: "I really love oolong tea, it's my favourite.", scripted: says("Oolong is lovely.", add("user", "Likes", "- Loves oolong tea")) }],
      },
      {
        kind: "conversation",
        at: "2026-11-06T19:00",
        title: "exercise",
        summary: "The assistant suggested the Boulderhaus climbing gym; Sam was unsure.",
        turns: [
          { person: "I want to exercise more. Any ideas?", scripted: says("You could join the Boulderhaus climbing gym, it has beginner evenings.") },
          { person: "Hmm, maybe. I'll think about it.", scripted: says("Sure, no rush.") },
        ],
      },
      { kind: "night", at: "2026-11-07T04:30", plan: { operations: [] } },
      {
        kind: "conversation",
        at: "2026-11-10T18:00",
        title: "dentist",
        summary: "Sam has a dentist appointment with Dr. Okafor on 2026-11-17.",
        turns: [
          {
            person: "See you next week! I have the dentist with Dr. Okafor next Tuesday.",
            scripted: [
              { toolCalls: [add("memory", "Follow-ups", "- Dentist with Dr. Okafor next Tuesday")] },
              { toolCalls: [add("memory", "Follow-ups", "- Dentist with Dr. Okafor on 2026-11-17")] },
              { text: "Good luck at the dentist on the 17th!" },
            ],
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-12T08:00",
        title: "morning",
        summary: "Sam drinks oolong every morning.",
        turns: [
          {
            person: "Did I tell you I love oolong? I drink it every morning.",
            scripted: says("You did! Every morning, noted.", add("user", "Likes", "- Drinks oolong every morning")),
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-20T20:00",
        title: "moving",
        summary: "Sam moved to Berlin on 2026-11-13.",
        turns: [
          {
            person: "Big news: we moved to Berlin last week, on the 13th!",
            scripted: says("Congratulations on Berlin!", replace("user", "Home", "- Lives in Paris, near the canal", "- Lives in Berlin (moved 2026-11-13)")),
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-22T11:00",
        title: "about me",
        summary: "Sam told many things about themself.",
        turns: [
          {
            person: `A few things about me: ${MANY_EN.map((l) => l.slice(2)).join("; ")}.`,
            scripted: says("Thanks for telling me all that!", add("user", "About", MANY_EN.join("\n"))),
          },
        ],
      },
      {
        kind: "night",
        at: "2026-11-23T04:30",
        plan: {
          operations: [
            op({
              kind: "merge",
              file: "user",
              section: "Likes",
              old_lines: ["- Loves oolong tea", "- Drinks oolong every morning"],
              new_lines: ["- Loves oolong tea, drinks it every morning"],
              reason: "the same fact twice",
              quote: "I drink it every morning",
            }),
            op({
              kind: "move",
              file: "user",
              section: "Exercise",
              new_lines: ["- Climbs at the Boulderhaus gym"],
              reason: "from the exercise talk",
              quote: "You could join the Boulderhaus climbing gym",
            }),
          ],
        },
      },
      {
        kind: "conversation",
        at: "2026-12-01T09:00",
        title: "question",
        summary: "Sam asked for their dentist's name.",
        turns: [
          {
            person: "What was the name of my dentist again?",
            scripted: [{ toolCalls: [call("memory_search", { query: "dentist" })] }, { text: "Your dentist is Dr. Okafor." }],
          },
        ],
      },
    ],
    checks: [
      { kind: "stale-replaced", name: "the moved city: Berlin replaced Paris", current: /Berlin/, stale: /Paris/ },
      { kind: "one-entry", name: "oolong, said twice: one entry", pattern: /oolong/i },
      { kind: "not-saved", name: "the assistant's suggestion (climbing gym): not saved as theirs", pattern: /climb|boulder/i },
      { kind: "recalled", name: "a detail from three weeks ago (the dentist's name): answered", pattern: /Okafor/ },
      { kind: "under-cap", name: "files near their caps: under cap, the allergy kept", kept: [/peanut/i] },
      { kind: "dated", name: '"next Tuesday": saved with a date', pattern: /dentist/i },
    ],
  },
  {
    id: "zh",
    language: "zh",
    userId: "900002",
    name: "小林",
    zone: "Asia/Shanghai",
    events: [
      {
        kind: "conversation",
        at: "2026-11-02T10:00",
        title: "你好",
        summary: "小林住在上海静安，对花生过敏。",
        turns: [
          {
            person: "你好！我叫小林，住在上海静安。重要的是：我对花生过敏。",
            scripted: says("你好小林！我会记住你对花生过敏。", add("user", "住处", "- 住在上海静安"), add("user", "健康", "- 对花生过敏")),
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-04T08:30",
        title: "茶",
        summary: "小林说最爱乌龙茶。",
        turns: [{ person: "我真的很爱乌龙茶，是我最喜欢的。", scripted: says("乌龙茶很好喝。", add("user", "喜好", "- 最爱乌龙茶")) }],
      },
      {
        kind: "conversation",
        at: "2026-11-06T19:00",
        title: "运动",
        summary: "助手建议去岩壁攀岩馆；小林还没决定。",
        turns: [
          { person: "我想多运动一点，有什么建议吗？", scripted: says("你可以去岩壁攀岩馆，那里有新手夜场。") },
          { person: "嗯，也许吧，我再想想。", scripted: says("好的，不着急。") },
        ],
      },
      { kind: "night", at: "2026-11-07T04:30", plan: { operations: [] } },
      {
        kind: "conversation",
        at: "2026-11-10T18:00",
        title: "牙医",
        summary: "小林 2026-11-17 要去王医生那里看牙。",
        turns: [
          {
            person: "下周见！我下周二要去王医生那里看牙。",
            scripted: [
              { toolCalls: [add("memory", "待跟进", "- 下周二去王医生那里看牙")] },
              { toolCalls: [add("memory", "待跟进", "- 2026-11-17 去王医生那里看牙")] },
              { text: "17 号看牙顺利！" },
            ],
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-12T08:00",
        title: "早上",
        summary: "小林每天早上喝乌龙茶。",
        turns: [{ person: "我跟你说过我爱乌龙茶吗？我每天早上都喝。", scripted: says("说过！每天早上，记下了。", add("user", "喜好", "- 每天早上喝乌龙茶")) }],
      },
      {
        kind: "conversation",
        at: "2026-11-20T20:00",
        title: "搬家",
        summary: "小林 2026-11-13 搬到了北京。",
        turns: [
          {
            person: "大消息：我们上周 13 号搬到北京了！",
            scripted: says("恭喜搬到北京！", replace("user", "住处", "- 住在上海静安", "- 住在北京（2026-11-13 搬来）")),
          },
        ],
      },
      {
        kind: "conversation",
        at: "2026-11-22T11:00",
        title: "关于我",
        summary: "小林讲了很多自己的事。",
        turns: [
          {
            person: `说说我自己：${MANY_ZH.map((l) => l.slice(2)).join("；")}。`,
            scripted: says("谢谢你告诉我这些！", add("user", "关于", MANY_ZH.join("\n"))),
          },
        ],
      },
      {
        kind: "night",
        at: "2026-11-23T04:30",
        plan: {
          operations: [
            op({
              kind: "merge",
              file: "user",
              section: "喜好",
              old_lines: ["- 最爱乌龙茶", "- 每天早上喝乌龙茶"],
              new_lines: ["- 最爱乌龙茶，每天早上都喝"],
              reason: "同一件事说了两次",
              quote: "我每天早上都喝",
            }),
            op({ kind: "move", file: "user", section: "运动", new_lines: ["- 在岩壁攀岩馆攀岩"], reason: "来自运动的对话", quote: "你可以去岩壁攀岩馆" }),
          ],
        },
      },
      {
        kind: "conversation",
        at: "2026-12-01T09:00",
        title: "问题",
        summary: "小林问牙医叫什么。",
        turns: [{ person: "我的牙医叫什么来着？", scripted: [{ toolCalls: [call("memory_search", { query: "牙医" })] }, { text: "你的牙医是王医生。" }] }],
      },
    ],
    checks: [
      { kind: "stale-replaced", name: "搬家：北京取代了上海", current: /北京/, stale: /上海/ },
      { kind: "one-entry", name: "乌龙茶说了两次：只记一条", pattern: /乌龙/ },
      { kind: "not-saved", name: "助手的建议（攀岩馆）：没有当作本人的事实保存", pattern: /攀岩/ },
      { kind: "recalled", name: "三周前的细节（牙医）：答出来了", pattern: /王医生/ },
      { kind: "under-cap", name: "文件接近上限：不超，过敏仍在", kept: [/花生/] },
      { kind: "dated", name: "“下周二”：带日期保存", pattern: /牙/ },
    ],
  },
];
