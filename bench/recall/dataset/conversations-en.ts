import type { BenchConversation } from "./types.js";

/**
 * English conversations. The person is Lin Mei, a product designer in Vancouver
 * who talks with the assistant in English or Chinese depending on the topic and her mood.
 */
export const conversationsEn: BenchConversation[] = [
  {
    id: "en01",
    date: "2026-01-07",
    time: "19:42",
    title: "new year stuff",
    language: "en",
    turns: [
      {
        user: "Happy new year! I'm trying to actually stick to resolutions this time. I signed up at Northside Fitness on Main Street yesterday, it's two blocks from my place.",
        assistant: "Happy new year! Picking a gym that close is a smart move: the less friction, the more likely you'll actually go. What are you hoping to focus on there?",
      },
      {
        user: "Mostly strength stuff, I sit at a desk all day designing dashboards and my back hates me. Also I want to do something creative that isn't a screen.",
        assistant: "A mix sounds great. For strength, two or three full-body sessions a week with squats, rows and deadlifts would help your back a lot. For the creative side, have you thought about something hands-on like painting, woodworking or clay?",
      },
      {
        user: "Pottery! My coworker Tom did a wheel class last year and wouldn't shut up about it. There's a studio called Claymates on Fraser that runs an 8-week beginner course.",
        assistant: "That sounds perfect for getting off screens. Beginner courses usually cover centering, pulling up walls and trimming, and you get to glaze a few pieces at the end. Do you know when it runs?",
      },
      {
        user: "Tuesday evenings, 7 to 9, starting January 20. It's $320 including clay and firing, which honestly seems fair.",
        assistant: "That's a fair price for eight sessions with materials and firing included, and Tuesday evenings leave your weekends free. Want me to remind you of anything before the first session?",
      },
      {
        user: "Ok I just booked it. Apparently I should bring an old towel and keep my nails short lol.",
        assistant: "Ha, yes, short nails make a big difference when you're centering. Wear clothes you don't mind getting muddy too. Congrats on booking it!",
      },
      {
        user: "Other resolution: 20 books this year. Last year I managed like 7.",
        assistant: "Twenty is ambitious but doable if you always keep one in your bag and mix in some shorter titles. Audiobooks on dog walks count too, in my opinion.",
      },
      {
        user: "Mochi would approve of more walks. Ok that's enough planning for one night, thanks!",
        assistant: "Good luck with the first week, and say hi to Mochi!",
      },
    ],
    summary: "Lin Mei joined Northside Fitness on Main Street for strength training and booked an 8-week beginner pottery course at Claymates on Fraser (Tuesdays 7–9 pm from January 20, $320). Her other resolution is to read 20 books this year.",
  },
  {
    id: "en02",
    date: "2026-01-22",
    time: "20:15",
    title: "book club",
    language: "en",
    turns: [
      {
        user: "So my friend Rachel started a book club and I got roped in. We meet the first Thursday of every month at her apartment in Kitsilano.",
        assistant: "That sounds like fun, and a good way to hit your reading goal! Do you know what the first pick is?",
      },
      {
        user: "The first pick is The Remains of the Day by Kazuo Ishiguro. I've never read him. Is it depressing?",
        assistant: "It's quiet and melancholy rather than depressing. It's narrated by Stevens, an English butler looking back on his years of service, and most of the emotion is in what he doesn't say. It's short, around 250 pages, so you have plenty of time before February.",
      },
      {
        user: "Ok good. My sister Xue has been telling me for months to read Piranesi, she literally texts me 'did you start it yet' every week.",
        assistant: "Piranesi by Susanna Clarke is a great choice: a strange, dreamlike story about a man living in an endless house of halls, statues and tides. It's also short, so you could read it right after the club pick.",
      },
      {
        user: "She says it's 'the most comforting weird book ever'. She reads way more fantasy than me though.",
        assistant: "That's a fair description honestly. Even people who don't usually read fantasy tend to like it because it works more like a mystery than an epic.",
      },
      {
        user: "Alright, Ishiguro first and then Piranesi. I'm borrowing both, my username on the Vancouver Public Library site is linmei_reads if you ever need to remind me which account lol.",
        assistant: "Noted: linmei_reads on the library site. Placing holds early is a good idea, popular titles can have a long waitlist.",
      },
      {
        user: "There are 14 holds on Piranesi already, wow. Remains of the Day was available right away though.",
        assistant: "Then the order works out nicely. Enjoy Stevens' road trip, and I hope the first meeting goes well!",
      },
    ],
    summary: "Lin Mei joined her friend Rachel's book club, which meets the first Thursday of each month in Kitsilano; the first pick is The Remains of the Day by Kazuo Ishiguro. Her sister Xue keeps urging her to read Piranesi, which has 14 holds at the library (her library username is linmei_reads).",
  },
  {
    id: "en03",
    date: "2026-01-29",
    time: "08:05",
    title: "mochi ears",
    language: "en",
    turns: [
      {
        user: "Mochi keeps shaking his head and scratching his left ear, and it smells kind of yeasty. Should I be worried?",
        assistant: "Head shaking, scratching and a yeasty smell are classic signs of an ear infection, and corgis get them fairly often. It's not an emergency, but it's worth having a vet look at it in the next day or two.",
      },
      {
        user: "Ugh ok. He's 4 and has never had this. I'll call Dr. Okafor at the Commercial Drive Animal Hospital, she's looked after him since he was tiny.",
        assistant: "Good idea to go with someone who knows his history. In the meantime, try to keep him from scratching too hard, and don't put anything into the ear canal yourself.",
      },
      {
        user: "Update: got an appointment at 4:30 today!",
        assistant: "Great, that was quick. Mention how long it's been going on and whether anything changed in his diet or routine recently.",
      },
      {
        user: "Back from the appointment. It's a yeast infection, she gave us drops twice a day for 10 days. He hates them already.",
        assistant: "Poor guy! A trick many owners use: give the drops right before a meal or walk, reward him immediately, and massage the base of the ear for 20–30 seconds so the medicine spreads.",
      },
      {
        user: "She also thinks the ear thing might be linked to a food allergy. She suspects chicken, so we're switching him to a salmon-based kibble for 8 weeks to see.",
        assistant: "That makes sense, food allergies often show up as recurring ear and skin problems. For the elimination trial to work, make sure his treats don't contain chicken either; a lot of them do, even when the label says beef or lamb.",
      },
      {
        user: "Oh no, his favourite treats are chicken jerky. Guess those are gone.",
        assistant: "Sadly yes. Freeze-dried salmon or plain dehydrated sweet potato are good swaps, and most dogs love them.",
      },
      {
        user: "Sweet potato chews it is. Thanks, I was kind of panicking this morning.",
        assistant: "Totally understandable. Hope his ear clears up quickly, give him a pat from me.",
      },
    ],
    summary: "Mochi, Lin Mei's 4-year-old corgi, had a yeast ear infection; Dr. Okafor at Commercial Drive Animal Hospital prescribed drops twice a day for 10 days. The vet suspects a chicken allergy, so Mochi is on salmon-based kibble for 8 weeks and his chicken jerky treats are replaced with sweet potato chews.",
  },
  {
    id: "en04",
    date: "2026-02-03",
    time: "21:30",
    title: "sore throat",
    language: "en",
    turns: [
      {
        user: "My throat has been on fire since Saturday and I have a fever of 38.6. Is this just a cold?",
        assistant: "A very sore throat with a fever and no cough can be strep rather than a cold. It's worth seeing a doctor soon, since strep needs antibiotics and a quick swab can confirm it.",
      },
      {
        user: "No cough, just swallowing feels like knives. I booked with Dr. Rao tomorrow morning, she's my family doctor at the Mount Pleasant clinic.",
        assistant: "Good. Until then, warm salt water gargles, lots of fluids, and ibuprofen or acetaminophen for the pain and fever can help.",
      },
      {
        user: "It was strep. She was going to prescribe amoxicillin but I reminded her I'm allergic to penicillin, I broke out in hives as a kid.",
        assistant: "Good thing you said so, amoxicillin is in the penicillin family. What did she give you instead?",
      },
      {
        user: "Azithromycin, 5 days, one pill a day. She said I'm not contagious after 24 hours on it.",
        assistant: "That's a common alternative for people who can't take penicillins. Finish the full course even if you feel better in two days.",
      },
      {
        user: "I should probably work from home the rest of the week anyway. Priya won't mind.",
        assistant: "Sounds wise. Rest is the best thing you can do, and your team will be glad you're not spreading it around.",
      },
      {
        user: "Also making a note to put the allergy in my phone's medical ID. I keep forgetting to.",
        assistant: "Great idea. On most phones the Medical ID can be read from the lock screen, so paramedics could see it even if you can't tell them.",
      },
    ],
    summary: "Lin Mei had strep throat with a 38.6 fever and saw her family doctor, Dr. Rao, at the Mount Pleasant clinic. Because she is allergic to penicillin (hives as a child) she was given azithromycin for 5 days instead of amoxicillin, and she is working from home for the rest of the week.",
  },
  {
    id: "en05",
    date: "2026-03-04",
    time: "17:50",
    title: "promotion!!",
    language: "en",
    turns: [
      {
        user: "GUESS WHO JUST GOT PROMOTED. Priya pulled me into a meeting room and I thought I was in trouble.",
        assistant: "Congratulations!! That's huge news. What's the new title?",
      },
      {
        user: "Senior Product Designer at Harbor Analytics! Effective April 1st, and my salary goes up to 112k. I'll also be leading design on the new reporting dashboard project.",
        assistant: "That's a well-deserved step, and leading design on a whole project is a big vote of confidence. How are you feeling?",
      },
      {
        user: "Honestly a bit stunned. Daniel wants to take me out Friday to celebrate. Any ideas? I'm thinking sushi.",
        assistant: "Sushi sounds perfect for a celebration. Are you thinking omakase, where the chef chooses everything, or somewhere with aburi and a lively room?",
      },
      {
        user: "Aburi for sure. There's Kaede Aburi Sushi on Burrard, or that omakase place Hoshi on Main, but Hoshi is $180 a person.",
        assistant: "For a Friday celebration with a good atmosphere and a less painful bill, Kaede sounds like the better pick. You could keep Hoshi for an anniversary.",
      },
      {
        user: "Agreed, booked Kaede for 7:30 Friday. Daniel doesn't know I booked it yet, he wanted to plan it lol.",
        assistant: "Ha, he can plan the dessert then. Tell them it's a celebration when you arrive, some places bring out a little something.",
      },
      {
        user: "Good call. Also I have to tell my mom, she'll tell all of Hangzhou within the hour.",
        assistant: "That's what proud moms are for. Enjoy the moment, you earned this one.",
      },
    ],
    summary: "Lin Mei was promoted to Senior Product Designer at Harbor Analytics by her manager Priya, effective April 1 with a salary of 112k, and will lead design on the reporting dashboard project. She booked Kaede Aburi Sushi on Burrard for Friday at 7:30 to celebrate with Daniel, skipping the pricier omakase place Hoshi.",
  },
  {
    id: "en06",
    date: "2026-03-12",
    time: "21:05",
    title: "kyoto!!",
    language: "en",
    turns: [
      {
        user: "Daniel and I finally booked Kyoto! April 9 to 16. It's our first time in Japan.",
        assistant: "How exciting! That's around the tail end of cherry blossom season, so you might still catch some late blooms. Do you have a place to stay yet?",
      },
      {
        user: "Yes, a little machiya guesthouse in Gion called Yadoya Kohaku. It has a tiny garden and a wooden bath.",
        assistant: "That sounds lovely. Staying in Gion means you can walk to Yasaka Shrine and Higashiyama in the evening after the day-trippers leave.",
      },
      {
        user: "What should we absolutely not miss? We don't like super packed itineraries.",
        assistant: "For a relaxed week I'd suggest Fushimi Inari at dawn before the crowds, the Philosopher's Path, one day in Arashiyama, and half a day in Uji for matcha. Leave afternoons open to wander.",
      },
      {
        user: "Dawn at Fushimi Inari sounds magical, adding it. Is the JR Pass worth it?",
        assistant: "For a stay based only in Kyoto, the JR Pass usually isn't worth it since the price went up. A rechargeable IC card like ICOCA for buses and local trains is simpler and cheaper.",
      },
      {
        user: "Good to know, skipping the pass. Daniel wants one fancy dinner. Any kaiseki suggestions?",
        assistant: "For something special but not stiff, look for a tofu kaiseki near Nanzen-ji. It's a Kyoto specialty and often set in a garden. Reserve a couple of weeks ahead.",
      },
      {
        user: "Found one, Hanamizuki, booked for the 13th! Also my sister wants me to bring back a furoshiki.",
        assistant: "Perfect. Kyoto has great furoshiki shops around Sanjo and Nishiki Market, so that should be an easy souvenir.",
      },
      {
        user: "Ok one more: I'm taking Japanese classes starting this Saturday so I can at least order food, haha.",
        assistant: "That will make a real difference! Even basics like 'sumimasen' and 'kore o kudasai' go a long way, and people really appreciate the effort.",
      },
    ],
    summary: "Lin Mei and Daniel booked their first trip to Japan: Kyoto, April 9–16, staying at Yadoya Kohaku, a machiya guesthouse in Gion. The assistant suggested Fushimi Inari at dawn, the Philosopher's Path, Arashiyama and Uji, and an ICOCA card instead of the JR Pass; she booked tofu kaiseki at Hanamizuki for the 13th and her sister wants a furoshiki.",
  },
  {
    id: "en07",
    date: "2026-03-26",
    time: "07:10",
    title: "10k help",
    language: "en",
    turns: [
      {
        user: "I signed up for the Spring Run 10K on April 26. I have never run more than 6k in my life. Help.",
        assistant: "A month is tight but doable if you're already running a bit. How often are you going out now, and at what pace?",
      },
      {
        user: "Like twice a week, 5k in about 32 minutes. My goal is to finish under an hour.",
        assistant: "Then under an hour is realistic, that's about 6 minutes per kilometre. I'd do three runs a week: one easy, one with intervals, and a long one that builds from 7k up to 9k.",
      },
      {
        user: "Intervals meaning what exactly?",
        assistant: "For example: warm up 10 minutes, then 6 × 400 metres at a hard-but-controlled effort with 90 seconds of walking between, then cool down. It teaches your legs to be comfortable a bit faster than race pace.",
      },
      {
        user: "Ok. Also my shoes are ancient. The guy at the running store recommended Saucony Ride 17s and I bought them yesterday.",
        assistant: "The Ride is a solid cushioned daily trainer. Do your long runs in them over the next couple of weeks so they're broken in by race day; never race in brand-new shoes.",
      },
      {
        user: "Noted. Should I still do the gym on top of this?",
        assistant: "Keep one short strength session a week for glutes, calves and core, and drop anything heavy for legs in the final week so you show up fresh.",
      },
      {
        user: "Pottery finished a couple of weeks ago btw, so Tuesdays are free for the interval run.",
        assistant: "That works nicely. Tuesday intervals, Thursday easy, and a weekend long run would be a good rhythm.",
      },
      {
        user: "I made a lopsided bowl and a mug that actually holds coffee, so I'm calling the course a success.",
        assistant: "That's a success in my book! A mug that doesn't leak is a real achievement for a first course.",
      },
    ],
    summary: "Lin Mei signed up for the Spring Run 10K on April 26 and wants to finish under an hour; she currently runs 5k in about 32 minutes. The assistant suggested three runs a week including 6 × 400 m intervals on Tuesdays, and she bought Saucony Ride 17 shoes. Her pottery course ended; she made a lopsided bowl and a mug.",
  },
  {
    id: "en08",
    date: "2026-04-18",
    time: "14:20",
    title: "we're back",
    language: "en",
    turns: [
      {
        user: "We're back! Jet lag is brutal but Kyoto was unreal.",
        assistant: "Welcome back! What was the highlight?",
      },
      {
        user: "Fushimi Inari at 6am, like you said. Nobody there, just us and the fox statues and mist. Daniel took like 400 photos.",
        assistant: "That sounds magical, I'm really glad the dawn plan worked out. Did the rest of the week feel relaxed?",
      },
      {
        user: "Mostly! The tofu kaiseki at Hanamizuki was the best meal of the trip, there was a sesame tofu I'm still thinking about. The only disaster was Daniel leaving his phone on the train to Uji.",
        assistant: "Oh no! Did he get it back?",
      },
      {
        user: "Yes!! The lost and found at Uji station had it, someone turned it in within an hour. Japan is amazing.",
        assistant: "That's such a Japan story. Glad it had a happy ending.",
      },
      {
        user: "In Uji I bought a bamboo matcha whisk and a bag of gyokuro. I've been having it every morning since.",
        assistant: "Gyokuro is a treat. Brew it cooler than other greens, around 50–60°C, and it gets sweet and brothy. Did you find the souvenir for your sister?",
      },
      {
        user: "Yep, found an indigo furoshiki with little rabbits at Nishiki. Xue will love it.",
        assistant: "Rabbits on indigo sounds adorable. Now rest and hydrate; jet lag takes roughly a day per time zone to fully clear.",
      },
      {
        user: "Oh and the Saturday classes paid off, I ordered everything myself. Tanaka-sensei would be proud.",
        assistant: "That's wonderful! Using it in real life is the best reward for all those Saturday mornings.",
      },
    ],
    summary: "Back from Kyoto, Lin Mei said the highlight was Fushimi Inari at 6 am and the best meal was the sesame tofu at Hanamizuki. Daniel left his phone on the train to Uji but got it back from the station's lost and found; she bought a bamboo matcha whisk, gyokuro, and an indigo rabbit furoshiki for Xue.",
  },
  {
    id: "en09",
    date: "2026-05-06",
    time: "20:40",
    title: "mom turning 60",
    language: "en",
    turns: [
      {
        user: "My mom turns 60 on May 20 and I'm stuck on what to get her. She says she doesn't want anything, which is useless.",
        assistant: "Classic mom answer! A 60th is a big birthday. What does she enjoy day to day?",
      },
      {
        user: "Gardening, her WeChat groups, and complaining that she never sees her kids. Xue is in Chengdu and I'm here, so yeah.",
        assistant: "Then something that brings her closer to family could land really well. A few ideas: a digital photo frame that you and your sister can send pictures to remotely, a tablet set up for video calls, or a printed album of family photos.",
      },
      {
        user: "Ooh the photo frame one. She'd love seeing new pictures pop up without having to do anything.",
        assistant: "Exactly. With a Wi-Fi frame you can add pictures from your phone in Vancouver and they show up in Hangzhou within seconds. Check that the app works in China, since some rely on Google services.",
      },
      {
        user: "Good point about China. The first one Xue found needs Google, so we went with a Framely digital frame, it works over email.",
        assistant: "That's a smart choice for her situation. Emailing pictures to the frame is simple and doesn't depend on any blocked services.",
      },
      {
        user: "Xue and I are splitting it, $230 total. I'm loading it with 200 pictures before it ships.",
        assistant: "She's going to love it. Include some old ones too; pictures from when you and Xue were kids tend to get the biggest reaction.",
      },
      {
        user: "Yes! I have a scan of us at West Lake in 1999 with matching bowl cuts.",
        assistant: "That one has to be the first thing she sees when she turns it on.",
      },
    ],
    summary: "Lin Mei's mom turns 60 on May 20. On the assistant's suggestion, she and Xue are giving her a Framely digital frame that receives pictures by email (works in China), splitting the $230 cost; Lin Mei is loading 200 pictures, including a 1999 scan of the sisters at West Lake.",
  },
  {
    id: "en10",
    date: "2026-05-21",
    time: "22:10",
    title: "speech panic",
    language: "en",
    turns: [
      {
        user: "Jess is getting married June 13 in Kelowna, I'm her maid of honour, and I have not written a single word of my speech.",
        assistant: "Three weeks is plenty of time! Let's break it down. How long have you known Jess?",
      },
      {
        user: "Since first year at UBC, we were roommates in Totem Park. She once drove 4 hours through snow to pick me up when my car died in Merritt.",
        assistant: "That's a perfect story, it shows who she is without you having to say 'she's loyal'. A good speech is usually 3–4 minutes: a quick intro, one or two stories, something about the couple, and a toast.",
      },
      {
        user: "Her fiancé is Marcus, he's a firefighter and very calm, which is good because Jess is chaos.",
        assistant: "You could play on that: Jess the whirlwind and Marcus the calm one, the only person brave enough to keep up with her is someone who walks into fires for a living. Gentle teasing that lands on something sweet works well.",
      },
      {
        user: "LOL that's good, I'm stealing that line.",
        assistant: "It's yours! End with something sincere, like what you wish for them, and then raise the glass.",
      },
      {
        user: "Also the bridesmaid dresses are sage green and mine is too long, I need to get it hemmed.",
        assistant: "Get it to a tailor soon, hemming chiffon can take a week or two in wedding season. Bring the shoes you'll wear so they get the length right.",
      },
      {
        user: "There's a tailor on Victoria Drive, Mrs. Pham, she did Daniel's suit. I'll drop it off Saturday.",
        assistant: "Sounds like a plan. And the bachelorette, is that still happening?",
      },
      {
        user: "Whistler, May 30. I'm in charge of the playlist and the snacks, which is the correct job for me.",
        assistant: "The most important job! Have fun, and send me a draft of the speech whenever you want feedback.",
      },
    ],
    summary: "Lin Mei is maid of honour at her best friend Jess's wedding to Marcus, a firefighter, on June 13 in Kelowna; she planned her speech around Jess once driving 4 hours through snow to rescue her in Merritt. Her sage green bridesmaid dress goes to Mrs. Pham, a tailor on Victoria Drive, and the bachelorette is in Whistler on May 30.",
  },
  {
    id: "en11",
    date: "2026-06-04",
    time: "18:30",
    title: "gym switch",
    language: "en",
    turns: [
      {
        user: "I'm cancelling Northside. It's so packed after work that I spend half my session waiting for a squat rack.",
        assistant: "That's frustrating, and a good reason to switch. Do they need notice to end the membership?",
      },
      {
        user: "30 days written notice, classic. I emailed them today so I'm done July 4.",
        assistant: "Good that you got it in writing. What are you thinking of doing instead?",
      },
      {
        user: "Tom from work got me into bouldering and I'm hooked. I'm joining Basecamp Climbing on Hastings, it's $95 a month and they have a small weights area too.",
        assistant: "Bouldering is great for grip, back and shoulders, and it's social and full of problem-solving, which seems like your thing as a designer. The weights area means you can keep some strength work too.",
      },
      {
        user: "My forearms are destroyed after one session lol.",
        assistant: "Very normal at the start. Keep the first few weeks to 2–3 sessions with rest days between, and focus on footwork; beginners tend to pull with their arms too much.",
      },
      {
        user: "Should I buy my own shoes or keep renting?",
        assistant: "If you're going at least twice a week, buying pays off fast. Go for a comfortable flat beginner model rather than an aggressive downturned one, something like the La Sportiva Tarantulace or the Scarpa Origin.",
      },
      {
        user: "Tried both on, went with the Scarpa Origins. They're tight but not painful.",
        assistant: "That's the right fit for a beginner: snug toes, no sharp pain. They'll stretch a little over the first month.",
      },
      {
        user: "Tom and I are going Mondays and Thursdays after work now.",
        assistant: "Having a regular partner is the best way to keep it up. Enjoy the new place!",
      },
    ],
    summary: "Lin Mei cancelled Northside Fitness because it was too packed after work (30 days notice, ending July 4) and joined Basecamp Climbing on Hastings for $95 a month. Her coworker Tom got her into bouldering; they go Mondays and Thursdays, and she bought Scarpa Origin shoes.",
  },
  {
    id: "en12",
    date: "2026-06-25",
    time: "21:45",
    title: "big decision",
    language: "en",
    turns: [
      {
        user: "Ok I need to think out loud. I got an offer from Tidewater Health for a Lead Designer role.",
        assistant: "Congrats! That's exciting, even if it's a hard decision. What's on each side of the scale for you?",
      },
      {
        user: "Pay is 128k vs my current 112k, and I'd be working on a patient-facing app instead of internal dashboards. That part I love.",
        assistant: "That's a meaningful raise, and work you find more motivating. What's making you hesitate?",
      },
      {
        user: "I just got promoted at Harbor in March and I feel guilty leaving Priya. She went to bat for me.",
        assistant: "That's a very human feeling, but good managers usually want people to grow, even if it's elsewhere. You can leave well: give proper notice, help with the handover, and tell her how much her support meant.",
      },
      {
        user: "The hiring manager, Grace Kim, was amazing in the interviews. She ran design at a hospital system in Toronto before.",
        assistant: "Having a manager you click with matters a lot, especially in a lead role. Did you get a sense of the team size and how design is valued there?",
      },
      {
        user: "Team of 5 designers, design reports to the CPO. Office is in Gastown, which means SkyTrain instead of driving. Hybrid, 3 days in office.",
        assistant: "Design reporting to the CPO is a good sign for influence. And not having to drive is a quality-of-life win too.",
      },
      {
        user: "Start date they proposed is August 17. Benefits are better too, dental is covered at 90% vs 80%.",
        assistant: "On paper it's a clear step up: pay, scope, manager, commute and benefits. The main cost is the emotional one of leaving a team you like. If you sleep on it and still feel excited tomorrow, that's usually your answer.",
      },
      {
        user: "I'm 90% sure I'm saying yes. Going to sleep on it like you said.",
        assistant: "Sounds like a good plan. Whatever you decide, it's a great position to be in.",
      },
    ],
    summary: "Lin Mei got an offer from Tidewater Health as Lead Designer: 128k (vs 112k), a patient-facing app, hiring manager Grace Kim, a team of 5 designers, a Gastown office with 3 days in office, dental at 90%, and an August 17 start. She feels guilty about leaving Priya but is 90% sure she'll accept.",
  },
  {
    id: "en13",
    date: "2026-07-14",
    time: "19:00",
    title: "tofino weekend",
    language: "en",
    turns: [
      {
        user: "Planning a Tofino weekend July 24–26 with Daniel and Mochi! We got a site at Green Point.",
        assistant: "That sounds amazing. Green Point sits right above Long Beach and it's very popular, so great that you got a site. Are dogs allowed there?",
      },
      {
        user: "Yes, on leash. Mochi has never properly seen the ocean so this will be chaos.",
        assistant: "A corgi meeting the Pacific will be quite a show. Bring a long leash, a towel you don't care about, and fresh water, since dogs often try to drink seawater.",
      },
      {
        user: "I want to try surfing. Daniel has done it once in Portugal and claims he's an expert lol.",
        assistant: "A lesson is worth it the first time: instructors pick the right spot for the tide and you'll stand up much faster. Several schools in town rent wetsuits too.",
      },
      {
        user: "Booked a 2-hour beginner lesson with Swell Sisters Surf School on Saturday morning. $110 each with wetsuit.",
        assistant: "Nice. The water is cold, around 12–14°C, so the wetsuit is essential. Eat something beforehand; it's more tiring than it looks.",
      },
      {
        user: "Food-wise, any ideas? We're on a budget because camping, but one nice meal is fine.",
        assistant: "For one treat, a taco spot or fish and chips near the harbour is very Tofino. Everything else you can cook on the camp stove; foil packet potatoes and sausages are easy wins.",
      },
      {
        user: "Daniel's friend swears by Driftwood Taco Shack, the fish tacos apparently. Adding it.",
        assistant: "Fish tacos after a morning in the waves sounds like the perfect Tofino day.",
      },
      {
        user: "Last thing: the drive. We're taking the 7:30am ferry from Horseshoe Bay.",
        assistant: "Good choice. It's about 3 hours from Nanaimo to Tofino and the last stretch on Highway 4 is winding, so take breaks. Stop at Cathedral Grove on the way; Mochi will enjoy a stretch.",
      },
    ],
    summary: "Lin Mei, Daniel and Mochi are camping at Green Point near Tofino on July 24–26, taking the 7:30 am ferry from Horseshoe Bay. She booked a 2-hour beginner surf lesson with Swell Sisters Surf School ($110 each) and plans one treat meal at Driftwood Taco Shack, recommended by Daniel's friend.",
  },
  {
    id: "en14",
    date: "2026-08-21",
    time: "20:00",
    title: "week one done",
    language: "en",
    turns: [
      {
        user: "Survived week one at Tidewater! My brain is full.",
        assistant: "Congrats on getting through the first week! What's your first impression?",
      },
      {
        user: "Grace is as great as I hoped. My onboarding buddy is Omar, he's a senior designer who's been there 4 years and knows where all the bodies are buried.",
        assistant: "A buddy who knows the history is gold. Try to get coffee with him regularly for the first month; the informal context is often more useful than the docs.",
      },
      {
        user: "The app is a medication reminder for people with chronic conditions, and the current sign-up flow is honestly rough. I already see 10 things to fix.",
        assistant: "That's a good sign you can add value quickly. A common tip for new leads: keep a list of observations for the first month, but hold off on big proposals until you understand why things are the way they are.",
      },
      {
        user: "Smart, I'll keep a 'first 30 days' doc. Also the lunch situation in Gastown is dangerous. There's a place called Tin Lantern that does hand-pulled noodles and I've been twice already.",
        assistant: "Ha, a good lunch spot near the office is a real perk. Maybe keep it for in-office days so your wallet survives.",
      },
      {
        user: "The commute on the SkyTrain is so much better than driving. I read on the train now, I'm halfway through Piranesi finally.",
        assistant: "Reading on the commute is a great way to make progress on your 20-book goal. How are you liking it so far?",
      },
      {
        user: "It's so weird and so good. Xue is insufferable about being right.",
        assistant: "Sisters earn the right to be smug occasionally. Enjoy the rest of it!",
      },
      {
        user: "One problem: Mochi is alone longer on office days now, so I hired a dog walker, Sophie, Tuesdays, Wednesdays and Thursdays at noon.",
        assistant: "That's a great solution. A midday walk will make those days much easier for him; corgis need the exercise and the company.",
      },
    ],
    summary: "After her first week as Lead Designer at Tidewater, Lin Mei likes her manager Grace; her onboarding buddy is Omar, and the product is a medication reminder app for people with chronic conditions. She's found Tin Lantern for hand-pulled noodles in Gastown, is reading Piranesi on the SkyTrain, and hired Sophie to walk Mochi Tuesday to Thursday at noon.",
  },
  {
    id: "en15",
    date: "2026-09-15",
    time: "12:30",
    title: "seattle trip",
    language: "en",
    turns: [
      {
        user: "Grace is sending me to the Design Futures Summit in Seattle, Sept 29 to Oct 1! First conference on the company's dime.",
        assistant: "Nice, that's a great perk in your first couple of months. Are you speaking or just attending?",
      },
      {
        user: "Just attending, thank god. Thinking about taking the Amtrak Cascades instead of driving, it's like 4 hours.",
        assistant: "The Cascades is a lovely ride along the water, and you can work or read on the way. Give yourself extra time for the border check at Pacific Central Station.",
      },
      {
        user: "They booked me into the Alder Hotel near Pike Place. Is there anything I should see in the evenings?",
        assistant: "Around Pike Place you can wander the market in the early evening and walk down to the waterfront. The Seattle Central Library is worth a visit for the architecture alone, which as a designer you'll probably love.",
      },
      {
        user: "Ooh the library, yes. There's a session by Hana Ito on accessible health apps that's basically why I'm going.",
        assistant: "That sounds directly relevant to your medication app. Bring specific questions; speakers are often happy to chat in the hallway afterwards.",
      },
      {
        user: "Also my Nexus card expired in July and I didn't renew it, so regular border line it is.",
        assistant: "Leave some buffer then. The regular line at the station is usually manageable but can be slow. Make sure your passport is valid for the trip.",
      },
      {
        user: "Passport's good till 2031. Daniel is keeping Mochi, obviously.",
        assistant: "Then you're all set. Enjoy the summit and the library!",
      },
    ],
    summary: "Grace is sending Lin Mei to the Design Futures Summit in Seattle, September 29 to October 1; she'll take the Amtrak Cascades and stay at the Alder Hotel near Pike Place. She mainly wants to hear Hana Ito's session on accessible health apps; her Nexus card has expired but her passport is good until 2031.",
  },
  {
    id: "en16",
    date: "2026-10-06",
    time: "17:15",
    title: "car light",
    language: "en",
    turns: [
      {
        user: "The check engine light came on this morning. Car's a 2017 Honda Fit with 98,000 km. Do I need to pull over immediately?",
        assistant: "If the light is steady rather than flashing and the car drives normally, it's usually not an emergency, but get it scanned soon. A flashing light means a misfire and you should stop driving.",
      },
      {
        user: "Steady. Drives fine. I'll take it to Kingsway Tire & Auto, Marco there has been honest with me before.",
        assistant: "Going to a mechanic you trust is the best move. Most shops can read the code in a few minutes.",
      },
      {
        user: "Marco says it's the upstream oxygen sensor. $310 with labour. Does that sound right?",
        assistant: "That's a reasonable range for an O2 sensor replacement on a Fit, parts plus about an hour of labour. A faulty sensor can hurt fuel economy, so it's worth fixing.",
      },
      {
        user: "Ok I said go ahead. While it's there I asked them to swap on my winter tires too.",
        assistant: "Good timing. In BC, winter tires are required on many highways from October 1, including the Sea-to-Sky and the Coquihalla.",
      },
      {
        user: "They're Bridgestone Blizzaks, 3 seasons old. Marco says they have one more winter in them.",
        assistant: "That sounds about right. Check the tread before next fall; once they're down to about 4 mm they lose a lot of their grip in snow.",
      },
      {
        user: "Total came to $385 with the tire swap. Way better than the brakes in May, that was $460.",
        assistant: "Much gentler on the wallet! Hopefully the Fit gives you a quiet winter now.",
      },
    ],
    summary: "The check engine light came on in Lin Mei's 2017 Honda Fit (98,000 km); Marco at Kingsway Tire & Auto replaced the upstream oxygen sensor for $310. He also put on her 3-season-old Bridgestone Blizzak winter tires, for a total of $385.",
  },
  {
    id: "en17",
    date: "2026-10-14",
    time: "20:30",
    title: "book club + what to read next",
    language: "en",
    turns: [
      {
        user: "Book club update: we've been going since January and I haven't missed a single month. Rachel is shocked.",
        assistant: "That's great consistency! What's the next pick?",
      },
      {
        user: "November is Klara and the Sun. Another Ishiguro, apparently we liked The Remains of the Day so much that Rachel wants more of him.",
        assistant: "Klara and the Sun is quite different: it's narrated by an 'Artificial Friend', a robot companion watching over a sick girl and her family. It has the same quiet, restrained voice as Stevens though, so the group will probably enjoy it.",
      },
      {
        user: "Also I finished Piranesi! Best thing I've read this year. What should I pick up next if I loved it?",
        assistant: "If you loved Piranesi, try Project Hail Mary by Andy Weir for a warm, puzzle-driven story, or The Ocean at the End of the Lane by Neil Gaiman for something short and dreamlike.",
      },
      {
        user: "Project Hail Mary because Daniel already owns it. Starting tonight.",
        assistant: "Great pick. Go in knowing as little as possible; the story is best discovered as you go.",
      },
      {
        user: "Count is at 17 btw. Might actually hit 20!",
        assistant: "Three to go with two and a half months left, you're going to make it. Shorter titles in December can help if needed.",
      },
      {
        user: "Rachel's also hosting a holiday swap in December, everyone brings a wrapped book they loved. I'm bringing Piranesi obviously.",
        assistant: "Perfect choice for a swap. It might convert someone else the way your sister converted you.",
      },
    ],
    summary: "Lin Mei hasn't missed a book club meeting since January; November's pick is Klara and the Sun, another Ishiguro. She finished Piranesi and, on the assistant's suggestion, started Project Hail Mary (Daniel owns it); she's at 17 books and will bring Piranesi to Rachel's December holiday swap.",
  },
  {
    id: "en18",
    date: "2026-11-03",
    time: "21:00",
    title: "gift ideas for D",
    language: "en",
    turns: [
      {
        user: "Daniel turns 34 on November 12 and I have no gift idea. He's impossible.",
        assistant: "Let's brainstorm! What has he been into lately?",
      },
      {
        user: "Coffee, way too much. He makes pour-over every morning with a plastic cone and a regular kettle and complains about it.",
        assistant: "Then a proper pour-over setup would be something he uses every single day: a gooseneck kettle with temperature control, a nice dripper like a ceramic Hario V60, and maybe a bag of beans from a local roaster.",
      },
      {
        user: "The gooseneck kettle is genius, he keeps saying his pour is 'uncontrollable'. Which one?",
        assistant: "The Fellow Stagg EKG is the popular pick: precise temperature, a hold mode, and it looks great on a counter. If you want something cheaper, the Bonavita variable-temperature kettle is a solid workhorse.",
      },
      {
        user: "Going with the Fellow Stagg in matte black, plus beans from Moonrise Roasters. He'll be obsessed.",
        assistant: "He's going to love it. Matte black looks good in almost any kitchen.",
      },
      {
        user: "Dinner: I booked Nonna Bruna on Commercial, the Italian place with the handmade pasta. 8pm on the 12th.",
        assistant: "Sounds like a perfect evening. Handmade pasta and a new kettle, he's well taken care of.",
      },
      {
        user: "His parents are coming down from Kamloops that weekend too, so I need to clean the whole apartment lol.",
        assistant: "Ha, the classic pre-in-laws clean. Quick plan: bathroom and kitchen first, the rest can be 'lived-in cozy'.",
      },
    ],
    summary: "For Daniel's 34th birthday on November 12, Lin Mei took the assistant's suggestion of a pour-over setup and chose a matte black Fellow Stagg EKG kettle plus beans from Moonrise Roasters. She booked dinner at Nonna Bruna, an Italian place on Commercial, at 8 pm; his parents are visiting from Kamloops that weekend.",
  },
  {
    id: "en19",
    date: "2026-11-18",
    time: "10:30",
    title: "physical results",
    language: "en",
    turns: [
      {
        user: "Had my annual physical with Dr. Rao last week and the results came in. Mostly fine!",
        assistant: "Good to hear! Anything she wanted you to follow up on?",
      },
      {
        user: "Vitamin D is low, 42 nmol/L. She wants me on 2000 IU a day through the dark months.",
        assistant: "That's a very common result in a Vancouver winter, there just isn't enough sun. Taking it with a meal that has some fat helps absorption.",
      },
      {
        user: "Cholesterol and blood sugar were fine. She also gave me the flu shot while I was there.",
        assistant: "Great, that's one thing off the list. A sore arm for a day or two is normal.",
      },
      {
        user: "She asked about the eczema on my hands and I told her the dermatologist already put me on a cream. She said to keep following Dr. Chen's plan.",
        assistant: "Good that both doctors are on the same page. Consistency with the cream and moisturizer is usually what makes the difference for hands.",
      },
      {
        user: "And she updated my chart, the penicillin thing is finally flagged properly. Took them long enough.",
        assistant: "That's an important one to have on file, glad it's sorted.",
      },
      {
        user: "Next physical is November next year. I set a reminder already.",
        assistant: "Well organised! Hope the vitamin D helps with your winter energy too.",
      },
    ],
    summary: "At her annual physical with Dr. Rao, Lin Mei's vitamin D was low (42 nmol/L), so she is taking 2000 IU a day through winter; cholesterol and blood sugar were fine and she got her flu shot. Dr. Rao told her to keep following dermatologist Dr. Chen's plan for her hand eczema and flagged her penicillin allergy in her chart.",
  },
  {
    id: "en20",
    date: "2026-11-22",
    time: "16:00",
    title: "christmas plans",
    language: "en",
    turns: [
      {
        user: "We're doing something different for Christmas this year: Oaxaca! December 19 to 28.",
        assistant: "Oaxaca at Christmas is wonderful: there are posadas, the Night of the Radishes on December 23, and the food is incredible. Is it just you and Daniel?",
      },
      {
        user: "Just us. Mochi goes to Sophie's for the week, she does boarding too.",
        assistant: "Perfect, he already knows her, so it'll be less stressful for him.",
      },
      {
        user: "Night of the Radishes is real?? Adding it.",
        assistant: "Very real: people carve huge radishes into detailed scenes and display them in the zócalo. It gets busy, so go early in the evening.",
      },
      {
        user: "I want to take a cooking class there, mole specifically. Any tips?",
        assistant: "Look for a class that starts with a market visit in the morning; you'll learn about the chiles and it's half the fun. Mole negro is the famous one but takes hours, so some classes teach mole coloradito, which is quicker.",
      },
      {
        user: "Booked one with a market tour at a place called Casa de los Sabores for the 22nd. Daniel is coming too even though he can't cook.",
        assistant: "That'll be a great memory. He can be in charge of grinding, there's usually plenty of it.",
      },
      {
        user: "Also Xue asked me to bring back mezcal for her husband. Is that allowed in luggage?",
        assistant: "Yes, in checked luggage. Canada's personal exemption after 48 hours away is 1.5 L of wine or 1.14 L of liquor; beyond that you pay duty. Wrap bottles well in clothes.",
      },
      {
        user: "1.14 L, got it. One nice bottle then.",
        assistant: "One nice bottle it is. Have an amazing Christmas in Oaxaca!",
      },
    ],
    summary: "Lin Mei and Daniel will spend Christmas in Oaxaca, December 19–28, while Mochi boards with Sophie. She booked a mole cooking class with a market tour at Casa de los Sabores on the 22nd and plans to bring one bottle of mezcal back for Xue's husband (liquor exemption 1.14 L).",
  },
];
