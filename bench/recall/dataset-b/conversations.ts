/**
 * Evaluation set B: eleven months of one person, Rae Xu (许然), talking to the bot.
 * Written independently of the first dataset and of the search code; see README.md.
 * Turn indices are noted in comments (0-based) because questions.ts points at them.
 */
import type { BenchConversation } from "../dataset/types.js";

export const conversationsB: BenchConversation[] = [
  {
    id: "b-en01",
    date: "2026-01-07",
    time: "22:40",
    title: "new yr new me lol",
    language: "en",
    turns: [
      /* 0 */ {
        user: "ok so i wrote my resolutions in notes app, pasting:\n- run a half marathon (the oct one??)\n- read 20 books, actual books not webtoons\n- save 30k for japan w the girls\n- learn to fold dumplings that dont explode in the pot\n- no phone in bed\nthoughts. be honest",
        assistant: "That's a solid list. The half marathon and the savings are the two that need an actual plan; the rest are habits. Want to start with the running one?",
      },
      /* 1 */ {
        user: "ya the running one. i can do like 8k rn, slowly",
        assistant: "From 8k, a half in October is realistic. Add about 1 km to your long run every two weeks, keep one long run, one easy run and one shorter faster run a week, and take a lighter week every month.",
      },
      /* 2 */ {
        user: "ok. also work is gonna eat jan alive. the dock dashboard thing launches in march and im the only qa on it",
        assistant: "The dock dashboard is the warehouse scheduling tool? Being the only QA on a launch is a lot. Is there anyone who could help with regression testing?",
      },
      /* 3 */ {
        user: "yes the scheduling one for the warehouse ppl. and no. gerald says 'devs test their own code' which, lol. they definately do not",
        assistant: "Then it may help to write down what you can realistically cover before March and share it with him early, so the gaps are his decision and not a surprise.",
      },
      /* 4 */ {
        user: "smart. ok last thing, tessa and i want to do a hotpot thing w everyone sometime, remind me to ask mina abt dates",
        assistant: "Noted: ask Mina about dates for a hotpot with everyone.",
      },
      /* 5 */ {
        user: "ty. going to bed. phone NOT in bed. day 1 lol",
        assistant: "Good luck with day one. Good night!",
      },
    ],
    summary:
      "Rae listed her resolutions for the year: a half marathon in October, 20 books, saving 30k for a Japan trip with her friends, dumplings that hold together and no phone in bed. She runs about 8 km now, and the assistant suggested adding about 1 km to the long run every two weeks. At work she is the only QA on the warehouse dock dashboard that launches in March.",
  },
  {
    id: "b-zh01",
    date: "2026-01-13",
    time: "12:30",
    title: "阿杰生日饭",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "阿杰周六生日 我负责订位 救命 8个人 有人推荐吗",
        assistant: "八个人最好订包间或者大圆桌。大家偏好什么口味？预算大概多少？",
      },
      /* 1 */ {
        user: "预算人均150以内吧 大家都能吃辣 除了小鹿 她吃素 而且一点辣都不碰 lol",
        assistant: "那可以考虑菌子火锅，点鸳鸯锅：一边清汤菌汤给小鹿，另一边辣锅给其他人。",
      },
      /* 2 */ {
        user: "菌子火锅！！好主意 愚园路那家 山野菌子 我之前去过 环境还ok",
        assistant: "听起来合适。可以打电话问问周六晚上有没有能坐八个人的包间。",
      },
      /* 3 */ {
        user: "打了 包间要最低消费1500 大厅大圆桌不用 那我们就坐大厅吧 反正我们也吵",
        assistant: "好，人均150左右，坐大厅也能吃得开心。订的几点？",
      },
      /* 4 */ {
        user: "6点半 然后礼物的话 大家AA买了个 switch 游戏 塞尔达新出的那个 他念叨好久了",
        assistant: "很贴心。要不要我提醒你周六前在群里收一下AA的钱？",
      },
      /* 5 */ {
        user: "要 每人45 我先垫付了",
        assistant: "好的，周六前提醒你在群里收礼物钱，每人45元。",
      },
      /* 6 */ {
        user: "ok 还有蛋糕 mina 说她来搞 她认识一个做 bento cake 的小店",
        assistant: "太好了，蛋糕交给Mina。那你这边只要确认订位和收钱就行。",
      },
    ],
    summary:
      "Rae负责给阿杰订周六的生日饭，八个人，人均150以内，小鹿吃素且不吃辣。她选了愚园路的山野菌子火锅，因为包间有1500最低消费，最后订了大厅6点半。大家AA买了塞尔达的Switch游戏（每人45元），蛋糕由Mina负责。",
  },
  {
    id: "b-en02",
    date: "2026-01-22",
    time: "21:05",
    title: "this bug is killing me",
    language: "en",
    turns: [
      /* 0 */ {
        user: "the flaky test is back. passes on my machine fails in ci like 1 in 5 times. its the one where trucks get assigned to a dock slot",
        assistant: "Intermittent failures like that are often about timing or ordering. Does the test depend on the current time, or on the order rows come back from the database?",
      },
      /* 1 */ {
        user: "omg. it uses now() to build the slots. and ci runs in utc",
        assistant: "That's very likely it: the slots are built from now(), CI runs in UTC and your machine is on Shanghai time, so some runs cross a day boundary. Freeze the clock in the test and it should become stable.",
      },
      /* 2 */ {
        user: "froze the clock. 30 runs green. i love u",
        assistant: "Ha, glad it worked. Thirty green runs is convincing.",
      },
      /* 3 */ {
        user: "ok now the actual problem. gerald moved the demo to feb 6 (it was feb 20!!!) and told the ops director it would be 'basically done'. its not basically done. theres like 40 open tickets and i havent even touched the mobile view bc we have no test phones. ive been staying till 9 every day this week and tessa keeps leaving dumplings outside my door like im a stray cat. i dont even know if i want to be there anymore tbh. like is this what the next 5 yrs look like",
        assistant: "That sounds exhausting, and pulling a deadline two weeks forward with 40 tickets open isn't something you can fix by staying late. There are two separate things here: the demo, and whether you want to stay. For the demo, would it help to tell Gerald plainly which parts will be ready and which won't?",
      },
      /* 4 */ {
        user: "yes. how do i say it without sounding like im whining",
        assistant: "Keep it factual: 'For Feb 6 I can have the desktop scheduling flow tested end to end. The mobile view and the 40 open tickets won't be covered. Which should I prioritise?' It hands him a choice instead of a complaint.",
      },
      /* 5 */ {
        user: "stealing that word for word",
        assistant: "Go for it. The other question, whether you want to stay, deserves some thought when you're less tired.",
      },
      /* 6 */ {
        user: "yeah. maybe ill look at whats out there. quietly",
        assistant: "Quietly looking costs nothing. If you like, we can go through your CV together some evening.",
      },
    ],
    summary:
      "Rae fixed a flaky CI test for dock slot assignment: it built slots from now() while CI runs in UTC, and freezing the clock made it pass. Her boss Gerald pulled the demo forward from Feb 20 to Feb 6 with about 40 tickets open and the mobile view untested; the assistant gave her a factual way to say what would and wouldn't be ready. She is working late every day and has started to wonder about leaving.",
  },
  {
    id: "b-zh02",
    date: "2026-02-03",
    time: "22:15",
    title: "回家过年",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "今年春节回成都 机票好贵啊 2月14号直飞要1900 高铁要坐12个小时 我要疯",
        assistant: "春节前确实贵。可以看看提前一两天的航班，或者换个时段。你能提前请假吗？",
      },
      /* 1 */ {
        user: "请假要 gerald 批 他肯定又说 demo 刚完你又要走 🙄 算了 我先看看",
        assistant: "可以先把几天的票价列出来，再决定要不要请假。",
      },
      /* 2 */ {
        user: "ok 买了 13号晚上的 东航 1450 提前一天走 假我硬请下来了",
        assistant: "1450比1900便宜不少，恭喜抢到。回去之前要给家里人买东西吗？",
      },
      /* 3 */ {
        user: "要 列了个单子：\n爸 - 颈椎按摩仪 (他天天低头刷手机)\n妈 - 羊绒围巾 灰色的\n奶奶 - 大字版 kindle？算了她不会用\n表妹 - 考研资料？？她说要英语真题\n你觉得奶奶送啥",
        assistant: "奶奶可以送一台带大按键的收音机，老人家用起来方便；或者买点她爱吃、成都不容易买到的上海点心。",
      },
      /* 4 */ {
        user: "收音机好！！她每天早上都要听川剧 原来那个坏了",
        assistant: "那正好。选能调频、按键大的，操作越简单越好。",
      },
      /* 5 */ {
        user: "还有个事 我妈又在安排相亲 对方是她同事的儿子 说是牙医 我真的 不想去",
        assistant: "可以直接跟妈妈说你的想法，或者就当见一面吃顿饭，不用有压力。你更倾向哪种？",
      },
      /* 6 */ {
        user: "去吧 不去她能念叨一整个假期 吃个饭而已",
        assistant: "好，当成一顿普通的饭就行。路上顺利，回家好好休息。",
      },
    ],
    summary:
      "Rae春节回成都，买了2月13日晚上东航的机票，1450元，比14号直飞的1900便宜。她给家人列了礼物清单：爸爸颈椎按摩仪、妈妈灰色羊绒围巾、表妹考研英语真题，奶奶听了助手的建议送大按键收音机，因为她每天早上听川剧。妈妈给她安排了和同事儿子（牙医）相亲，她决定去吃个饭。",
  },
  {
    id: "b-en03",
    date: "2026-02-10",
    time: "07:50",
    title: "knee??",
    language: "en",
    turns: [
      /* 0 */ {
        user: "did my long run sat, 12k, felt amazing. now my right knee hurts going down stairs. like just under the kneecap",
        assistant: "Pain just below the kneecap on the way downstairs often comes from the patellar tendon, which gets irritated when distance goes up quickly. Did you jump from 8k straight to 12k?",
      },
      /* 1 */ {
        user: "...maybe. 10 then 12 in 2 weeks",
        assistant: "That's faster than the plan. I'd stop running for a few days, ice it after activity and see if it settles. If it still hurts in a week or two, see a physio.",
      },
      /* 2 */ {
        user: "ugh. ok. what can i do instead so i dont lose everything",
        assistant: "Cycling or swimming keep your fitness without loading the knee much. Even 30 minutes on a stationary bike counts.",
      },
      /* 3 */ {
        user: "theres a pool near the office actually. never been. the shoes are also like 900km old lol",
        assistant: "900 km is past the usual life of running shoes, which is around 600 to 800 km, so replace them before you start again.",
      },
      /* 4 */ {
        user: "can i take ibuprofen and just run thru it",
        assistant: "Painkillers can take the edge off for a day or two, but running through pain on a tendon usually makes it last longer. Use them for comfort, not to train.",
      },
      /* 5 */ {
        user: "fine fine. rest, ice, new shoes, pool. if its not better by the 24th i'll book a physio",
        assistant: "Good plan. I'll check in around the 24th.",
      },
    ],
    summary:
      "Rae's right knee hurts just below the kneecap on stairs after she went from 10 km to 12 km in two weeks; the assistant suspected the patellar tendon and advised rest, ice, and swimming or cycling instead. Her running shoes have about 900 km on them, past the usual 600–800 km. She will book a physio if it is not better by the 24th.",
  },
  {
    id: "b-zh03",
    date: "2026-02-21",
    time: "15:20",
    title: "成都 day 8",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "在成都吃胖了三斤 每天 兔头 冒菜 甜水面 无限循环",
        assistant: "听起来很幸福。假期过得怎么样？",
      },
      /* 1 */ {
        user: "那个牙医 哈哈哈哈 吃饭全程在讲他买的币 什么 sol 什么 meme coin 还问我要不要一起 all in",
        assistant: "哈哈，这顿饭信息量很大。你怎么回的？",
      },
      /* 2 */ {
        user: "我说我是做 QA 的 对风险比较敏感 😂 他没听懂",
        assistant: "这个回答很妙。妈妈那边怎么说？",
      },
      /* 3 */ {
        user: "我妈说人家条件好 我说条件好也不能天天聊币啊 然后她就不吭声了 估计这事就算了",
        assistant: "那也算说清楚了。对了，奶奶收到收音机喜欢吗？",
      },
      /* 4 */ {
        user: "超喜欢！！研究了一下午怎么调台 现在每天早上7点准时放川剧 声音开超大 我爸已经被吵醒三次了",
        assistant: "哈哈，礼物很成功，就是你爸要辛苦一点。",
      },
      /* 5 */ {
        user: "还有表妹 她考研初试成绩出来了 英语72！她说多亏了我带回来那套真题 我好骄傲",
        assistant: "72分很不错！那套真题派上用场了。她报的是什么专业？",
      },
      /* 6 */ {
        user: "新闻传播 川大的 复试在三月底 她紧张得要死",
        assistant: "川大新传竞争挺激烈的，初试能过已经很厉害了，祝她复试顺利。",
      },
      /* 7 */ {
        user: "嗯 明天回上海了 好不想上班 gerald 已经在群里 @ 我三次了",
        assistant: "假期最后一天，先别看工作群了。回上海路上注意安全。",
      },
    ],
    summary:
      "Rae在成都过年，每天吃兔头、冒菜、甜水面，胖了三斤。相亲对象（牙医）整顿饭都在聊他买的加密货币，她和妈妈说清楚后这事基本算了。奶奶很喜欢收音机，每天早上7点放川剧；表妹考研英语考了72分，报的是川大新闻传播，三月底复试。",
  },
  {
    id: "b-en04",
    date: "2026-03-02",
    time: "20:30",
    title: "soooo",
    language: "en",
    turns: [
      /* 0 */ {
        user: "soooo. i went on a date. kind of",
        assistant: "Kind of? Tell me everything.",
      },
      /* 1 */ {
        user: "ok so the physio (i went, its patellar tendinitis, 6 weeks no running, rip) said upper body stuff is fine so mina dragged me to her bouldering gym and theres this guy who kept giving me beta on a v3 i was stuck on for like 40 min. marcus. he does sound for concerts and stuff. we got noodles after. is that a date",
        assistant: "Noodles after climbing with someone who spent 40 minutes helping you? That's at least a pre-date. And sorry about the six weeks off running.",
      },
      /* 2 */ {
        user: "he asked if i wanna do something sat. i said yes before thinking. what do we do. i dont want a fancy dinner thing",
        assistant: "Some low-pressure ideas: a jazz bar, a food market, a walk along the river with street food, a small gallery, or another climbing session. Which feels most like you?",
      },
      /* 3 */ {
        user: "jazz bar maybe? is that too much",
        assistant: "A jazz bar is relaxed: the music fills any silences and you can talk between sets. Not too much at all.",
      },
      /* 4 */ {
        user: "ok jazz bar. theres one on fuxing rd tessa likes, the basement one",
        assistant: "A place Tessa already likes is a safe bet. Book a table, Saturday evenings get busy.",
      },
      /* 5 */ {
        user: "booked 8pm. also can i swim w tendinitis or is that dumb",
        assistant: "Swimming is usually fine with patellar tendinitis because there's no impact. Go easy on the breaststroke kick, which twists the knee; freestyle with a gentle flutter kick is safer. Check with your physio too.",
      },
      /* 6 */ {
        user: "breaststroke is literally the only one i know lmao",
        assistant: "Then a few freestyle lessons would be a good investment, and they'll be useful long after the knee heals.",
      },
    ],
    summary:
      "The physio diagnosed Rae with patellar tendinitis and no running for six weeks. At Mina's bouldering gym she met Marcus, who does sound for concerts, and he asked her out; she booked the basement jazz bar on Fuxing Road that Tessa likes for Saturday at 8pm. The assistant said swimming is fine but to avoid the breaststroke kick, and suggested freestyle lessons.",
  },
  {
    id: "b-en05",
    date: "2026-03-19",
    time: "03:10",
    title: "worst night",
    language: "en",
    turns: [
      /* 0 */ {
        user: "launch went live at 8pm. by 10 the kunshan warehouse couldnt see half their slots. rolled back at 2am. im home now. and in the postmortem call gerald told the ops director 'qa signed off'. i did NOT sign off on the mobile view i literally wrote in the release notes that it was untested",
        assistant: "That's awful, and being blamed for something you flagged in writing is worse. Do you still have the release notes where you said the mobile view was untested?",
      },
      /* 1 */ {
        user: "yes. screenshotted. timestamped",
        assistant: "Good, keep that. You don't have to fight it tonight; tomorrow you can send a short factual message to Gerald and the ops director that points to the note.",
      },
      /* 2 */ {
        user: "im done. like actually done. updating my cv tonight",
        assistant: "Understandable. Maybe not at 3am though. Sleep first?",
      },
      /* 3 */ {
        user: "cant sleep. ok heres my cv summary: 'QA engineer, 4 yrs, logistics, test automation (playwright, pytest), wrote the regression suite for the dock scheduling system.' sounds boring",
        assistant: "It's solid but undersells you. Try: 'QA engineer with 4 years in logistics software; built the automated regression suite (Playwright, pytest) for a warehouse dock-scheduling system used across several sites; as comfortable with product questions as with test plans.' The last part helps if you want to move toward product.",
      },
      /* 4 */ {
        user: "ooh product. yeah. i think i want that actually. i spend half my time arguing about what the feature should even do",
        assistant: "That's a sign. Moving from QA to product analyst is a common path, and your warehouse domain knowledge is a plus.",
      },
      /* 5 */ {
        user: "actually a recruiter messaged me on linkedin last week abt a product analyst thing at some language learning app startup. i ignored it. parla? something like that",
        assistant: "Maybe reply after you've slept. A first call costs nothing.",
      },
      /* 6 */ {
        user: "replying now before i chicken out. ok sent. goodnight for real",
        assistant: "Brave. Good night, Rae.",
      },
    ],
    summary:
      "The dock dashboard launch failed: the Kunshan warehouse lost half its slots and the release was rolled back at 2am, and Gerald told the ops director QA had signed off although Rae had written in the release notes that the mobile view was untested (she has a timestamped screenshot). She decided to leave and rewrote her CV summary with the assistant, leaning toward product work. She replied to a LinkedIn recruiter about a product analyst role at Parla, a language-learning app startup.",
  },
  {
    id: "b-zh04",
    date: "2026-03-27",
    time: "21:10",
    title: "想养猫",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "认真的 我想养猫了 最近太丧了 每天回家就想有个毛茸茸的东西",
        assistant: "养猫是个大决定，不过确实能带来很多陪伴。你现在是合租吧？室友和房东同意吗？",
      },
      /* 1 */ {
        user: "tessa 说 ok 但她有点轻微过敏 她说吃药就行 房东那边我问了 要多交500押金",
        assistant: "那基本条件都有了。Tessa过敏的话，尽量选短毛猫，也别让猫进她房间。你想买还是领养？",
      },
      /* 2 */ {
        user: "领养！！小红书上有个救助站 在闵行 有两只我很喜欢\n1. 橘猫 公的 1岁 超粘人\n2. 三花 母的 2岁 已经绝育了 有点怕人\n救命选不出来",
        assistant: "两只都很好。橘猫粘人，但年轻公猫精力旺盛；三花已经绝育、年纪稍大，性格会更稳定，只是需要时间熟悉你。你每天在家的时间多吗？",
      },
      /* 3 */ {
        user: "不多 天天加班 所以三花可能更好？她能自己待着",
        assistant: "是的，独立一点的猫更适合经常加班的人。另外猫砂想用哪种？",
      },
      /* 4 */ {
        user: "猫砂有啥区别 我完全不懂",
        assistant: "常见三种：膨润土砂（结团好、便宜，但粉尘大）、豆腐砂（粉尘少、能冲马桶，但容易受潮）、混合砂（两者折中）。家里有人过敏的话，粉尘少的豆腐砂更友好。",
      },
      /* 5 */ {
        user: "那就豆腐砂 为了 tessa",
        assistant: "好选择。去救助站的时候记得问问三花的疫苗和体检情况。",
      },
      /* 6 */ {
        user: "约了下周六去见她 好紧张 像相亲一样 比上次那个牙医紧张多了哈哈",
        assistant: "哈哈，这次的对象肯定不会跟你聊币。祝见面顺利！",
      },
    ],
    summary:
      "Rae想领养一只猫，室友Tessa轻微过敏但同意，房东要求多交500元押金。她在小红书上看中闵行一家救助站的两只猫，因为经常加班，倾向于已绝育、更独立的两岁三花。助手讲了三种猫砂的区别，她为了Tessa选了粉尘少的豆腐砂，约了下周六去见猫。",
  },
  {
    id: "b-en06",
    date: "2026-04-09",
    time: "18:40",
    title: "interview round 2",
    language: "en",
    turns: [
      /* 0 */ {
        user: "round 2 w parla tmrw. its a case. they sent the prompt:\n'Our day-7 retention for new users is 18%. Propose how you would investigate and what you'd test first.'\nhelp",
        assistant: "Good prompt. Structure it: 1) define day-7 retention precisely, 2) break the funnel into steps (signup, first lesson, second session, day 7), 3) find the biggest drop, 4) form hypotheses, 5) propose one test with a metric and a rough sample size. Do you know anything about their onboarding?",
      },
      /* 1 */ {
        user: "i downloaded it. onboarding is like 9 screens before u do a single lesson. 9!!! asks ur goals, level, daily minutes, notifications, account, etc",
        assistant: "That's your lead hypothesis: people leave before they ever experience the product. A first test could be a shortened onboarding that drops users into a two-minute lesson after 3 screens and asks the rest later.",
      },
      /* 2 */ {
        user: "ooh. ok. and what do i say if they ask how long the test runs",
        assistant: "Say it depends on traffic and on the smallest effect you want to detect. To see a 3-point lift from 18% you'd need a few thousand new users in each group, so probably two to three weeks depending on signups. Showing that it's a calculation matters more than the exact number.",
      },
      /* 3 */ {
        user: "ok writing this down. also they asked my salary expectation in the first call and i said 'flexible' like an idiot",
        assistant: "Not idiotic, but you'll need a number eventually. What are you on now?",
      },
      /* 4 */ {
        user: "24k a month. recruiter hinted the range is 28-33",
        assistant: "Then 31–32k is reasonable: inside their range, a real step up from 24k, and it reflects the move into product.",
      },
      /* 5 */ {
        user: "31. ok. if they ask i say 31",
        assistant: "Sounds good. And tomorrow, lead with the 9-screen finding; it shows you did your homework.",
      },
      /* 6 */ {
        user: "whos interviewing: a pm called leo and the head of product, priya. leo seemed chill on the first call",
        assistant: "Good to know. Leo will probably dig into your analysis; Priya may ask more about how you'd prioritise and communicate. Good luck tomorrow!",
      },
    ],
    summary:
      "Rae prepared the case for her second Parla interview: day-7 retention of new users is 18%, and she found the onboarding has 9 screens before the first lesson, so the assistant suggested testing a 3-screen onboarding and explained how to talk about test duration. She earns 24k a month, the range is 28–33k, and she will ask for 31k. The interviewers are Leo, a PM, and Priya, head of product.",
  },
  {
    id: "b-zh05",
    date: "2026-04-15",
    time: "20:00",
    title: "接她回家啦",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "接回来了！！！三花 叫年糕 因为她白白胖胖软乎乎的 🥹",
        assistant: "欢迎年糕！名字太可爱了。她到家以后表现怎么样？",
      },
      /* 1 */ {
        user: "一进门就钻沙发底下了 到现在都没出来 3个小时了",
        assistant: "很正常，换了新环境猫会先躲起来观察。别硬拉她出来，把水、粮和猫砂盆放在附近，给她时间。",
      },
      /* 2 */ {
        user: "好 东西都放边上了 今天买的清单：\n- 猫砂盆 (封闭式的 怕砂溅出来)\n- 豆腐砂 x3\n- 猫粮 渴望 先买一小袋试试\n- 逗猫棒 x2\n- 猫抓板\n- 伊丽莎白圈?? 店员说可能用得上 我也不知道为啥买",
        assistant: "准备得很全。伊丽莎白圈一般是做完手术或者防止舔伤口时戴的，现在用不上，先收着。救助站有给体检记录吗？",
      },
      /* 3 */ {
        user: "有 疫苗三针都打完了 驱虫上个月做的 下次五月中 绝育也做了 就是有点牙结石 医生说不急",
        assistant: "状况很好。记一下五月中驱虫。牙结石等她适应了再去洗牙。",
      },
      /* 4 */ {
        user: "tessa 今天吃了 氯雷他定 说还好 就是鼻子有点痒",
        assistant: "问题不大。可以勤吸尘、常给年糕梳毛，减少浮毛。",
      },
      /* 5 */ {
        user: "ok 她出来了！！！在闻我的拖鞋",
        assistant: "第一步！让她自己探索，先别急着摸她。",
      },
      /* 6 */ {
        user: "她蹭我了 我要哭了 哈哈哈 好 我冷静",
        assistant: "恭喜，她开始信任你了。今晚早点休息，年糕会慢慢熟悉家里的。",
      },
    ],
    summary:
      "Rae把救助站的三花猫接回了家，取名年糕，因为她白白胖胖。猫先在沙发底下躲了三个小时，后来出来蹭了她；Rae买了封闭式猫砂盆、豆腐砂、渴望猫粮等，助手解释伊丽莎白圈是术后防舔伤口用的。猫已打完三针疫苗并绝育，五月中要驱虫，有点牙结石；Tessa吃了氯雷他定，过敏反应不大。",
  },
  {
    id: "b-en07",
    date: "2026-04-28",
    time: "13:15",
    title: "!!!!!!",
    language: "en",
    turns: [
      /* 0 */ {
        user: "GOT IT. parla offered. product analyst. 31k. start june 1",
        assistant: "Congratulations, Rae! That's exactly the number you aimed for. How are you feeling?",
      },
      /* 1 */ {
        user: "shaking. ok now i have to tell gerald. notice is 1 month so if i tell him today-ish im out end of may",
        assistant: "That timing works for a June 1 start. Want to plan what you'll say?",
      },
      /* 2 */ {
        user: "yes pls. i want to be polite but i also kinda want to bring up the launch thing",
        assistant: "I'd keep the resignation short and neutral: thank him, give your last day, offer a clean handover. The launch issue belongs in an exit interview with HR, stated factually, if anywhere. Burning bridges rarely pays off in a small industry.",
      },
      /* 3 */ {
        user: "ugh ur right. fine. may 29 last day. ill write a handover doc for the regression suite so whoever comes next isnt lost",
        assistant: "That's generous, and it protects your reputation. What should it cover?",
      },
      /* 4 */ {
        user: "how to run the suite, the flaky tests list, where the ci secrets live (not the actual secrets lol), the test data reset script, and who to bug in ops",
        assistant: "Solid outline. Add a short 'known gaps' section too, like the mobile view coverage, so nobody can say later they weren't told.",
      },
      /* 5 */ {
        user: "lmaooo petty but documented. love it",
        assistant: "Professional pettiness. The best kind.",
      },
      /* 6 */ {
        user: "marcus is taking me out tonight to celebrate. some georgian place he found, he says the cheese bread is insane",
        assistant: "Khachapuri! The boat-shaped bread with melted cheese and an egg in the middle. Enjoy it, you earned this.",
      },
      /* 7 */ {
        user: "ok told gerald. he said 'ok' and then asked if i could stay till mid june. i said no. i SAID NO!!!",
        assistant: "You said no! That's a big one. May 29 it is.",
      },
    ],
    summary:
      "Rae got the product analyst offer from Parla at 31k, starting June 1, and resigned with May 29 as her last day; Gerald asked her to stay until mid-June and she refused. Her handover document will cover running the regression suite, flaky tests, where CI secrets live, the test data reset script and ops contacts, plus a known-gaps section the assistant suggested. Marcus took her to a Georgian restaurant to celebrate.",
  },
  {
    id: "b-zh06",
    date: "2026-05-08",
    time: "22:40",
    title: "要搬家了？？",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "晴天霹雳 tessa 说她7月要搬去深圳 她男朋友在那边 我们这个房子租约也是7月到期 我一个人付不起整套",
        assistant: "突然要搬家确实头疼。你们现在这套整租多少钱？你一个人能接受多少？",
      },
      /* 1 */ {
        user: "整套9600 我们一人一半 我自己的话 6000以内吧 新工作涨了点 但也不想全给房东",
        assistant: "6000以内可以找一室户或者小的一室一厅。你最看重哪些条件？",
      },
      /* 2 */ {
        user: "要求：\n1. 能养猫！！！\n2. 通勤 新公司在漕河泾 最好40分钟以内\n3. 要有窗 不要暗间\n4. 不要一楼 太潮\n5. 厨房能开火 不要只有个电磁炉\n大概就这些",
        assistant: "很清楚。漕河泾附近的话，徐汇田林、虹梅路一带和闵行北部通勤都方便，可以优先看9号线、12号线沿线。",
      },
      /* 3 */ {
        user: "中介发了三套：\nA 徐汇 田林 一室一厅 6200 三楼 朝南\nB 闵行 合租主卧 3800 但室友不让养猫\nC 长宁 loft 5500 但通勤要一个多小时 楼梯超陡",
        assistant: "B不能养猫，直接排除。C通勤超过你的40分钟，而且陡楼梯对你的膝盖不友好。A超了预算200，但其他条件都符合。",
      },
      /* 4 */ {
        user: "对 我膝盖 差点忘了 哈哈 A贵200 能砍吗",
        assistant: "可以试试。签两年、或者一次付三个月，都可能让房东让一点；也可以问能不能包物业费。",
      },
      /* 5 */ {
        user: "周末去看A 看完再说 啊还有 tessa 走之前我们要办个 farewell party",
        assistant: "好呀，到时候一起想想在哪里办。",
      },
    ],
    summary:
      "Tessa七月要搬去深圳找男朋友，合租的房子（整租9600）租约也到期，Rae要自己找房，预算6000以内。她的条件是能养猫、到漕河泾新公司通勤40分钟内、有窗、不要一楼、能开火做饭。中介给了三套，助手排除了不能养猫的合租和通勤太远、楼梯陡的长宁loft，建议和徐汇田林6200那套的房东砍价。",
  },
  {
    id: "b-en08",
    date: "2026-05-19",
    time: "19:30",
    title: "last 2 wks + japan!!",
    language: "en",
    turns: [
      /* 0 */ {
        user: "8 working days left at the old place. handover doc ended up 14 pages. nobody has read it",
        assistant: "Fourteen pages is thorough. At least it exists and has a date on it. How do you feel about leaving?",
      },
      /* 1 */ {
        user: "weirdly sad? the warehouse ppl in kunshan sent me a cake. with a forklift on it. i cried a bit",
        assistant: "That's lovely. The people you actually helped noticed.",
      },
      /* 2 */ {
        user: "ok other news. physio cleared me for light jogging!! 3k max, flat, every other day. and ive been doing freestyle lessons at the pool near work 2x a week, i can do 200m now without dying",
        assistant: "Both great news. 200 m of freestyle after a couple of months of lessons is real progress. Keep to the 3k limit for a few weeks.",
      },
      /* 3 */ {
        user: "AND. japan. group chat finally agreed on golden week, oct 2-9ish. but mina wants hokkaido and xiaolu wants kyoto and ajie doesnt care as long as theres beer",
        assistant: "Early October in Hokkaido has the first autumn colours and fewer crowds; Kyoto is classic but packed that week. What do you want?",
      },
      /* 4 */ {
        user: "kyoto + osaka honestly. food. but hokkaido also sounds nice. idk. we're voting friday",
        assistant: "A common compromise: Osaka and Kyoto for most of the trip, with a day trip to Nara, and Hokkaido as its own trip another time. Good luck with the vote.",
      },
      /* 5 */ {
        user: "also what do i need for the visa, i have a chinese passport",
        assistant: "With a Chinese passport you apply through an authorised travel agency: passport, photo, application form, proof of employment, and bank statements as proof of funds. Since you're changing jobs, get the employment letter from Parla once you've started, and apply in July or August to leave enough time.",
      },
      /* 6 */ {
        user: "ohhh good point abt the employment letter. ok. july",
        assistant: "I'll remind you about the visa in July.",
      },
    ],
    summary:
      "Rae has eight working days left at her old job; her handover document is 14 pages and the Kunshan warehouse team sent her a cake with a forklift on it. The physio cleared her for light jogging (3 km, flat, every other day) and she can now swim 200 m freestyle after lessons. Her friends picked Golden Week (about Oct 2–9) for Japan but disagree on Hokkaido versus Kyoto; the assistant listed the visa documents and suggested getting the employment letter from Parla first.",
  },
  {
    id: "b-zh07",
    date: "2026-06-03",
    time: "21:20",
    title: "入职第三天",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "新公司第三天 感觉还行？？但是什么都在 lark 上 我已经被拉进23个群了",
        assistant: "23个群确实夸张。不重要的先设成免打扰，只留你们组和项目群的提醒。团队氛围怎么样？",
      },
      /* 1 */ {
        user: "氛围挺好 leo 带我 就是面试我的那个 pm 人超 nice 第一天请我吃了楼下的泰国菜 pad thai 一般 但是 mango sticky rice 绝了",
        assistant: "有人带着上手会轻松很多。你现在具体负责什么？",
      },
      /* 2 */ {
        user: "priya 说我前两个月主要看 onboarding 的 funnel 数据 就是我面试时候说的那个 9个页面 的问题 哈哈 她说 'you found it, you own it'",
        assistant: "面试时的发现直接变成了你的项目，开局不错。数据权限有了吗？",
      },
      /* 3 */ {
        user: "还在申请 要走 IT 流程 三到五个工作日 我先看他们的 dashboard 用的是 metabase 还好我会点 sql",
        assistant: "SQL在这个岗位很有用。等权限的这几天，可以先把漏斗每一步的定义写清楚，跟Leo对一下口径。",
      },
      /* 4 */ {
        user: "好主意。通勤是真的累 从静安过来要一个小时 换两次地铁 还好7月就搬了",
        assistant: "搬到田林以后通勤应该能少一半。那套房子谈下来了吗？",
      },
      /* 5 */ {
        user: "还没 房东说最多降100 6100 我还在犹豫 下周给答复",
        assistant: "6100比原价低了一点，而且其他条件都符合。可以再问问能不能包物业费。",
      },
      /* 6 */ {
        user: "问了 不包 😑 算了 我觉得就它了",
        assistant: "好，那就定下来，少一件悬着的事。",
      },
      /* 7 */ {
        user: "对了 签证要的在职证明 hr 说入职满一个月才能开 所以得7月初",
        assistant: "时间刚好：7月初开证明，7月中递签，国庆前肯定来得及。",
      },
    ],
    summary:
      "Rae在Parla入职第三天，被拉进了23个Lark群，带她的是面试过她的PM Leo，第一天请她吃了楼下的泰国菜。Priya让她前两个月负责onboarding漏斗数据，也就是她面试时发现的9个页面问题；她在等数据权限，先用Metabase看看板。田林那套房子房东只肯降100到6100、不包物业费，她决定就租它；签证用的在职证明要入职满一个月，7月初才能开。",
  },
  {
    id: "b-en09",
    date: "2026-06-16",
    time: "22:00",
    title: "signed!!",
    language: "en",
    turns: [
      /* 0 */ {
        user: "signed the lease. tianlin one-bedroom, 6100, 2 yr contract. landlord is this old guy mr fang who asked more questions about niangao than about me",
        assistant: "Congrats! Two years at 6100 is a good result, and a landlord who cares about the cat is probably a good sign. When do you move?",
      },
      /* 1 */ {
        user: "july 4 (sat). tessa leaves the 10th so we get a few days of overlap to pack",
        assistant: "Good timing. Do you have movers sorted?",
      },
      /* 2 */ {
        user: "got 2 quotes:\n- huolala van + 2 guys: 850\n- 'premium' company that packs everything: 2400\nstuff is like: bed frame, desk, 2 bookshelves, ~15 boxes, a cat who will hate all of this",
        assistant: "For a one-bedroom's worth of things the 850 van is plenty if you pack yourself; the 2400 option mostly saves packing time. I'd book the van and spend the difference on the new place.",
      },
      /* 3 */ {
        user: "van it is. how do i move a cat without traumatizing her",
        assistant: "On moving day keep her shut in one room with her litter, food and carrier so she can't bolt. Move her last, in the carrier, and set up a small quiet room at the new place with familiar things: her blanket and an unwashed t-shirt of yours. Let her explore the rest over a few days.",
      },
      /* 4 */ {
        user: "unwashed tshirt. gross. genius",
        assistant: "Smell is everything to cats. Also check the new place for gaps behind appliances where she could hide.",
      },
      /* 5 */ {
        user: "ok making a checklist:\n[ ] change address for deliveries\n[ ] transfer electricity acct\n[ ] book wifi install (china telecom, they said 3-5 days??)\n[ ] huolala july 4 9am\n[ ] tessa farewell party july 8\n[ ] buy curtains (bedroom faces east, sun at 6am lol)",
        assistant: "Good list. Book the wifi now given the 3–5 day wait, so you have internet soon after you move. And get blackout curtains for that east-facing bedroom.",
      },
      /* 6 */ {
        user: "booked wifi for july 7. ok bed",
        assistant: "Productive evening. Good night.",
      },
    ],
    summary:
      "Rae signed a two-year lease on a one-bedroom in Tianlin at 6100 a month; the landlord, Mr Fang, asked mostly about her cat. She moves on Saturday July 4 with an 850 Huolala van instead of a 2400 packing service, and the assistant explained how to move the cat (closed room, carrier last, unwashed t-shirt in a quiet room). Her checklist includes China Telecom wifi (booked for July 7), Tessa's farewell on July 8 and curtains for the east-facing bedroom.",
  },
  {
    id: "b-zh08",
    date: "2026-06-27",
    time: "23:30",
    title: "桌游夜",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "今晚在小鹿家 桌游 玩到现在 阿卡姆 我又是第一个死的 😭",
        assistant: "哈哈，第一个死也算稳定发挥。今晚都谁去了？",
      },
      /* 1 */ {
        user: "小鹿 阿杰 他女朋友圆圆 mina 我 还有 tessa 她最后一次来了 下个月就走 有点伤感",
        assistant: "最后一次全员到齐的桌游夜，难免舍不得。今晚有什么特别的事吗？",
      },
      /* 2 */ {
        user: "有！！阿杰求婚成功了 上周在西湖边上 圆圆今天戴着戒指来的 大家尖叫 婚礼定在11月 在杭州 圆圆老家",
        assistant: "太好了，恭喜他们！11月杭州的婚礼，你们都会去吧？",
      },
      /* 3 */ {
        user: "必须的 阿杰还说想让我和 mina 当伴娘 日本回来一个月就是婚礼 还好不冲突",
        assistant: "当伴娘是很大的荣幸。日本是10月初，婚礼在11月，时间上没问题。",
      },
      /* 4 */ {
        user: "还有 阿杰说日本他不去了 要存钱办婚礼 所以就我 mina 小鹿 三个人",
        assistant: "理解，办婚礼开销大。三个人住宿也更好安排。最后投票去哪了？",
      },
      /* 5 */ {
        user: "大阪+京都！mina 输了 哈哈 她说北海道明年冬天自己去 然后加一天奈良 就是你上次说的那个方案",
        assistant: "不错，大阪京都加奈良一日游，吃和逛都兼顾了。",
      },
      /* 6 */ {
        user: "我到家了 打车58 小鹿家太远了 在宝山",
        assistant: "到家就好，早点睡。",
      },
    ],
    summary:
      "Rae和朋友们在小鹿家玩桌游《阿卡姆》，这是Tessa走前最后一次参加。阿杰上周在西湖边求婚成功，11月在圆圆老家杭州办婚礼，想请Rae和Mina当伴娘；他为了存钱不去日本了，日本之行变成Rae、Mina、小鹿三人。投票结果是大阪+京都加奈良一日游，Mina打算明年冬天自己去北海道。",
  },
  {
    id: "b-en10",
    date: "2026-07-08",
    time: "18:45",
    title: "moved in (mostly)",
    language: "en",
    turns: [
      /* 0 */ {
        user: "MOVED. mostly. casualties: 1 lamp (the ikea paper one, rip), my back, my will to live",
        assistant: "Congrats on the move! Sorry about the lamp and your back. How's the cat taking it?",
      },
      /* 1 */ {
        user: "wifi guy came yesterday at least. and the neighbour across the hall has a huge dog, a golden retriever called doudou, who barks at my door every single time i come home",
        assistant: "A dog right across the hall takes some getting used to. Once he knows your smell he may calm down; you could say hi to the neighbour and let him sniff your hand.",
      },
      /* 2 */ {
        user: "the neighbour is nice actually, older lady, she gave me zongzi. leftover from dragon boat",
        assistant: "A neighbour who brings zongzi is a good start. Maybe return the favour with something small.",
      },
      /* 3 */ {
        user: "oh and the cat, u asked. she did the closed room thing, went in the carrier fine, then at the new place went straight under the bed and hasnt come out in 3 days except to eat at 3am. i hear crunching at night like a tiny ghost. and she HATES the dog",
        assistant: "That's normal after a move, and eating at night is a good sign. Give her a few more days; the unwashed t-shirt under the bed helps. The barking won't, so keep her room quiet.",
      },
      /* 4 */ {
        user: "tonight is tessas farewell. at the jazz place on fuxing, the basement one where i had my first date w marcus lol. full circle",
        assistant: "That's a nice full circle. Have a good night, and give Tessa a proper send-off.",
      },
      /* 5 */ {
        user: "(later) ok back. tessa cried, i cried, ajie gave a speech that was 80% about himself. we gave her a framed photo of all of us from the hotpot at ajies bday",
        assistant: "That's a lovely gift, and a very Ajie speech. Shenzhen is a short flight away; you'll see her again.",
      },
      /* 6 */ {
        user: "ya. she says shell come back for friendsgiving in nov. holding her to it",
        assistant: "Noted: Tessa promised to come back for Friendsgiving in November.",
      },
    ],
    summary:
      "Rae has moved into the new flat; the move cost a paper IKEA lamp, and the cat has hidden under the bed for three days, coming out only to eat at night. The older lady across the hall has a golden retriever that barks at Rae's door, and she brought Rae zongzi. Tessa's farewell was at the basement jazz bar on Fuxing Road where Rae had her first date with Marcus; the friends gave her a framed photo from Ajie's birthday hotpot and she promised to come back for Friendsgiving in November.",
  },
  {
    id: "b-zh09",
    date: "2026-07-22",
    time: "01:10",
    title: "睡不着",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "睡不着 跟 marcus 吵架了",
        assistant: "怎么了？想说说吗？",
      },
      /* 1 */ {
        user: "他今天跟我说 柏林那边一个 studio 给了他 offer 做 live sound 的 他说这种机会很少 九月就要过去 然后说 '我们可以试试异地' 说得好轻松 我们才在一起四个月啊 而且他两个月前就开始面试了 一直没跟我说 我生气的不是他要去 是他瞒了我两个月 我还傻乎乎地计划国庆以后去看他的演出 还跟 mina 说我终于遇到个靠谱的 结果呢 我现在就觉得 所有事他都想好了 只是通知我一下",
        assistant: "被瞒了两个月，最后以通知的方式知道，生气很正常。你说得很清楚：问题不是他要走，而是他没让你参与这个决定。你跟他说了这一点吗？",
      },
      /* 2 */ {
        user: "说了 他说怕拿不到 offer 让我白担心 我说那也是我的事 我有权知道 然后就吵起来了",
        assistant: "他的出发点也许是好的，但结果是你被排除在外了。你现在最想要的是什么？一个道歉，还是想清楚要不要异地？",
      },
      /* 3 */ {
        user: "idk 都有吧 时差6个小时 他演出都在晚上 我白天上班 根本碰不上 我不觉得能行",
        assistant: "这些都是很实际的问题。不用今晚就决定，先睡一觉，过几天冷静下来再好好谈一次。",
      },
      /* 4 */ {
        user: "嗯 年糕一直趴在我肚子上 她好像知道",
        assistant: "猫很敏感的。有她陪着，试着睡一会儿吧。",
      },
      /* 5 */ {
        user: "好 晚安",
        assistant: "晚安，照顾好自己。",
      },
    ],
    summary:
      "Marcus告诉Rae柏林一家studio给了他做live sound的offer，九月就走，并提议异地。Rae生气的主要是他瞒着她面试了两个月，他解释是怕拿不到offer让她白担心。她觉得六小时时差加上他晚上演出、她白天上班，异地很难维持，助手建议她先睡，冷静后再谈。",
  },
  {
    id: "b-en11",
    date: "2026-08-06",
    time: "12:40",
    title: "onboarding test",
    language: "en",
    turns: [
      /* 0 */ {
        user: "ok work thing. my first real project. we're testing the short onboarding, 3 screens then straight into a lesson. the a/b launches next monday, 50/50 split, android only at first",
        assistant: "That's the idea from your interview case, now live. What's the primary metric?",
      },
      /* 1 */ {
        user: "d7 retention. baseline is 18.2%. priya wants 23% to call it a win which i think is insane",
        assistant: "A five-point lift on 18% would be huge for an onboarding change. Have you agreed on a smallest effect worth shipping, separate from the 'win' target?",
      },
      /* 2 */ {
        user: "no. should i push back? shes kind of my boss's boss. leo is my actual manager",
        assistant: "Frame it as a question rather than pushback: 'If we see +2 points with confidence, do we ship?' That sets a realistic bar without arguing about 23%.",
      },
      /* 3 */ {
        user: "ooh ok. also guardrails. leo says check lesson completion and notification opt-in. anything else",
        assistant: "Add day-7 subscription conversion and the crash rate of the new screens. Moving the notification prompt later can lower opt-in, so watch that one especially.",
      },
      /* 4 */ {
        user: "the notif thing is exactly what im worried about. we moved the notif ask to after the 2nd lesson",
        assistant: "Then pre-register it: write down before the test that you expect opt-in to dip and how big a dip is acceptable. It stops anyone over-reading it later.",
      },
      /* 5 */ {
        user: "writing a doc rn. presenting the plan to priya on the 20th",
        assistant: "Keep it to one page: hypothesis, variants, primary metric, guardrails, decision rule, duration.",
      },
      /* 6 */ {
        user: "one page. ok. also sorry i havent talked abt personal stuff. marcus and i are... not great. later",
        assistant: "No need to apologise. Whenever you want to talk about it, I'm here.",
      },
    ],
    summary:
      "Rae's first project at Parla is an A/B test of a 3-screen onboarding, launching next Monday as a 50/50 split on Android, with day-7 retention (baseline 18.2%) as the main metric; Priya wants 23%. The assistant suggested asking whether +2 points would be enough to ship, and adding subscription conversion and crash rate to Leo's guardrails; the notification prompt now comes after the second lesson, so she will pre-register an expected dip in opt-in. She presents a one-page plan to Priya on the 20th, and mentioned that things with Marcus are not good.",
  },
  {
    id: "b-zh10",
    date: "2026-08-18",
    time: "23:50",
    title: "分了",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "分了 正式的",
        assistant: "抱歉，听到这个很难过。你还好吗？",
      },
      /* 1 */ {
        user: "还好吧 比我想的平静 我们谈了三个小时 最后都觉得异地撑不住 他9月1号走 走之前说想把借我的那台相机拿回去 哈哈 好现实",
        assistant: "能平静地谈三个小时，说明你们都很认真对待这段关系。相机的事就当是把东西理清楚。",
      },
      /* 2 */ {
        user: "嗯 其实最难受的是 阿杰婚礼我本来要带他去当 plus one 的 都跟圆圆报了人数 现在得跟她说少一个",
        assistant: "原来的计划落空会失落。跟圆圆说一声就好，她会理解的。",
      },
      /* 3 */ {
        user: "mina 和小鹿知道以后 直接把我拉去 ktv 唱了三个小时 小鹿点了十遍《后来》 我们仨都哭了 笑死",
        assistant: "有这样的朋友真好。《后来》点十遍，很懂分手的氛围。",
      },
      /* 4 */ {
        user: "回家年糕在门口等我 还生气了 因为我回来晚了没准时喂她 咬了我一口 哈哈",
        assistant: "年糕也在用自己的方式关心你。今晚早点休息吧。",
      },
      /* 5 */ {
        user: "好 还有 我不想再去那个攀岩馆了 肯定会碰到他 你觉得我要不要换个运动",
        assistant: "暂时避开可以理解。你已经在游泳，膝盖也恢复得不错，可以把游泳当主项，再慢慢把跑步加回来。",
      },
      /* 6 */ {
        user: "对 游泳继续 跑步的话 我想报个11月的10k 给自己个目标",
        assistant: "好主意，11月的10公里给你三个月准备，不会给膝盖太大压力。",
      },
    ],
    summary:
      "Rae和Marcus正式分手，两人谈了三个小时，都觉得异地撑不下去；他9月1日走，走前要拿回借给她的相机。她原本要带他去阿杰婚礼当plus one，现在要告诉圆圆少一人；Mina和小鹿拉她去KTV唱了三个小时。她不想再去攀岩馆，打算继续游泳，并报名11月的10公里跑。",
  },
  {
    id: "b-en12",
    date: "2026-09-02",
    time: "21:00",
    title: "japan itinerary FINAL (v7)",
    language: "en",
    turns: [
      /* 0 */ {
        user: "ok pasting the final itinerary, pls sanity check:\noct 2 - fly pvg→kix 9:40am, spring airlines (lol), osaka, hotel near namba\noct 3 - osaka: dotonbori, kuromon market, the okonomiyaki place mina found\noct 4 - nara day trip, deer, todaiji\noct 5 - move to kyoto, machiya guesthouse in higashiyama (3 nights)\noct 6 - fushimi inari early (6am!!) + arashiyama\noct 7 - kyoto free day / xiaolu wants a tea ceremony\noct 8 - back to osaka, universal studios??\noct 9 - fly home 4pm",
        assistant: "Looks well paced. Going to Fushimi Inari at 6am is a great call in Golden Week. Universal Studios that week will be packed, though: if you go, buy Express passes in advance, or swap it for something calmer. And a 4pm flight on Oct 9 means leaving the city by noon.",
      },
      /* 1 */ {
        user: "xiaolu and mina want usj, i dont care. ill tell them abt the express pass",
        assistant: "Fair enough. Express passes sell out, so buy them soon.",
      },
      /* 2 */ {
        user: "budget so far per person: flights 2100, hotels 3400 (namba 3 nights + machiya 3 + osaka last night), jr/metro ~400, food idk. ive saved 27k of the 30k lol so were fine",
        assistant: "That's about 5,900 per person before food, tickets and shopping. Allow 300–400 RMB a day for food and around 800 for USJ with an Express pass. You're well within your savings.",
      },
      /* 3 */ {
        user: "visa: submitted aug 20 thru the agency. should be back ~sept 10",
        assistant: "Good timing, plenty of margin before October 2.",
      },
      /* 4 */ {
        user: "ok and the cat. need someone to feed her for 7 days. xiaolu is coming with me so she cant. options: cat sitter app thing, or ask the dog neighbour lady",
        assistant: "For a week, a professional sitter who visits once a day is the usual choice; have them do a trial visit before you leave. The neighbour could be a backup, but if she comes in smelling of her dog, your cat may be stressed.",
      },
      /* 5 */ {
        user: "lmao true. doudou smell = war. cat sitter it is",
        assistant: "Sensible. Book early; sitters fill up around holidays.",
      },
      /* 6 */ {
        user: "also wedding plus one update... i told yuanyuan its just me now. she was really sweet abt it",
        assistant: "Glad she was kind about it. One less thing to worry about.",
      },
    ],
    summary:
      "Rae shared the final Japan itinerary for October 2–9: Osaka, a Nara day trip, three nights in a Kyoto machiya, Fushimi Inari at 6am and possibly Universal Studios, for which the assistant advised buying Express passes. The budget so far is about 5,900 per person (flights 2100, hotels 3400, transport 400) and she has saved 27k of her 30k goal; the visa was submitted on August 20. She chose a professional cat sitter over the neighbour with the dog, and told Yuanyuan she is coming to the wedding alone.",
  },
  {
    id: "b-zh11",
    date: "2026-09-14",
    time: "19:20",
    title: "年糕生病了",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "年糕这两天老跑猫砂盆 每次就尿一点点 今天砂里好像有点红 吓死我了",
        assistant: "频繁上厕所、每次量少、还带血，多半是泌尿系统的问题，比如膀胱炎或者尿结晶。如果她完全尿不出来，要马上去急诊。她今天还能尿出来吗？",
      },
      /* 1 */ {
        user: "能 一点点 我请了半天假 现在在宠物医院排队",
        assistant: "到医院就好。医生一般会做尿检和B超，等结果出来再说。",
      },
      /* 2 */ {
        user: "结果出来了 膀胱炎 + 鸟粪石结晶 医生说跟压力和喝水少都有关系 可能是搬家那阵子的压力 还有隔壁那只狗天天叫",
        assistant: "鸟粪石结晶一般可以靠处方粮溶解，不一定要手术。医生开了什么？",
      },
      /* 3 */ {
        user: "开了处方粮 皇家 SO 吃两个月 还有消炎药 一天两次 还让她多喝水 建议买个流动水的饮水机 猫喜欢喝活水\n今天一共花了1180 😭 光检查就600多",
        assistant: "这个方案很常规，坚持吃处方粮、多喝水，大多数猫恢复得不错。喂药可以试试把药片藏在零食里。",
      },
      /* 4 */ {
        user: "藏零食里 她吐出来三次 哈哈 我手上全是口水 最后用喂药器才成功",
        assistant: "喂药器是个好办法，辛苦了。饮水机可以尽快买。",
      },
      /* 5 */ {
        user: "买了 小米那个 明天到 还有 日本那周她还在吃药期间 我怎么办 本来约了上门喂猫的",
        assistant: "可以跟上门喂猫的人讲清楚喂药的要求，提前示范一下喂药器，确认对方愿意做。也可以问问宠物医院能不能寄养，那里照顾吃药的猫更方便。",
      },
      /* 6 */ {
        user: "上门那个小姐姐说她可以喂药 她以前是兽医助理 放心多了 但我还是打算让她每天发视频",
        assistant: "有兽医助理经验太好了。每天发视频，你在日本也能安心玩。",
      },
    ],
    summary:
      "年糕尿频、尿量少并带血，Rae请了半天假带她去宠物医院，诊断为膀胱炎加鸟粪石结晶，医生认为和搬家压力、隔壁狗叫以及喝水少有关。医生开了皇家SO处方粮（吃两个月）和一天两次的消炎药，建议用流动饮水机，这次共花1180元；药藏在零食里被吐出三次，最后用喂药器喂进去。日本那周由以前做过兽医助理的上门喂猫师喂药，并每天发视频。",
  },
  {
    id: "b-en13",
    date: "2026-09-25",
    time: "07:15",
    title: "10k plan",
    language: "en",
    turns: [
      /* 0 */ {
        user: "signed up for the 10k!! nov 15, the one along the river in xuhui. entry was 200. im scared",
        assistant: "Great! Seven weeks is enough for a 10k if you build up gradually. What's your longest run at the moment?",
      },
      /* 1 */ {
        user: "6k, slow, knee is fine. 3 runs a week + 2 swims",
        assistant: "Then add about 1 km a week to your longest run, reach 10k by early November and ease off in the last week. Keep one run easy; the swims are perfect cross-training.",
      },
      /* 2 */ {
        user: "also new shoes. the guy at the store watched me run and said i overpronate a bit so he gave me stability shoes. asics gt-2000. they feel like bricks",
        assistant: "Stability shoes can feel stiff at first. Do a couple of short runs in them before you use them for a long one.",
      },
      /* 3 */ {
        user: "goal time? i want under 1 hr",
        assistant: "From a comfortable 6k, under an hour for 10k (6:00 per km) is a reasonable target. If you feel strong on the day, aim for 58–59 minutes.",
      },
      /* 4 */ {
        user: "ok 5:55/km fantasy pace lol. also random but the marcus thing is fine now. hes in berlin, we text sometimes, its ok",
        assistant: "Glad it has settled into something okay. Having a goal to run toward helps too.",
      },
      /* 5 */ {
        user: "ya. ok 1 week till japan!!! the cat sitter did a trial visit, cat hid the whole time lol but the sitter found her",
        assistant: "Sounds like the trial went as well as it could. One week to go!",
      },
    ],
    summary:
      "Rae entered the November 15 10k along the river in Xuhui (entry fee 200); her longest run is 6 km and the assistant suggested adding about 1 km a week and tapering in the last week. A shop assistant said she overpronates and sold her stability shoes (ASICS GT-2000); she wants to finish under an hour, and the assistant suggested 58–59 minutes. She and Marcus text sometimes now, and the cat sitter did a trial visit a week before Japan.",
  },
  {
    id: "b-zh12",
    date: "2026-10-11",
    time: "16:00",
    title: "日本回来啦",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "回来了！！！总结一下：\n- 大阪那家大阪烧真的绝了 mina 找的 排了一小时\n- 奈良的鹿抢了 mina 的地图 吃掉一半\n- 京都町屋超美 但是榻榻米睡得我腰疼\n- 伏见稻荷6点去的 几乎没人 拍了好多\n- USJ 买了 express 还是排了好久 小鹿在马里奥区疯了\n- 我在岚山丢了一把伞 😢",
        assistant: "听起来很精彩！大阪烧排一小时也值了，鹿吃地图太好笑。你最喜欢哪一天？",
      },
      /* 1 */ {
        user: "伏见稻荷那天 早上的光特别好 我们三个都超开心 那天晚上在町屋喝小鹿带的梅酒 聊到两点",
        assistant: "这种晚上往往是旅行里最难忘的。花费控制得怎么样？",
      },
      /* 2 */ {
        user: "超了 人均大概超了2000 主要是买东西 我买了一套有田烧的碗 还有给阿杰圆圆的新婚礼物 一对京都的手工茶杯",
        assistant: "给新人的茶杯很有心意。多出的2000也还在你存的钱里。年糕怎么样？",
      },
      /* 3 */ {
        user: "年糕超好 上门小姐姐每天发视频 药都按时吃了 回来复查 结晶没了！！！医生说处方粮再吃一个月 然后换成泌尿处方的维持粮",
        assistant: "太好了，结晶没了！按医生说的再吃一个月处方粮。",
      },
      /* 4 */ {
        user: "而且她好像根本没想我 我进门她就看了我一眼 继续睡 😑",
        assistant: "猫就是这样，其实她心里记着你呢。",
      },
      /* 5 */ {
        user: "下周开始要准备伴娘的事了 圆圆发了伴娘服链接 雾霾蓝的 我觉得还行",
        assistant: "雾霾蓝很好看。婚礼前还要准备什么？",
      },
      /* 6 */ {
        user: "要学一支舞 😭 还有接亲的游戏要设计 mina 负责游戏 我负责堵门的问题 头疼",
        assistant: "堵门的问题可以出一些只有新人之间才知道的小事，比如他们第一次约会在哪、求婚在哪。",
      },
    ],
    summary:
      "Rae从日本回来了：大阪烧排了一小时，奈良的鹿吃了Mina的地图，京都町屋的榻榻米睡得她腰疼，最喜欢的是清晨去伏见稻荷的那天，她还在岚山丢了一把伞。人均超支约2000元，她买了有田烧的碗，并给阿杰和圆圆买了一对京都手工茶杯当新婚礼物。年糕复查结晶已消失，处方粮再吃一个月；她开始准备伴娘的事，伴娘服是雾霾蓝，她负责设计堵门问题。",
  },
  {
    id: "b-en14",
    date: "2026-10-21",
    time: "18:30",
    title: "results + a maybe promotion??",
    language: "en",
    turns: [
      /* 0 */ {
        user: "onboarding test results are in. 4 weeks, android + ios. d7 retention: control 18.1%, short onboarding 24.5%. notif opt-in dropped from 61% to 52% like we thought. subscription conversion flat",
        assistant: "That's a big win: +6.4 points of day-7 retention, and you pre-registered the opt-in drop, so nobody can be surprised by it. Was it significant?",
      },
      /* 1 */ {
        user: "yes p<0.01 easily. priya said in the review 'this is the best test we've run this year'. i almost passed out",
        assistant: "Rae, that's a huge compliment for a first project. Enjoy it.",
      },
      /* 2 */ {
        user: "and then after the meeting she asked if id want to lead a small 'activation' pod from january. me + 1 engineer + 1 designer. and a raise, she said 'around 36'",
        assistant: "From 31k to around 36k and a team of your own, within a year of switching into product. How do you feel about leading people?",
      },
      /* 3 */ {
        user: "terrified. ive never managed anyone. what if im bad at it. what if the engineer hates me. the designer is sofia who i love but the engineer is new",
        assistant: "Feeling terrified is normal and usually means you'll take it seriously. Start with weekly one-on-ones, ask each of them what they want to get out of the work, and be clear about how decisions get made. You don't need all the answers.",
      },
      /* 4 */ {
        user: "weekly 1:1s. ok. should i ask leo for advice or is that weird since hes my manager and im kind of... moving sideways",
        assistant: "Not weird at all. Leo has watched you work and probably recommended you. Asking how he runs his one-on-ones is a compliment.",
      },
      /* 5 */ {
        user: "ok. also celebrating friday w mina + xiaolu, hotpot obviously. the mushroom one from ajies bday",
        assistant: "That place again, full circle. Enjoy it!",
      },
    ],
    summary:
      "The onboarding test ran four weeks on Android and iOS: day-7 retention rose from 18.1% to 24.5%, notification opt-in fell from 61% to 52% as expected, and subscription conversion stayed flat. Priya called it the best test of the year and offered Rae the lead of a small activation team from January (one engineer plus Sofia, a designer) with a raise to about 36k. The assistant suggested weekly one-on-ones and asking Leo for advice; she will celebrate with Mina and Xiaolu at the mushroom hotpot place.",
  },
  {
    id: "b-zh13",
    date: "2026-11-08",
    time: "22:30",
    title: "婚礼结束 累瘫",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "阿杰婚礼结束了 我现在躺在酒店 脚已经不是我的了 高跟鞋穿了12个小时",
        assistant: "伴娘辛苦了！婚礼顺利吗？",
      },
      /* 1 */ {
        user: "超顺利 早上5点起来化妆 堵门的时候用了你那个思路 问 '你们第一次约会在哪' 阿杰答错了 说是电影院 其实是一家烧烤店 圆圆当场翻白眼 全场笑疯",
        assistant: "哈哈，这题出得太成功了。红包包了多少？",
      },
      /* 2 */ {
        user: "1888 跟 mina 小鹿商量好的 伴娘组统一",
        assistant: "统一金额挺好，不会尴尬。",
      },
      /* 3 */ {
        user: "还有 婚宴上我被安排跟圆圆的表哥一桌 叫周航 在杭州做建筑师 人挺有意思的 聊了好久 加了微信 mina 一直在桌子底下踢我 哈哈",
        assistant: "哈哈，Mina的暗示很明显。聊得来就先当朋友慢慢了解。",
      },
      /* 4 */ {
        user: "嗯 不着急 刚分手没多久 不过他说月底前要来上海出差 可能一起吃个饭",
        assistant: "不着急是对的，吃个饭也很轻松。",
      },
      /* 5 */ {
        user: "最惨的是 婚礼上那支舞我跳错了两拍 视频被阿杰妈妈发到家族群了 我要社死了",
        assistant: "哈哈，跳错的两拍反而是最真实的回忆。大家只会记得开心。",
      },
      /* 6 */ {
        user: "茶杯他们超喜欢 圆圆说要摆在新家的茶桌上",
        assistant: "太好了，京都带回来的礼物找到了好位置。",
      },
    ],
    summary:
      "Rae在杭州给阿杰当完伴娘，高跟鞋穿了12个小时。堵门问题问新人第一次约会在哪，阿杰答成电影院，其实是烧烤店；伴娘组统一包了1888元红包。婚宴上她和圆圆的表哥周航（杭州的建筑师）聊得很好、加了微信，他月底前来上海出差时可能一起吃饭；新人很喜欢她送的茶杯，要摆在新家的茶桌上。",
  },
  {
    id: "b-en15",
    date: "2026-11-15",
    time: "14:10",
    title: "RACE DONE",
    language: "en",
    turns: [
      /* 0 */ {
        user: "58:41!!!!!!!! under an hour!!!!",
        assistant: "RAE! 58:41, right in the range we talked about. Congratulations! How did it feel?",
      },
      /* 1 */ {
        user: "first 5k felt easy, went out at 5:50s, then km 7-8 were hell, headwind the whole way along the river. last km i just thought about launch night and got angry and sprinted lol",
        assistant: "Anger as fuel, classic. Holding pace through two kilometres of headwind is impressive. How's the knee?",
      },
      /* 2 */ {
        user: "knee totally fine!! zero pain. the stability shoes were good actually, i take back the brick thing",
        assistant: "Great news on both counts. In February you couldn't walk downstairs without pain.",
      },
      /* 3 */ {
        user: "mina and xiaolu came to cheer with a sign that said 'RUN LIKE THE CAT NEEDS HER DINNER'",
        assistant: "Perfect sign. It probably worked.",
      },
      /* 4 */ {
        user: "ok next: half marathon in spring? shanghai has one in april i think. too soon?",
        assistant: "From a 58-minute 10k, an April half gives you about five months, which is plenty if you build slowly, like the 1 km a week you did this time. Add a lighter week every month.",
      },
      /* 5 */ {
        user: "ok thinking abt it. also friendsgiving is in 10 days at my place!! tessa confirmed. will plan the menu w u later",
        assistant: "Great, let's plan the menu closer to the day.",
      },
    ],
    summary:
      "Rae ran the 10k in 58:41: the first 5 km felt easy, kilometres 7–8 were hard into a headwind along the river, and she sprinted the last kilometre thinking about the failed launch. Her knee had no pain and she now likes the stability shoes; Mina and Xiaolu cheered with a sign about the cat's dinner. She is considering an April half marathon, and Friendsgiving at her place is in ten days with Tessa confirmed.",
  },
  {
    id: "b-zh14",
    date: "2026-11-22",
    time: "21:00",
    title: "年终总结（提前）",
    language: "zh",
    turns: [
      /* 0 */ {
        user: "提前做个年终总结 列一下：\n1. 换工作 从 QA 到产品 ✅\n2. 搬家 ✅ 一个人住原来挺好\n3. 养了年糕 ✅ 今年最好的决定\n4. 分手 ❌ 但也 ok\n5. 10k 跑进一小时 ✅\n6. 日本 ✅\n7. 读20本书 ❌ 只读了9本 哈哈\n8. 包饺子 ❌ 还是会破",
        assistant: "这份总结很有分量，大部分都完成了，读了9本也不少。明年有什么想法？",
      },
      /* 1 */ {
        user: "明年：\n- 带好新的小组 (1月开始)\n- 4月半马\n- 学日语 下次去日本能自己点菜\n- 存钱 给爸妈报个旅游团去云南\n- 饺子 再战",
        assistant: "很具体。学日语的话，每天15分钟用app打卡，比报班更容易坚持。你爸妈去云南想去哪些地方？",
      },
      /* 2 */ {
        user: "我妈想去大理 看洱海 我爸想去西双版纳看大象 哈哈 他俩意见不合已经吵了一周",
        assistant: "哈哈，很多旅行团走昆明-大理-丽江一线，版纳要另算。可以找一条两地都包含的线路，或者分两次去。",
      },
      /* 3 */ {
        user: "对了 周航上周真的来上海了 一起吃了云南菜 他给我推荐了一本书 《看不见的城市》 说建筑师都爱 我还没开始看",
        assistant: "卡尔维诺的书，篇幅很短，正好凑你的第十本。这顿饭吃得怎么样？",
      },
      /* 4 */ {
        user: "挺好的 聊得来 但我还是想慢慢来 先当朋友 你别问了哈哈",
        assistant: "好，不问了。",
      },
      /* 5 */ {
        user: "年糕今天体检 全部正常 体重4.2kg 医生说可以换回普通猫粮了 但要选泌尿健康的",
        assistant: "太好了！从九月的膀胱炎到现在完全恢复。换粮记得用七天过渡：新旧粮混着，每天多加一点新粮。",
      },
      /* 6 */ {
        user: "七天过渡 ok 记下了 周三 friendsgiving tessa 周二就到 住我这 沙发床终于派上用场",
        assistant: "Tessa回来住几天太好了。Friendsgiving的菜单我们之后一起定。",
      },
    ],
    summary:
      "Rae提前做了年终总结：换工作、搬家、养猫、10公里跑进一小时、去日本都完成了，书只读了9本，饺子还是会破。明年计划带新小组、4月跑半马、学日语（助手建议每天15分钟用app）、攒钱送爸妈去云南，妈妈想去大理、爸爸想去西双版纳。周航来上海和她吃了云南菜，推荐了《看不见的城市》；年糕体检正常，4.2公斤，可以换回泌尿健康的普通猫粮，助手提醒七天过渡。",
  },
  {
    id: "b-en16",
    date: "2026-11-25",
    time: "10:30",
    title: "friendsgiving menu HELP",
    language: "en",
    turns: [
      /* 0 */ {
        user: "friendsgiving is TONIGHT. 7 ppl. my oven is tiny. pasting what ppl are bringing:\n- mina: mashed potatoes\n- xiaolu: a salad (vegetarian obv)\n- ajie + yuanyuan: wine + a cake from some bakery in hangzhou\n- tessa: cheung fun??? from shenzhen?? on the train??\n- zhou hang: said hed bring 'a surprise'\n- me: the main thing",
        assistant: "Fun lineup! With a tiny oven a whole turkey is out. You could roast chicken thighs (they fit a small oven, about 40 minutes) or do a big braise on the stove. What are you thinking?",
      },
      /* 1 */ {
        user: "turkey was never happening lol. i want something impressive that i cant mess up",
        assistant: "Then red-braised pork belly on the stove plus oven-roasted chicken thighs with lemon and garlic. Both can be made ahead. Xiaolu will need a vegetarian main too: a big tray of roast vegetables with tofu.",
      },
      /* 2 */ {
        user: "ok yes. pork belly + chicken + roast veg w tofu. shopping list pls",
        assistant: "Shopping list:\n- 1.5 kg pork belly, rock sugar, light and dark soy sauce, Shaoxing wine, ginger, star anise\n- 2 kg chicken thighs, 2 lemons, 1 head of garlic, rosemary\n- 2 blocks firm tofu, 2 sweet potatoes, 2 bell peppers, 1 broccoli, 1 red onion\n- olive oil, salt, pepper\nStart the pork belly first; it needs about 90 minutes.",
      },
      /* 3 */ {
        user: "wait did u see zhou hang is coming. hes in shanghai for work again and mina invited him without asking me. MINA",
        assistant: "Ha, Mina strikes again. It's a group dinner, so it's low pressure.",
      },
      /* 4 */ {
        user: "ok. also the cat. 7 ppl + a cat who hates noise. her water fountain and bed are in the bedroom, ill close the door",
        assistant: "Good idea. A closed, quiet room with her things is exactly what she needs. Maybe tell guests not to open that door.",
      },
      /* 5 */ {
        user: "putting a note on the door: 'cat is resting. do not disturb. she bites.' true story",
        assistant: "Honest and effective. Have a great Friendsgiving!",
      },
      /* 6 */ {
        user: "(11pm) it was perfect. pork belly gone in 10 min. tessas cheung fun survived the train. zhou hang brought a board game, mina lost. cat came out at the end and sat on tessas lap. 10/10",
        assistant: "That sounds like a perfect night: a year's worth of people around one table, and the cat approving of Tessa.",
      },
    ],
    summary:
      "Rae hosted Friendsgiving for seven with a tiny oven; guests brought mashed potatoes, a vegetarian salad, wine and a Hangzhou cake, and Tessa brought cheung fun from Shenzhen. The assistant suggested red-braised pork belly (about 90 minutes), roast chicken thighs and roast vegetables with tofu for Xiaolu, with a shopping list. Mina had invited Zhou Hang, who brought a board game; the cat stayed in the closed bedroom and at the end sat on Tessa's lap.",
  },
];
