#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Generate bench/data/group_en.json and group_zh.json: multi-speaker group chats.

All dialogue and question text in this file is original, written for the chatmem
project (same licence as the project). Nothing is copied from an existing dataset.

Usage:
    python3 bench/data/make_group.py     # writes group_en.json, group_zh.json

Each conversation is ONE group chat (3-5 human members plus the bot) kept as one
long session over 10+ days, as zh_chat keeps its group sessions; members talk to
each other and sometimes to the bot (``@Assistant`` / ``@小助手``). The questions
are what one member asks in the group after the last day ("who offered to ...",
"what did X say about ...").

Text format of a conversation:
    == 2026-03-02 20:15   a new day (same session); the clock jumps here
    tom: content          a message by member ``tom``; the next one 0.5-4 minutes later
    bot: content #label  a bot message; " #label" names it for the questions
``@Name`` in a message becomes a mention of that member (``@Assistant``/``@小助手`` = bot).
Questions: (asker, question, [gold labels], type, [stale labels]). ``update``
questions ask for the current state; their gold is the newer statement and
``stale`` the older one(s) it replaced.
"""
import random
import re
from datetime import datetime, timedelta

from _sets import BOT, DAY_RE, QTYPES, TZ, build_set, write_set

_LINE_RE = re.compile(r"^([a-z][a-z0-9_]*): (.+?)(?:\s+#([a-z][a-z0-9_]*))?$")
SETS = {"en": [], "zh": []}


def conv(lang, cid, platform, group_name, members, text, questions):
    """``members``: {key: display name}; the speaker id is ``u_<key>``."""
    SETS[lang].append((cid, platform, group_name, members, text, questions))


def _mentions(content, names):
    out = []
    for i in [m.start() for m in re.finditer("@", content)]:
        hit = [sid for name, sid in names.items() if content.startswith(name, i + 1)]
        if not hit:
            raise ValueError(f"unknown mention in {content!r}")
        out.append(max(hit, key=lambda s: len(next(n for n, v in names.items() if v == s))))
    return out


def build_conv(lang, cid, platform, group_name, members, text, questions):
    rng = random.Random(cid)
    sid = f"{cid}-g1"
    ids = {k: f"u_{k}" for k in members}
    ids["bot"] = "bot"
    shown = {**members, "bot": BOT[lang]}
    names = {shown[k]: ids[k] for k in shown}
    labels, msgs, cur, days, spoke = {}, [], None, 0, set()
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        m = DAY_RE.match(line)
        if m:
            new = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M")
            if cur is not None and new.date() <= cur.date():
                raise ValueError(f"{cid}: day does not go forward at {line}")
            cur, days = new, days + 1
            continue
        m = _LINE_RE.match(line)
        if not m or cur is None:
            raise ValueError(f"{cid}: bad line {line!r}")
        who, content, label = m.groups()
        if who not in shown:
            raise ValueError(f"{cid}: unknown speaker {who!r}")
        cur += timedelta(seconds=rng.randint(30, 240))
        spoke.add(who)
        mid = f"{sid}-{len(msgs) + 1:03d}"
        msgs.append({"id": mid, "ts": cur.strftime("%Y-%m-%dT%H:%M:%S") + TZ[lang],
                     "role": "assistant" if who == "bot" else "user",
                     "speaker_id": ids[who], "speaker_name": shown[who],
                     "content": content, "mentions": _mentions(content, names)})
        if label:
            if label in labels:
                raise ValueError(f"{cid}: duplicate label {label}")
            labels[label] = mid
    if days < 10:
        raise ValueError(f"{cid}: {days} days, want 10+")
    if not 3 <= len(members) <= 5 or spoke != set(shown):
        raise ValueError(f"{cid}: members {sorted(members)}, spoke {sorted(spoke)}")
    out_q = []
    for asker, qtext, golds, qtype, stale in questions:
        if qtype not in QTYPES or (qtype == "update") != bool(stale):
            raise ValueError(f"{cid}: {qtype} with stale {stale}: {qtext}")
        if not golds or (qtype == "multi_hop" and len(golds) != 2):
            raise ValueError(f"{cid}: {qtype} with {len(golds)} golds: {qtext}")
        missing = [g for g in [*golds, *stale] if g not in labels]
        if missing:
            raise KeyError(f"{cid}: unknown label(s) {missing}")
        if asker not in members:
            raise ValueError(f"{cid}: asker {asker!r} is not a member")
        q = {"conversation": cid, "asker_id": ids[asker], "session": sid,
             "question": qtext, "gold": [labels[g] for g in golds], "type": qtype}
        if stale:
            if any(labels[s] >= labels[g] for s in stale for g in golds):
                raise ValueError(f"{cid}: stale not older than gold: {qtext}")
            q["stale"] = [labels[s] for s in stale]
        out_q.append(q)
    speakers = [{"id": ids[k], "name": shown[k]} for k in [*members, "bot"]]
    session = {"id": sid, "platform": platform, "chat_type": "group", "group_id": "g1",
               "group_name": group_name, "messages": msgs}
    return {"id": cid, "speakers": speakers, "sessions": [session]}, out_q


def build(lang):
    return build_set(SETS[lang], lang, build_conv, "g" + lang)


# ---------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------
conv("en", "ge01", "telegram", "Peak Baggers 🥾",
     {"tom": "Tom", "lena": "Lena", "marco": "Marco", "jess": "Jess"}, """
== 2026-05-04 19:05
tom: ok people, the long weekend in June. are we actually doing the Highlands trip or not
jess: YES. I've been waiting all winter
marco: in. as long as nobody makes me camp in the rain again
lena: I'm in too but I'm flying in from Lisbon so I need dates soon #lena_lisbon
tom: let's say Friday 12 June to Monday 15 June #dates_first
jess: works for me
marco: same
== 2026-05-06 20:30
tom: found a cabin near Aviemore, sleeps 6, wood stove, £140 a night #cabin_find
jess: that looks cosy. is there a drying room? boots get soaked up there
tom: yes, and a sauna shed lol
marco: sold
lena: @Tom can you book it before someone else does
tom: booking now, I'll split the cost later #cabin_booked
== 2026-05-08 12:15
lena: booked my flight! TAP from Lisbon, lands Edinburgh Thursday 11 June at 21:40 #lena_flight
marco: I can pick you up, I'm driving up from Leeds anyway #marco_pickup
lena: @Marco you're a legend
jess: @Assistant what's a good day hike near Aviemore for mixed fitness, 4 people
bot: For mixed fitness, Meall a' Bhuachaille is a good pick: about 11 km, 600 m of climbing, clear path, great views over Loch Morlich, and you can cut it short at Ryvoan bothy if someone is tired #bot_hike
jess: perfect, Marco will complain but he'll survive
marco: I heard that
== 2026-05-11 18:40
jess: food plan? I vote we cook most nights, eating out up there is pricey
tom: I'll bring my camp stove and the big pot for the hike lunch #tom_stove
marco: I can do a big chilli on the first night, my mum's recipe #marco_chilli
lena: I'll bring pastéis de nata from Lisbon if they survive the flight
jess: I'll handle breakfasts, porridge and eggs #jess_breakfast
tom: deal
== 2026-05-13 21:10
marco: random but the new ramen place in Leeds, Kokoro, is unreal. the tonkotsu 🤤 #marco_ramen
jess: you always find these places. in Glasgow the best thing I've had lately is the tacos at Calle Verde #jess_tacos
tom: stop, I'm hungry
lena: Lisbon wins, sorry. grilled sardines season is coming
== 2026-05-16 10:20
tom: bad news, the cabin owner messaged. a pipe burst, Friday night is off #cabin_problem
jess: oh no
tom: she offered Saturday 13 to Tuesday 16 instead, same price #dates_moved
marco: I can do Tuesday, I'll take a day off
lena: my flight is Thursday though… I'd have two nights to fill
tom: I'll ask if we can keep Monday as the last night instead, one sec
tom: ok confirmed: Saturday 13 to Monday 15, 2 nights, she knocked £20 off each night #dates_final
jess: good save Tom
== 2026-05-17 11:45
lena: so what do I do on Friday
jess: come stay with me in Glasgow Friday night, I'll show you Calle Verde #lena_glasgow
lena: omg yes
marco: then I'll pick you both up in Glasgow on Saturday morning instead of the airport #marco_pickup_change
== 2026-05-20 22:00
marco: @Assistant how much should we each pay for the cabin if it's 2 nights at £120 and 4 of us
bot: 2 nights × £120 = £240, split between 4 people that's £60 each #bot_split
tom: @Marco @Jess @Lena send me 60 each when you can
jess: sent 💸
lena: sent!
marco: will do on payday friday
== 2026-05-24 17:30
jess: weather check: looks like showers on Sunday, dry Saturday
tom: then hike Saturday, and do the Loch an Eilein walk on Sunday, it's flat and sheltered #swap_hike_day
marco: fine by me
lena: @Assistant what should I pack for Scottish weather in June, I only own sun clothes
bot: Layers: a thin base layer, a fleece, a waterproof jacket with a hood, quick-dry trousers, and a warm hat. Waterproof boots and two pairs of wool socks. Midge repellent is a must in June #bot_pack
lena: midges?? what are midges
jess: tiny biting flies. you will learn to hate them
== 2026-05-27 19:10
marco: bad news from my side, my car failed its MOT #car_mot
tom: ugh. can it be fixed in time?
marco: garage says brake pads and a tyre, ready Wednesday 10 June. tight but fine #car_fixed_date
jess: if not we rent something
marco: I'll let you know
== 2026-06-01 20:15
jess: got my new boots, Salomon, breaking them in on the commute #jess_boots
lena: I bought a waterproof jacket, bright yellow so you can find me in the fog
tom: I bought midge nets for everyone, £3 each, very fashionable #midge_nets
marco: love you Tom
== 2026-06-05 21:30
tom: update on cabin: check-in from 4pm, key is in a lockbox, code 2741 #lockbox
jess: noted
marco: my car is back early, new tyres and all #car_back
lena: can't wait!!
== 2026-06-08 18:50
jess: one thing, I'm vegetarian now, Marco is the chilli meat? #jess_veggie
marco: I'll make a bean version too, no stress #marco_bean
jess: thank you ❤️
tom: I'll bring the Bluetooth speaker and the playing cards #tom_speaker
lena: I'll learn a card game on the plane
== 2026-06-10 22:05
tom: final check, anyone need anything from me before the trip?
marco: nope, car packed already
lena: packing now, the jacket barely fits the suitcase
jess: see you all Saturday!! 🏔️
""", [
    ("jess", "which nights did we end up keeping the cabin for", ["dates_final"], "update",
     ["dates_first", "dates_moved"]),
    ("tom", "where was Lena flying in from", ["lena_lisbon"], "paraphrase", []),
    ("marco", "what time does Lena's plane get in", ["lena_flight"], "paraphrase", []),
    ("tom", "who is collecting Lena and from where", ["marco_pickup_change"], "update",
     ["marco_pickup"]),
    ("lena", "what walk did the bot suggest for a group with different fitness levels",
     ["bot_hike"], "paraphrase", []),
    ("jess", "who said they'd bring something to cook on for the hike", ["tom_stove"],
     "paraphrase", []),
    ("lena", "who's doing the first dinner and what is it", ["marco_chilli"], "paraphrase",
     []),
    ("tom", "who's in charge of the morning meals", ["jess_breakfast"], "paraphrase", []),
    ("lena", "what was the noodle place Marco was raving about", ["marco_ramen"], "paraphrase",
     []),
    ("lena", "which Glasgow place did Jess like for Mexican food", ["jess_tacos"], "lexical",
     []),
    ("jess", "why did the owner cancel our first night", ["cabin_problem"], "paraphrase", []),
    ("lena", "how much do I owe for the cabin", ["bot_split"], "paraphrase", []),
    ("marco", "what clothes did the bot say to bring for the weather", ["bot_pack"],
     "paraphrase", []),
    ("jess", "which day are we doing the big hill walk, given the forecast", ["swap_hike_day"],
     "paraphrase", []),
    ("tom", "what was wrong with Marco's car and when was the garage going to have it done",
     ["car_fixed_date"], "temporal", []),
    ("jess", "what's the code to get the cabin key", ["lockbox"], "lexical", []),
    ("lena", "who got the anti-midge things and what did they cost", ["midge_nets"], "lexical",
     []),
    ("tom", "how is Marco handling the chilli now that Jess doesn't eat meat", ["marco_bean"],
     "paraphrase", []),
    ("marco", "who's bringing music and the cards", ["tom_speaker"], "paraphrase", []),
    ("jess", "what does the cabin near Aviemore have besides the wood stove", ["cabin_find"],
     "lexical", []),
    ("tom", "how many days after Lena's plane lands does our stay at the cabin begin",
     ["lena_flight", "dates_final"], "multi_hop", []),
])


conv("en", "ge02", "discord", "pixel-garden #general",
     {"nora": "Nora", "ben": "Ben", "kai": "Kai", "olu": "Olu"}, """
== 2026-02-02 20:00
nora: alright team, the hackathon demo day is confirmed, Thursday 26 February at 6pm #demo_first
ben: that's soon. are we still calling the app Sprout? #name_sprout
kai: I still think Seedling is better #name_seedling
olu: let's vote on Friday, not now
nora: fine. main thing: the plant watering reminder has to work end to end by demo day
== 2026-02-04 21:15
kai: @Assistant what hosting would you suggest for a small Node backend plus Postgres, free or cheap
bot: For a small Node app with Postgres, Render or Railway are the easiest: deploy from GitHub, managed Postgres, and a free or ~$5/month tier. Fly.io is cheaper at scale but takes more setup #bot_hosting
kai: Railway it is then, I've used it before #kai_railway
ben: ok I'll wire the push notifications, Firebase #ben_push
== 2026-02-06 19:30
olu: voting time: Sprout or Seedling
ben: Sprout
nora: Seedling
kai: Seedling obviously
olu: Seedling wins 3 to 1, sorry Ben #name_vote
ben: 😤 fine
== 2026-02-09 22:40
nora: heads up, I'm away 14 to 18 February, my cousin's wedding in Lagos #nora_away
olu: oh nice! which day is the wedding itself
nora: Saturday the 14th, then family stuff #nora_wedding
kai: we'll survive without you for a few days
== 2026-02-11 18:05
ben: push notifications work on Android, iOS is fighting me #ben_android
kai: the API is up on Railway, staging url is in the pinned message #api_up
olu: I redid the onboarding screens, the watering can animation is cute now #olu_onboarding
nora: amazing work all
== 2026-02-13 20:20
olu: the organisers emailed: demo day moved to Saturday 28 February, 2pm, because the venue double-booked #demo_moved
ben: more time for iOS, I'll take it
kai: who's presenting?
nora: Olu, you're the best talker #olu_presents
olu: ok but someone else does the live demo
kai: I'll drive the live demo, I know the backend if it breaks #kai_demo
== 2026-02-16 21:00
ben: iOS push works!! it was a certificate thing the whole time #ben_ios
kai: @Ben legend
olu: @Assistant can you remind me what a good length is for a hackathon pitch
bot: Most hackathon pitches are 3 to 5 minutes. A common shape: 30 seconds problem, 1 minute demo setup, 2 minutes live demo, 30 seconds what's next, leave time for questions #bot_pitch
olu: 3 minutes it is, tight
== 2026-02-18 20:10
kai: anyone watching the Six Nations this weekend
ben: Scotland v Wales, I'm going to the pub for it
olu: I'll be at my sister's, she's moving flat, I promised to drive the van #olu_sister
kai: I'm skipping, I need to write the README and the demo script #kai_readme
ben: @Kai put the staging password in 1Password, not in the README please #ben_password
kai: yes yes
== 2026-02-19 19:45
nora: back from Lagos! the wedding was beautiful, I ate too much jollof
kai: welcome back. small problem, Railway free tier is running out of hours #railway_limit
ben: can we pay? it's like $5
nora: I'll put it on my card, send me the invoice #nora_pays
== 2026-02-21 20:30
olu: do we have a projector? the organisers say bring your own screen or projector #projector_needed
ben: I have a small Anker projector, I'll bring it and an HDMI cable #ben_projector
kai: I'll bring a spare laptop in case mine dies #kai_laptop
nora: and I'll print a few flyers with the QR code
== 2026-02-23 22:10
kai: found a bug: reminders fire twice if you change the timezone #tz_bug
ben: classic
kai: fixed, it was the cron job not checking the last sent time #tz_fix
nora: nice catch
== 2026-02-24 18:00
nora: food for demo day? pizza from Pinocchio's is near the venue #nora_pizza
ben: Pinocchio's is mid. Dough Bros does sourdough slices and it's the same distance #ben_pizza
olu: Dough Bros, I'm with Ben
nora: fine, Dough Bros, I'll order on the day #pizza_final
== 2026-02-26 21:15
olu: rehearsal went ok, 3 minutes 20 seconds, need to cut a bit
kai: cut the slide about the market size, nobody cares
olu: harsh but true
ben: @Assistant what do we need to bring for demo day, can you list it
bot: From this chat: Ben brings the projector and HDMI cable, Kai a spare laptop and runs the live demo, Nora the flyers with the QR code and the pizza order, Olu gives the pitch #bot_list
== 2026-02-27 20:00
nora: one more change, the judges want the demo on the venue's own screen, so the projector is optional now #projector_optional
ben: I'll bring it anyway, just in case
kai: I'll update the staging data tonight so the demo has real plants
olu: ok last rehearsal 2:59 😎
""", [
    ("kai", "when is demo day now", ["demo_moved"], "update", ["demo_first"]),
    ("ben", "what name did we pick for the app in the end", ["name_vote"], "update",
     ["name_sprout"]),
    ("olu", "what did the bot recommend for putting our backend online", ["bot_hosting"],
     "paraphrase", []),
    ("ben", "which provider did Kai go with for hosting", ["kai_railway"], "lexical", []),
    ("kai", "why was Nora away in February", ["nora_away"], "paraphrase", []),
    ("ben", "which day was Nora's cousin getting married", ["nora_wedding"], "temporal", []),
    ("nora", "who offered to bring the projector", ["ben_projector"], "lexical", []),
    ("olu", "who is running the live part of the demo", ["kai_demo"], "paraphrase", []),
    ("ben", "who did we pick to do the talking on stage", ["olu_presents"], "paraphrase", []),
    ("olu", "what was the problem with iOS notifications in the end", ["ben_ios"],
     "paraphrase", []),
    ("nora", "how long did the bot say a pitch should be", ["bot_pitch"], "paraphrase", []),
    ("kai", "who is paying for the server once the free plan ran out", ["nora_pays"],
     "paraphrase", []),
    ("nora", "what caused the double reminders bug", ["tz_fix"], "paraphrase", []),
    ("olu", "which pizza place are we getting food from on the day", ["pizza_final"], "update",
     ["nora_pizza"]),
    ("nora", "what did Ben say about Pinocchio's", ["ben_pizza"], "lexical", []),
    ("kai", "what did Olu change in the onboarding", ["olu_onboarding"], "paraphrase", []),
    ("ben", "do we still need a projector for the demo", ["projector_optional"], "update",
     ["projector_needed"]),
    ("nora", "who's bringing a backup computer", ["kai_laptop"], "paraphrase", []),
    ("kai", "what was Olu doing the rugby weekend", ["olu_sister"], "paraphrase", []),
    ("nora", "where did Ben want the login for the test server kept", ["ben_password"],
     "paraphrase", []),
    ("olu", "when did we get the message that push notifications worked on Android",
     ["ben_android"], "temporal", []),
    ("kai", "Nora came back from the wedding — how many days before demo day was that",
     ["demo_moved", "nora_away"], "multi_hop", []),
])


conv("en", "ge03", "telegram", "Flat 4B 🏠",
     {"anna": "Anna", "jonas": "Jonas", "felix": "Felix"}, """
== 2026-09-01 18:30
anna: welcome to the flat chat! rent is due on the 3rd of each month, I transfer it all to the landlord #rent_due
jonas: how much is each share again
anna: £1,950 total, the big room pays £700, the two small ones £625 #rent_split
felix: I'm in the big room so £700 from me
jonas: cool
== 2026-09-03 21:00
felix: the boiler is making a knocking noise again
anna: I'll message Mr Patel, the landlord #landlord_name
anna: he says a plumber comes Tuesday 8 September between 9 and 12 #plumber_first
jonas: I'm home Tuesday morning, I'll let him in #jonas_plumber
== 2026-09-05 11:20
jonas: @Assistant can you suggest a simple cleaning rota for 3 people, kitchen, bathroom, hallway and bins
bot: A weekly rotation works well: week 1 Anna kitchen, Jonas bathroom, Felix hallway and bins; then everyone shifts one job each Monday. Put it on the fridge so nobody argues #bot_rota
felix: fridge it is
anna: I'll print it #anna_print
== 2026-09-07 20:45
anna: plumber moved it, now Thursday 10 September, afternoon 2 to 5 #plumber_moved
jonas: I'm at work Thursday afternoon
felix: I'm working from home Thursday, I'll be around #felix_plumber
anna: thanks @Felix
== 2026-09-10 17:50
felix: plumber came, it was air in the pipes, he bled the radiators and it's quiet now #boiler_fixed
anna: finally
jonas: he also said the boiler is 14 years old, might need replacing next year #boiler_old
== 2026-09-12 13:10
jonas: our internet is awful, 20 Mbps on a good day
anna: switch? Hyperoptic does 150 for £25 a month in our building #anna_hyperoptic
felix: my friend has Community Fibre, 500 for £28, also available here #felix_cf
jonas: @Assistant which is better value, 150 Mbps for £25 or 500 Mbps for £28
bot: 500 Mbps for £28 is much better value per megabit: about 5.6p per Mbps versus about 16.7p. For three people streaming and working from home, the faster plan is worth the extra £3 #bot_internet
anna: ok Community Fibre then, I'll sign up #internet_choice
== 2026-09-15 19:30
felix: my parents are visiting 2 to 4 October, is it ok if they stay in my room and I take the sofa #felix_parents
anna: of course
jonas: totally fine, I'll clean the bathroom properly lol
== 2026-09-19 22:05
jonas: housewarming party? we never did one
anna: yes! Saturday 26 September? #party_first
felix: I'm in, I'll make my sangria #felix_sangria
jonas: I'll do a playlist and borrow speakers from work #jonas_speakers
== 2026-09-22 18:15
anna: neighbour downstairs, Mrs Okoye, asked us to keep noise down after 11 on weeknights, she starts work at 6 #neighbour
jonas: fair, party is a Saturday anyway
felix: let's invite her to the party, she seemed nice #invite_neighbour
== 2026-09-24 20:00
anna: bad news, I have to work Saturday, big deadline. can we do the party Saturday 3 October instead? #party_clash
felix: the 3rd is when my parents are here 😅 #party_parents_clash
jonas: Friday 9 October then? #party_final
anna: perfect, Friday 9th it is #party_confirm
felix: works, parents will be gone
== 2026-09-26 14:30
jonas: my bike got stolen from the hallway downstairs 😡 #bike_stolen
anna: oh no! did you report it?
jonas: yes, police gave me a crime number, for the insurance
felix: we should ask Mr Patel for a bike rack in the back yard #bike_rack
anna: I'll email him tonight
jonas: thanks, I'm on the bus until I sort a new one
felix: there's a shop on Kingsland Road doing second-hand bikes, got mine there #felix_bikeshop
== 2026-09-28 21:30
jonas: internet installed, 480 on the speed test 🚀 #internet_done
felix: I can finally game
anna: rent is going up by the way, Mr Patel emailed: £2,040 from November #rent_rise
jonas: ugh how much more each
anna: @Assistant if the total goes from £1,950 to £2,040, how much more does each of us pay if we split the increase equally
bot: The increase is £90, split three ways that's £30 more each: £730 for the big room and £655 for each small room #bot_rent
== 2026-10-02 16:00
felix: parents arrived, they brought way too much food, help yourselves to the lasagne #parents_food
anna: your mum's lasagne is elite
jonas: already had two pieces
== 2026-10-06 19:20
anna: who took my oat milk 👀
jonas: guilty, I finished the oat milk, I'll buy two tomorrow #oat_milk
felix: we need a shared shopping list
anna: I made one on Google Keep, link in the pinned message #shopping_list
== 2026-10-08 20:40
felix: party shopping: I'll get ice and cups #felix_ice
jonas: I've got the speakers from work, borrowed till Monday #speakers_got
anna: I'll make a cheese board. Mrs Okoye said she'll come for an hour #okoye_coming
felix: nice!
""", [
    ("jonas", "what day is the housewarming now", ["party_final", "party_confirm"],
     "update", ["party_first", "party_clash"]),
    ("felix", "when did the plumber finally come for the boiler", ["plumber_moved", "boiler_fixed"],
     "update", ["plumber_first"]),
    ("jonas", "who was going to be home to open the door for the plumber in the end",
     ["felix_plumber"], "update", ["jonas_plumber"]),
    ("felix", "how much will I pay for my room after the increase", ["bot_rent"], "update",
     ["rent_split"]),
    ("jonas", "what was actually wrong with the boiler", ["boiler_fixed"], "paraphrase", []),
    ("anna", "what did the plumber say about how old the boiler is", ["boiler_old"],
     "paraphrase", []),
    ("felix", "how did the bot suggest we share the chores", ["bot_rota"], "paraphrase", []),
    ("jonas", "what's our landlord called", ["landlord_name"], "paraphrase", []),
    ("anna", "which internet deal did Felix's friend have", ["felix_cf"], "paraphrase", []),
    ("felix", "what did Anna say about Hyperoptic", ["anna_hyperoptic"], "lexical", []),
    ("anna", "why did the bot think the faster broadband was the better deal",
     ["bot_internet"], "paraphrase", []),
    ("jonas", "when are Felix's mum and dad staying", ["felix_parents"], "paraphrase", []),
    ("anna", "what's Felix making for drinks at the party", ["felix_sangria"], "paraphrase",
     []),
    ("felix", "who is sorting out the music", ["jonas_speakers"], "paraphrase", []),
    ("jonas", "what did the woman downstairs ask us", ["neighbour"], "paraphrase", []),
    ("felix", "what speed did we get after the new internet was put in", ["internet_done"],
     "paraphrase", []),
    ("jonas", "when does the new rent start", ["rent_rise"], "temporal", []),
    ("anna", "where's the list of things to buy", ["shopping_list"], "paraphrase", []),
    ("felix", "who drank Anna's oat milk", ["oat_milk"], "lexical", []),
    ("jonas", "where did Felix get his used bike", ["felix_bikeshop"], "paraphrase", []),
    ("anna", "why couldn't we have the party on 3 October", ["party_parents_clash"],
     "paraphrase", []),
    ("felix", "how many days after my parents leave is the party", ["felix_parents",
     "party_final"], "multi_hop", []),
])


conv("en", "ge04", "whatsapp", "Eze family 💛",
     {"grace": "Grace", "peter": "Peter", "chidi": "Chidi", "ada": "Ada", "uncle": "Uncle Emeka"},
     """
== 2026-07-06 08:15
grace: Good morning family. Grandma turns 80 on 22 August, we are doing something big #grandma_80
chidi: finally a party 🎉
ada: I'm in Toronto till August, I need to book flights early #ada_toronto
peter: Let's do a lunch on Saturday 22 August, at the Royal Oak function room #venue_first
uncle: I will bring the drummers from church, she loves them #uncle_drummers
== 2026-07-08 19:40
ada: @Assistant what would be a meaningful gift for an 80 year old grandma who loves gardening and old photos
bot: A photo book of her life, with pictures collected from the family and a short note from each grandchild, is usually the most treasured. For gardening, a raised planter bed she can reach without bending, with her favourite herbs #bot_gift
ada: the photo book is perfect
chidi: I'll scan the old albums at Dad's place #chidi_scan
grace: I have the wedding photos, I'll send them to you Chidi
== 2026-07-11 12:30
ada: booked! Air Canada Toronto to Heathrow, landing Wednesday 19 August 07:05 #ada_flight
peter: I'll pick you up at Heathrow #peter_pickup
ada: @Peter thank you Daddy
chidi: I have work that day or I'd come
== 2026-07-14 21:10
grace: The Royal Oak quoted £45 per head for lunch, with 40 guests that is a lot #royal_oak_price
uncle: too expensive. Mama Cass on the high street does jollof and suya trays for 40 for £600 #uncle_mamacass
chidi: or Tasty Bites in Croydon, I had their small chops at a wedding, very good #chidi_tastybites
peter: @Assistant what is 45 times 40
bot: £45 × 40 guests = £1,800 #bot_price
peter: ah. that decides it
== 2026-07-17 18:00
grace: we will have it at home in the garden instead, and Mama Cass will cater #venue_home
peter: I'll hire a gazebo in case of rain #peter_gazebo
ada: love that, more personal
== 2026-07-21 20:20
chidi: album scanning is going slowly, 300 photos done #chidi_300
grace: my hands are slow these days but I wrote my message for the book
uncle: I can't find the photo from her 50th. Chidi do you have it
chidi: yes, the one with the red gele, it's scanned #red_gele
== 2026-07-24 18:20
peter: my knee appointment is on 3 September, the doctor wants an X-ray first #peter_knee
grace: finally, you've been limping for months
chidi: take it easy at the party then Dad, no dancing
peter: we'll see 😄
ada: I baked a chocolate cake for my flatmate's birthday yesterday, it collapsed in the middle 😭 #ada_choc
chidi: still ate it I bet
ada: obviously
== 2026-07-26 10:05
grace: Grandma's doctor said no spicy food for her this month, her stomach is sensitive #grandma_diet
uncle: but jollof without pepper is a crime 😂
grace: Mama Cass can do a mild tray just for her #mild_tray
== 2026-07-30 22:30
ada: bad news, Air Canada changed my flight. Now Thursday 20 August, landing 13:50 #ada_flight_changed
peter: no problem, I'm on leave that week, I'll still get you #peter_pickup_again
chidi: I'll come too, it's my day off
== 2026-08-04 19:00
peter: gazebo booked from Party Hire Plus, £90 for the weekend, delivered Friday 21st #gazebo_booked
grace: Good. Who is making the cake
chidi: Ada bakes the best cakes
ada: I'll bake it when I arrive, a lemon drizzle, her favourite #ada_cake
== 2026-08-09 16:45
uncle: The drummers cannot come on the 22nd, they have a wedding #drummers_cancel
grace: oh no
uncle: but my friend Kelechi plays the saxophone, he will come instead #sax_instead
chidi: even better honestly
== 2026-08-12 20:10
chidi: photo book is at the printer, ready on 18 August #book_printer
ada: can't wait to see it
grace: @Assistant please remind us what we still need to do for Grandma's party
bot: From this chat: Chidi collects the photo book on 18 August, Ada bakes the lemon drizzle cake, the gazebo arrives Friday 21st, Mama Cass caters with a mild tray for Grandma, and Kelechi plays the saxophone #bot_todo
== 2026-08-16 09:30
peter: weather says sunny on Saturday, we may not even need the gazebo
grace: Keep it anyway, for shade. Grandma can't sit in the sun #gazebo_shade
uncle: I will bring 20 folding chairs from church #uncle_chairs
ada: packing! see you all Thursday ✈️
== 2026-08-19 21:00
chidi: picked up the photo book, it's beautiful, 48 pages #book_collected
grace: I cried looking at the proofs
uncle: Kelechi confirmed, he will play from 1pm until the cake #kelechi_time
peter: gazebo people called, they deliver Friday morning between 8 and 10 #gazebo_delivery
grace: someone has to be home for it
chidi: I'll be there, I'm off Friday #chidi_gazebo
""", [
    ("chidi", "where is Grandma's birthday lunch happening now", ["venue_home"], "update",
     ["venue_first"]),
    ("peter", "when does Ada's plane land", ["ada_flight_changed"], "update", ["ada_flight"]),
    ("ada", "who is playing music at the party now", ["sax_instead"], "update",
     ["uncle_drummers"]),
    ("ada", "what did the bot suggest we give Grandma", ["bot_gift"], "paraphrase", []),
    ("grace", "who is digitising the old family pictures", ["chidi_scan"], "paraphrase", []),
    ("chidi", "how much would the pub have cost us for everyone", ["bot_price"],
     "paraphrase", []),
    ("grace", "what did Chidi say about Tasty Bites", ["chidi_tastybites"], "lexical", []),
    ("ada", "which caterer did Uncle Emeka suggest and for how much", ["uncle_mamacass"],
     "paraphrase", []),
    ("uncle", "what did the doctor say about Grandma's food", ["grandma_diet"], "paraphrase",
     []),
    ("ada", "what are we doing about Grandma's food being less spicy", ["mild_tray"],
     "paraphrase", []),
    ("chidi", "who's renting the tent and how much was it", ["gazebo_booked"], "paraphrase",
     []),
    ("grace", "what kind of cake is Ada making", ["ada_cake"], "paraphrase", []),
    ("peter", "why did the church drummers pull out", ["drummers_cancel"], "paraphrase", []),
    ("ada", "which picture from Grandma's 50th did Uncle Emeka ask about", ["red_gele"],
     "paraphrase", []),
    ("uncle", "when can we pick up the book from the printer", ["book_printer"], "temporal",
     []),
    ("chidi", "how many seats is Uncle Emeka bringing", ["uncle_chairs"], "paraphrase", []),
    ("peter", "why does Mum want the gazebo even if it's sunny", ["gazebo_shade"],
     "paraphrase", []),
    ("grace", "how many photos had Chidi scanned by late July", ["chidi_300"], "temporal", []),
    ("chidi", "until when was Ada staying in Toronto", ["ada_toronto"], "lexical", []),
    ("ada", "what time does the saxophonist start playing", ["kelechi_time"], "paraphrase",
     []),
    ("grace", "when is Peter seeing the doctor about his knee", ["peter_knee"], "lexical",
     []),
    ("chidi", "how many days before Grandma's party does Ada arrive", ["ada_flight_changed",
     "grandma_80"], "multi_hop", []),
])


# ---------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------
conv("zh", "gz01", "wechat", "毕业十年聚一聚",
     {"wang": "小王", "qiang": "阿强", "li": "老李", "ting": "婷婷"}, """
== 2026-04-06 21:00
wang: 兄弟姐妹们，毕业十年了，五一去厦门聚一下？
ting: 好啊好啊！我举双手赞成
qiang: 我看看排班，应该能请到假
li: 厦门好，我定了，五一那几天都行
wang: 那就5月1号到4号，四天三晚 #dates_first
== 2026-04-08 20:30
ting: @小助手 厦门四天怎么玩比较合适，不想太累
bot: 可以第一天逛中山路和沙坡尾，第二天上鼓浪屿（船票要提前在官方小程序抢），第三天环岛路骑车加曾厝垵，第四天睡到自然醒再去南普陀 #bot_route
ting: 鼓浪屿船票要抢？
bot: 五一期间很紧张，一般提前七天放票，早上开抢 #bot_ferry
li: 抢票交给我，我手快 #li_ferry
== 2026-04-10 22:10
qiang: 假批下来了！我从成都飞，川航3U8xxx，5月1号中午12点20到高崎 #qiang_flight
wang: 我开车去机场接你 #wang_pickup
qiang: 靠谱
== 2026-04-13 19:45
li: 住的地方我看了一个民宿，在曾厝垵，两室一厅，一晚680 #bnb_first
ting: 有点远吧，中山路那边方便点
wang: 我同事推荐过一家，叫「海岸线」，在沙坡尾，能看海，一晚720 #wang_bnb
li: 那就海岸线吧，我去订 #bnb_final
== 2026-04-15 12:10
ting: 吃的我来做攻略，沙茶面一定要吃！ #ting_food
wang: 我上次出差吃过一家沙茶面叫「阿杰沙茶面」，在八市旁边，汤底绝了 #wang_shacha
qiang: 我朋友说「吴记海蛎煎」也不错 #qiang_oyster
li: 我只关心有没有啤酒 [doge]
ting: 有的有的，老李你放心
== 2026-04-17 22:40
qiang: 你们还记得大三那次去鼓浪屿吗，老李把钱包丢在渡轮上 [捂脸]
li: 别提了，那次还是婷婷借我钱回的学校
ting: 哈哈哈哈你还欠我一杯奶茶
li: 这次去厦门请你喝两杯 #li_owes
wang: 我作证
qiang: 截图了
== 2026-04-18 21:30
li: 坏消息，我们公司五一要值班，1号走不了 #li_duty
ting: 啊？？那怎么办
li: 最早2号早上出发，下午能到
wang: 那要不整体往后挪一天，2号到5号？ #dates_moved
qiang: 我机票都买了……改签要手续费
wang: 阿强你先到一天，我陪你，老李和婷婷2号来 #plan_split
ting: 我也可以1号到，我坐高铁 #ting_train
== 2026-04-20 20:00
wang: 民宿我打电话问好了，还是1号到4号不变，老李2号再入住就行 #bnb_kept
qiang: 那还是4号走？
wang: 对，4号下午退房 #checkout
== 2026-04-22 18:40
li: 鼓浪屿票抢到了！5月3号上午9点半那班，四张 #ferry_got
ting: @老李 yyds
qiang: 6666
== 2026-04-24 21:15
qiang: @小助手 四个人住三晚，一晚720，每人多少钱
bot: 720×3=2160元，四个人平摊每人540元 #bot_split
wang: 老李只住两晚，是不是要少一点
bot: 如果按人晚算：总共4×3-1=11个人晚，每个人晚约196元，老李两晚约393元，其余三人每人约589元 #bot_split2
li: 算了算了，别这么细，我多出点没事，就540吧 #li_540
== 2026-04-26 20:50
ting: 我想带个拍立得，大家有没有相纸 #ting_instax
wang: 我有一盒没拆的，带给你 #wang_film
qiang: 我带个无人机，拍个大合照 #qiang_drone
li: 无人机鼓浪屿好像不让飞吧
qiang: 那在环岛路飞
== 2026-04-28 22:00
ting: 我的高铁订好了，G1633，1号下午4点到厦门北 #ting_train_time
wang: 我接完阿强再去厦门北接你，来得及 #wang_both
ting: 爱你小王
== 2026-04-30 21:40
li: 明天我值班，你们先嗨，我2号中午到 #li_arrive
qiang: @老李 收到，给你留瓶啤酒
ting: 防晒霜带了吗大家
wang: 带了带了
== 2026-05-03 22:30
ting: 鼓浪屿太美了，照片我晚点发群里
li: 这家沙茶面确实绝，小王没骗人
qiang: 无人机拍的合照出来了，我修一下图 #drone_photo
wang: 明天退房前记得把钥匙放前台 #key_front
""", [
    ("li", "这次厦门最后定的是几号到几号", ["bnb_kept"], "update", ["dates_moved"]),
    ("qiang", "老李来不了那天，小王是怎么安排大家分批到的", ["plan_split"], "paraphrase", []),
    ("qiang", "最后住的是哪家民宿", ["bnb_final"], "update", ["bnb_first"]),
    ("ting", "小王推荐的那家沙茶面叫什么", ["wang_shacha"], "paraphrase", []),
    ("li", "阿强朋友说哪家店好吃", ["qiang_oyster"], "paraphrase", []),
    ("ting", "阿强的飞机几点落地", ["qiang_flight"], "paraphrase", []),
    ("qiang", "小助手给的四天行程是怎么安排的", ["bot_route"], "paraphrase", []),
    ("wang", "去岛上的船票为什么要提前抢", ["bot_ferry"], "paraphrase", []),
    ("ting", "老李为什么不能第一天就来", ["li_duty"], "paraphrase", []),
    ("wang", "抢到的是哪天哪一班船", ["ferry_got"], "temporal", []),
    ("wang", "老李最后出多少住宿费", ["li_540"], "update", ["bot_split2"]),
    ("qiang", "按住几晚算的话老李该出多少", ["bot_split2"], "paraphrase", []),
    ("wang", "婷婷想带什么相机", ["ting_instax"], "paraphrase", []),
    ("ting", "谁说有没拆的相纸", ["wang_film"], "lexical", []),
    ("li", "谁要带无人机", ["qiang_drone"], "lexical", []),
    ("qiang", "婷婷坐的哪趟车，几点到", ["ting_train_time"], "paraphrase", []),
    ("ting", "小王那天要接几个人", ["wang_both"], "paraphrase", []),
    ("wang", "最后一天几点离开民宿", ["checkout"], "paraphrase", []),
    ("qiang", "走之前钥匙怎么处理", ["key_front"], "paraphrase", []),
    ("li", "婷婷说吃的方面一定要吃什么", ["ting_food"], "paraphrase", []),
    ("qiang", "老李比我晚到差不多多久", ["li_arrive", "qiang_flight"], "multi_hop", []),
])


conv("zh", "gz02", "qq", "毕设答辩冲冲冲",
     {"chen": "小陈", "zhou": "周周", "liu": "大刘", "may": "阿May"}, """
== 2026-04-01 10:05
chen: 家人们，教务处通知了，答辩定在5月20号上午，地点信息楼302 #defense_first
zhou: 啊这么早，我模型还没跑完
liu: 慌什么，还有一个多月
may: 我们组是第几个上？
chen: 还没排，等张老师通知 #teacher_zhang
== 2026-04-03 21:20
zhou: @小助手 画系统架构图用什么工具比较好，要免费的
bot: 免费的可以用 draw.io（现在叫 diagrams.net），网页版直接用，能导出高清 PNG 和 SVG；想要手绘风格可以试试 Excalidraw #bot_drawio
zhou: draw.io 我去试试
liu: 我一直用 ProcessOn，模板多，就是免费版只能存9个文件 #liu_processon
== 2026-04-07 16:40
may: 张老师看了我的初稿，说第三章实验部分太单薄，要补对比实验 #may_feedback
chen: 我的是说参考文献格式不对，要改成 GB/T 7714 #chen_feedback
liu: 我的他说挺好 [得意]
zhou: 大刘你就嘚瑟吧
== 2026-04-10 22:30
zhou: 服务器又挂了，实验室那台 3090 被师兄占满了 #server_busy
liu: 租云服务器吧，AutoDL 上 4090 一小时两块多 #liu_autodl
zhou: 跑完大概要60个小时
chen: @小助手 60个小时，每小时2.3元，一共多少钱
bot: 60 × 2.3 = 138 元 #bot_gpu_cost
zhou: 能接受，租了 #zhou_rent
== 2026-04-14 19:15
may: 查重规定出来了，学校要求重复率低于15%，用知网查，学校免费给一次 #plagiarism_rule
chen: 只给一次？那自己先用别的查查
liu: 我用过 PaperYY 初查，免费的，挺准 #liu_paperyy
may: 我用的是维普，花了30块 #may_weipu
== 2026-04-18 11:00
chen: 答辩顺序出来了，我们组第三个，大概十点半 #order_third
zhou: 要准备 PPT，每人讲几分钟？
chen: 张老师说每人8分钟陈述，5分钟提问 #talk_8min
liu: 8分钟好短
== 2026-04-22 20:45
zhou: 模型跑完了！准确率从82%提到了89.6% #zhou_result
may: @周周 太强了
liu: 请喝奶茶
zhou: 行，答辩完请大家喝茶颜悦色 #zhou_treat
== 2026-04-24 13:30
liu: 食堂三楼新开了麻辣香锅，打卡了，巨辣
may: 我不敢吃辣，二楼的煲仔饭好吃
chen: 你们是在写论文还是在写美食测评
zhou: 写论文写饿了嘛
liu: @周周 今晚一起去？
zhou: 我要跑实验，帮我带一份煲仔饭 #zhou_claypot
== 2026-04-26 21:30
chen: 重磅：答辩提前到5月15号了，因为张老师20号要出差 #defense_moved
may: 啊啊啊少了五天
liu: 地点还是信息楼302吗
chen: 改到了图书馆报告厅 #room_moved
== 2026-04-28 18:20
may: 报告厅有投影仪吗？上次去那里投影仪坏了
liu: 我去借学院的便携投影仪，再带根转接头，Type-C 转 HDMI #liu_projector
chen: 我带翻页笔 #chen_clicker
zhou: 我负责打印论文，每个评委一本，一共五本 #zhou_print
== 2026-05-02 22:00
may: 知网查重结果出来了，11.3% 过了！ #may_check
chen: 我8.7%
liu: 我13.9%，擦边过 #liu_check
zhou: 我还没查，下周查
== 2026-05-06 19:40
chen: @小助手 答辩PPT一般放多少页合适，讲8分钟
bot: 8分钟一般 12 到 15 页：背景 1-2 页、方法 3-4 页、实验结果 4-5 页、总结展望 1 页，每页控制在半分钟到一分钟 #bot_ppt
chen: 我现在28页，得砍一半
liu: 哈哈哈哈
== 2026-05-09 21:10
zhou: 查完了，17.2%，没过 😭 #zhou_check_fail
may: 别慌，改改第二章的综述，那里最容易重 #may_advice
zhou: 好，我今晚改
== 2026-05-11 23:30
zhou: 改完再查，12.5%，过了！ #zhou_check_pass
chen: 稳了稳了
liu: 周周牛
may: 那就等15号了，大家早点睡
== 2026-05-13 20:00
chen: 最后一次彩排明天下午两点，在图书馆三楼研讨间 #rehearsal
liu: 收到，投影仪我明天上午去借 #liu_projector_when
may: 我那天上午有课，下午准时到
zhou: 论文已经打印好了，五本都装订了 #print_done
""", [
    ("may", "答辩现在是哪天", ["defense_moved"], "update", ["defense_first"]),
    ("zhou", "答辩在哪个地方", ["room_moved"], "update", ["defense_first"]),
    ("may", "周周查重最后是多少", ["zhou_check_pass"], "update", ["zhou_check_fail"]),
    ("liu", "小助手推荐用什么画架构图", ["bot_drawio"], "paraphrase", []),
    ("chen", "大刘平时用什么画图软件，有什么限制", ["liu_processon"], "paraphrase", []),
    ("liu", "老师对阿May的初稿有什么意见", ["may_feedback"], "paraphrase", []),
    ("may", "小陈的论文被指出了什么问题", ["chen_feedback"], "paraphrase", []),
    ("chen", "周周为什么要租云上的显卡", ["server_busy"], "paraphrase", []),
    ("may", "租显卡一共花了多少", ["bot_gpu_cost"], "paraphrase", []),
    ("zhou", "学校对论文重复率是怎么规定的", ["plagiarism_rule"], "paraphrase", []),
    ("chen", "大刘说初查用的哪个免费网站", ["liu_paperyy"], "paraphrase", []),
    ("liu", "我们组排第几个上", ["order_third"], "paraphrase", []),
    ("may", "每个人讲多长时间", ["talk_8min"], "paraphrase", []),
    ("liu", "周周的模型效果提升了多少", ["zhou_result"], "paraphrase", []),
    ("may", "谁说要带投影仪", ["liu_projector"], "lexical", []),
    ("zhou", "谁负责翻页笔", ["chen_clicker"], "lexical", []),
    ("chen", "论文要印几份", ["zhou_print"], "paraphrase", []),
    ("zhou", "幻灯片做几页比较好", ["bot_ppt"], "paraphrase", []),
    ("liu", "阿May查重结果是多少", ["may_check"], "lexical", []),
    ("chen", "周周说答辩完请喝什么", ["zhou_treat"], "paraphrase", []),
    ("zhou", "彩排离正式答辩还有几天，在哪", ["rehearsal", "defense_moved"], "multi_hop",
     []),
])


conv("zh", "gz03", "wechat", "晨跑小分队🏃",
     {"ma": "马姐", "yang": "小杨", "zheng": "老郑", "fei": "阿飞"}, """
== 2026-08-03 06:10
ma: 早！今天滨江绿道5公里，配速6分半，舒服
yang: 马姐太自律了，我刚起
zheng: 我跑了8公里，膝盖有点响
fei: 宣布个事，杭州马拉松报名开始了，11月1号开跑，谁报？ #hzmarathon
ma: 我报半马 #ma_half
zheng: 我报全马，人生第一个全马 #zheng_full
== 2026-08-05 21:30
yang: @小助手 我平时只跑5公里，想三个月后跑半马，怎么练
bot: 每周跑3到4次：两次轻松跑5-8公里，一次节奏跑，周末一次长距离，每周长距离加1-2公里，十月中旬拉到18公里左右，比赛前两周减量 #bot_plan
yang: 好，那我也报半马 #yang_half
fei: 我报10公里的迷你，量力而行 #fei_mini
== 2026-08-08 07:00
zheng: 集合点说一下，以后周六长距离都在钱塘江大桥北桥头集合，早上6点 #meet_first
ma: 收到
fei: 6点好早……
zheng: 夏天晚了太热
== 2026-08-11 20:15
yang: 我的跑鞋底磨平了，求推荐
ma: 我穿亚瑟士 Kayano，有支撑，适合扁平足 #ma_kayano
fei: 我推荐李宁飞电，缓震好，才五百多 #fei_feidian
zheng: 我穿的是特步160X，比赛鞋，平时别穿 #zheng_160x
yang: 我先去店里试试
== 2026-08-15 06:50
zheng: 今天长距离16公里跑完了，配速5分40 #zheng_16k
ma: 老郑猛
fei: 我跑到第6公里就岔气了 😂
yang: 新鞋买了，最后买的飞电，阿飞说得对 #yang_shoes
== 2026-08-19 21:40
ma: 中签结果出来了！我中了半马 #ma_lottery
yang: 我也中了！
zheng: 全马没中……哭了 #zheng_miss
fei: 迷你跑不用抽签
== 2026-08-22 22:10
zheng: 我找到一个慈善名额，捐1200元能跑全马 #zheng_charity
ma: 那也算做好事了
zheng: 已经交钱了，照样跑全马 #zheng_in
== 2026-08-27 20:30
fei: 以后周六集合点改一下，大桥那边在修路，改到奥体中心东门，时间不变 #meet_moved
ma: 好，东门停车方便
yang: 收到
== 2026-09-02 19:00
yang: @小助手 小腿前面疼，跑步的时候更疼，是不是胫骨的问题
bot: 可能是胫骨内侧应力综合征，常见于加量太快。先停跑一周，冰敷，每天做小腿拉伸和提踵；如果按压某一点特别疼，要去医院拍片排除应力性骨折 #bot_shin
yang: 好，我先停一周 #yang_rest
ma: @小杨 别硬撑
== 2026-09-12 07:20
yang: 恢复了！今天跑了6公里没疼 #yang_back
zheng: @小杨 欢迎回来
ma: 我下周去云南出差十天，长距离只能在酒店跑步机上跑了 #ma_trip
fei: 跑步机跑长距离太无聊了吧
== 2026-09-19 06:45
fei: 今天集合跑了14公里，马姐不在好冷清
yang: 我跟着跑了10公里，腿没事了
zheng: 马姐在跑步机上跑了几公里？
ma: 昨晚在酒店跑了12公里，跑步机太无聊了，看了两集剧 #ma_treadmill
fei: 这才是正确打开方式
== 2026-09-26 06:40
ma: 回来了，昆明海拔高，跑得喘死 #ma_back
zheng: 今天跑了30公里，3小时05分 #zheng_30k
fei: 老郑要破三小时半了
zheng: 目标4小时内完赛就行 #zheng_goal
== 2026-10-10 21:00
fei: @小助手 比赛前一天吃什么比较好
bot: 赛前一天以容易消化的碳水为主，比如米饭、面条、馒头，少吃油腻、辛辣和高纤维的东西，别尝试没吃过的新食物，多喝水 #bot_carb
zheng: 我赛前都吃一碗葱油拌面 #zheng_noodle
ma: 我吃白粥配馒头，稳
== 2026-10-20 20:20
fei: 领物时间定了，10月30号到31号，在国际博览中心 #expo
zheng: 我30号下午去领，帮你们一起领？ #zheng_collect
ma: 好啊，我发你身份证照片
yang: 我也要，谢谢郑哥
fei: 迷你跑要本人领，我自己去 #fei_self
== 2026-10-27 06:30
ma: 最后一次周六集合跑完了，大家比赛加油！
zheng: 赛后去吃片儿川吧，我知道一家，奎元馆 #zheng_food
yang: 好！我请第一碗
fei: 我要吃两碗
""", [
    ("yang", "周六长距离现在在哪集合", ["meet_moved"], "update", ["meet_first"]),
    ("ma", "老郑最后能不能跑全马", ["zheng_in"], "update", ["zheng_miss"]),
    ("fei", "马姐推荐的那双鞋叫什么", ["ma_kayano"], "paraphrase", []),
    ("yang", "阿飞说的那双鞋好在哪", ["fei_feidian"], "paraphrase", []),
    ("ma", "小杨后来买了哪双鞋", ["yang_shoes"], "paraphrase", []),
    ("zheng", "小助手给小杨的训练计划是怎样的", ["bot_plan"], "paraphrase", []),
    ("yang", "阿飞报的什么项目", ["fei_mini"], "paraphrase", []),
    ("fei", "杭马是哪天比赛", ["hzmarathon"], "paraphrase", []),
    ("yang", "老郑是怎么拿到全马名额的", ["zheng_charity"], "paraphrase", []),
    ("ma", "小杨腿疼那次小助手怎么说的", ["bot_shin"], "paraphrase", []),
    ("zheng", "小杨停跑了多久才恢复", ["yang_back", "yang_rest"], "multi_hop", []),
    ("yang", "马姐出差去了哪里", ["ma_trip"], "paraphrase", []),
    ("fei", "老郑30公里跑了多长时间", ["zheng_30k"], "lexical", []),
    ("ma", "老郑给自己定的完赛目标是多少", ["zheng_goal"], "paraphrase", []),
    ("yang", "比赛前一天该吃点啥", ["bot_carb"], "paraphrase", []),
    ("fei", "老郑赛前习惯吃什么", ["zheng_noodle"], "paraphrase", []),
    ("ma", "去哪里领参赛包", ["expo"], "paraphrase", []),
    ("yang", "谁说可以帮大家一起领物", ["zheng_collect"], "paraphrase", []),
    ("zheng", "跑完去吃的那家店叫什么", ["zheng_food"], "paraphrase", []),
    ("fei", "8月中那次长距离老郑跑了多少公里", ["zheng_16k"], "temporal", []),
    ("yang", "集合地点为什么要换", ["meet_moved"], "paraphrase", []),
])


conv("zh", "gz04", "qq", "市场部摸鱼群🐟",
     {"fang": "方姐", "wu": "小吴", "peng": "大鹏", "lin": "琳琳", "jiang": "老蒋"}, """
== 2026-10-12 14:20
fang: 通知一下，部门团建预算批了，每人300，下个月搞 #budget
wu: 终于！去哪去哪
peng: 农家乐吧，钓鱼烧烤，我熟一家在从化 #peng_farm
lin: 农家乐好累，我想去密室逃脱
jiang: 我都行，有酒就行
fang: 先定农家乐，11月14号周六 #plan_first
== 2026-10-14 11:45
lin: 楼下新开了一家奶茶，叫「半山茶事」，杨枝甘露好喝 #lin_tea
wu: 我更喜欢公司对面那家「柠季」，手打柠檬茶yyds #wu_tea
peng: 你们天天喝，月底又要吃土
jiang: 琳琳明天帮我带一杯杨枝甘露
== 2026-10-16 17:30
fang: @小助手 13个人去从化农家乐，包车大概多少钱
bot: 从广州市区到从化单程约80公里，19座中巴一天包车一般在1200到1600元之间，含司机和油费，过路费另算 #bot_bus
peng: 我认识个师傅，1300能包一天 #peng_driver
fang: 那就包车，大鹏你去联系师傅 #peng_book
== 2026-10-19 10:10
jiang: 请个假，我10月26号到30号回老家，我妈做手术 #jiang_leave
fang: 去吧，工作交给小吴 #wu_cover
wu: @老蒋 收到，蒋哥安心
lin: @老蒋 阿姨早日康复🙏
== 2026-10-22 15:00
wu: 双十一的投放方案初稿我放共享盘了，方姐有空看一下 #wu_plan
fang: 看了，小红书的预算占比太高，砍到30% #fang_cut
wu: 好，那抖音加回去
peng: 我那边直播脚本周五给 #peng_script
== 2026-10-24 12:30
peng: 午饭去哪，我想吃猪脚饭
lin: 又是猪脚饭，换换口味吧，去吃螺蛳粉
wu: 螺蛳粉我不行，味道太冲
fang: 你们先去，我开完会再说
peng: 那我和小吴吃猪脚饭，琳琳自己去螺蛳粉 [doge]
lin: 哼
== 2026-10-27 20:40
lin: 刚看天气，14号从化有大雨 #rain
peng: 下雨钓鱼也行啊
lin: 烧烤怎么办……
fang: 那改室内吧，琳琳说的密室逃脱+晚上吃饭 #plan_indoor
lin: 耶！我来找密室 #lin_escape
== 2026-10-30 16:20
lin: 找好了，天河的「迷雾古堡」，恐怖主题，每人168，可以包场13人 #lin_room
wu: 恐怖的？？我胆小
jiang: 我在老家都看到了，别选太吓人的
lin: 那选它家另一个主题「星际迷航」，不恐怖，每人158 #lin_room_final
== 2026-11-02 11:15
fang: 晚饭谁推荐
peng: 天河那家「陶陶居」点心不错 #peng_taotao
jiang: 我推荐「炳胜」，吃鱼生，就是贵点 #jiang_bingsheng
fang: 炳胜好，难得聚一次，晚饭就炳胜 #dinner_first
wu: 炳胜人均得180吧
fang: @小助手 密室每人158，晚饭人均180，一共超不超预算
bot: 158 + 180 = 338 元每人，超出 300 元预算 38 元；换成人均 120 左右的店就是 278 元，在预算内 #bot_budget
fang: 那还是陶陶居吧，炳胜超了 #dinner_final
== 2026-11-04 09:50
jiang: 回来上班了，我妈手术很顺利 #jiang_back
fang: 太好了
wu: 蒋哥，你不在的时候客户王总来过电话，说合同下周签 #wu_client
jiang: 好，谢了小吴
== 2026-11-06 18:00
peng: 包车还要吗？天河不远，地铁就行 #peng_metro
fang: 不用了，大家地铁过去，师傅那边我去说一声 #bus_cancel
peng: 好
== 2026-11-10 14:30
fang: 团建时间再说一下，14号周六，下午两点密室，六点半陶陶居 #final_time
lin: 收到
wu: 收到
jiang: 收到
peng: 收到，我带个拍立得拍照 #peng_camera
== 2026-11-12 17:10
wu: 方姐，我14号上午要去医院复查牙，下午能到 #wu_dentist
fang: 没事，两点前到就行
lin: 记得穿舒服点的鞋，密室要爬来爬去 #lin_shoes
jiang: 我买了几瓶红酒晚上喝 #jiang_wine
== 2026-11-13 21:00
lin: 明天密室门口集合，地址我发群公告了 #notice
peng: 明天见
fang: 大家早点休息，别迟到
""", [
    ("wu", "团建最后定的是什么活动", ["plan_indoor"], "update", ["plan_first"]),
    ("jiang", "晚饭最后去哪家吃", ["dinner_final"], "update", ["dinner_first"]),
    ("lin", "还坐不坐大巴去", ["bus_cancel"], "update", ["peng_book"]),
    ("peng", "最后定的密室是哪个主题，多少钱一位", ["lin_room_final"], "update",
     ["lin_room"]),
    ("jiang", "这次团建每人能花多少", ["budget"], "paraphrase", []),
    ("fang", "琳琳说楼下那家奶茶店叫啥", ["lin_tea"], "paraphrase", []),
    ("lin", "小吴爱喝的是哪家", ["wu_tea"], "paraphrase", []),
    ("peng", "小助手估计包一辆车去从化要多少钱", ["bot_bus"], "lexical", []),
    ("fang", "老蒋请假是哪几天", ["jiang_leave"], "paraphrase", []),
    ("jiang", "我不在的时候谁接我的活", ["wu_cover"], "paraphrase", []),
    ("wu", "方姐对双十一方案提了什么修改", ["fang_cut"], "paraphrase", []),
    ("fang", "为什么不去农家乐了", ["rain"], "paraphrase", []),
    ("lin", "老蒋推荐的那家店是吃什么的", ["jiang_bingsheng"], "paraphrase", []),
    ("peng", "密室加吃饭每人一共多少钱，会不会超", ["bot_budget"], "paraphrase", []),
    ("wu", "客户那边合同什么时候签", ["wu_client"], "paraphrase", []),
    ("lin", "团建当天几点开始", ["final_time"], "temporal", []),
    ("fang", "谁说要带拍立得", ["peng_camera"], "lexical", []),
    ("peng", "小吴那天上午干嘛去", ["wu_dentist"], "paraphrase", []),
    ("wu", "玩密室要注意穿什么", ["lin_shoes"], "paraphrase", []),
    ("lin", "晚饭喝的酒谁准备的", ["jiang_wine"], "paraphrase", []),
    ("fang", "老蒋回来上班时离团建还有几天", ["jiang_back", "final_time"], "multi_hop", []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"group_{lang}")
