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


conv("en", "ge05", "whatsapp", "Tuesday 5-a-side ⚽",
     {"liam": "Liam", "dev": "Dev", "rhys": "Rhys", "kwame": "Kwame", "olly": "Olly"}, """
== 2026-09-07 19:40
liam: right lads, league's on. first game Tue 15 Sept, 8pm, pitch 3 at Goals Riverside #pitch_first
kwame: finally. summer without football nearly killed me
olly: 8 is perfect, straight from the office
rhys: in, been running all summer
dev: same. what's the damage for the season?
liam: £300 for the 10 league games, plus £5 a match for the ref, cash on the night #league_fee
== 2026-09-09 20:15
liam: league rule: we need bibs for colour clashes
kwame: I've got orange bibs from my Sunday side, I'll bring them every week #kwame_bibs
rhys: who's washing them though
olly: I will for now, our washing machine actually works #olly_wash
liam: @Assistant 5 players, £300 league fee and £5 for the ref every game. what does each of us pay?
bot: £300 ÷ 5 = £60 each for the season. The ref fee is £1 each per game: one person pays the £5 on the night and you settle up monthly #bot_split
liam: £60 to me by 30 September please, bank details in DM #fee_deadline
dev: sent 👍
== 2026-09-11 18:20
dev: news! my mate Gio at Bean There on Mill Street wants to sponsor our shirts #sponsor_offer
kwame: free kit?? what's the catch
dev: café logo on the front, and a team photo on his Instagram after every win #sponsor_terms
liam: what colour are they?
dev: teal with white numbers. sizes and numbers to me by Sunday #shirt_colour
rhys: large, number 4 please
== 2026-09-14 21:05
liam: change tomorrow: pitch 3's being resurfaced, we're on pitch 5 at 8:40 #pitch_moved
kwame: 8:40?? I'm on the early shift Wednesday
liam: just this week, apparently
olly: suits me, time for a pint before 😅
== 2026-09-15 22:30
olly: 6-4!! get in. Kwame with a hat-trick
kwame: the orange bibs are lucky, nobody wash them
rhys: rolled my ankle in the last minute, it's already swelling 😬 #rhys_ankle
dev: @Assistant Rhys twisted his ankle playing, what should he do?
bot: Rest, ice for 15–20 minutes every few hours, a compression bandage, and keep it raised for the first 48 hours. If he can't bear weight or the bone itself is tender, get an X-ray to rule out a fracture #bot_ankle
rhys: I can hobble, so no X-ray. sofa and frozen peas
== 2026-09-17 19:10
kwame: @Rhys see Hannah at Riverside Physio, she fixed my hamstring in three sessions #kwame_physio
dev: Align Clinic on the high street is cheaper, £35 a go #dev_physio
olly: my sister likes the leisure centre physio, walk-ins on Saturdays #olly_physio
rhys: booked Hannah for Monday #rhys_booked
== 2026-09-21 20:30
rhys: grade 2 sprain. out about four weeks from when I did it 😩 #rhys_out
liam: gutted. we need a fifth then
olly: my flatmate Marcus plays, I'll ask him #marcus_cover
olly: Marcus is in for tomorrow #marcus_in
== 2026-09-24 18:45
olly: Marcus was decent. my boots were useless on that surface though
kwame: get proper astro ones. Adidas Copa turf, £55 at JD, grip like glue #kwame_boots
dev: Nike Tiempo TF for me, wider fit for flat feet #dev_boots
liam: my £25 Kipsta ones from Decathlon have lasted two seasons #liam_boots
olly: cheap it is, cheers Liam
== 2026-09-28 21:00
olly: Marcus is on night shifts now, no more Tuesdays for him #marcus_out
dev: my cousin Zain can step in, he was a keeper at uni #zain_cover
liam: an actual keeper! sign him up
dev: he'll play till Rhys is back and chip in for the fee
liam: @Assistant Zain's in, so 6 of us split the £300. what does each pay, and what do the 5 who paid £60 get back?
bot: £300 ÷ 6 = £50 each. Zain pays £50 and the five who paid £60 get £10 back each #bot_resplit
== 2026-10-01 19:30
liam: league email: pitch 3's new 3G is done, and from October all our games are on it at 7pm, not 8 #pitch_final
kwame: 7 is way better
olly: tight from work but I'll make it
dev: shirts are ready! behind the counter at the café from Saturday #shirts_ready
== 2026-10-06 21:50
kwame: 3-3 and Zain saved a penalty!!
liam: where we going for a drink?
olly: The Ferryman, £4 pints on Tuesdays #olly_pub
kwame: Railway Tavern, best chips going and the Champions League is on #kwame_pub
liam: Crown & Anchor, pool table and a quiet back room #liam_pub
rhys: meet you wherever, no limp now
== 2026-10-08 18:30
olly: washing machine's dead. bibs are in a bin bag, it's grim #olly_machine
liam: I'll take the bibs over, we've got a new machine #liam_wash
kwame: I'll bring my spare set Tuesday just in case #kwame_spare
== 2026-10-11 12:10
rhys: physio's signed me off! back on Tuesday 13 October 💪 #rhys_back
dev: Zain's gutted, he was loving it
liam: tell him to stay on as a rolling sub, league allows it #zain_sub
rhys: Hannah says tape it for a few games and wobble board every day #rhys_strap
== 2026-10-14 07:45
kwame: what a comeback Rhys, a goal and an assist 🔥
rhys: ankle held up. might get the Puma high-tops for more support #rhys_boots
olly: team photo's up, Gio stuck it in the café window #gio_photo
dev: he says free bacon rolls if we win the next two
== 2026-10-19 20:00
liam: refunds sent, check your banking apps. Zain's paid too #refunds_done
kwame: my knee's grumbling, might try the massage place by the station #kwame_knee
olly: Ferryman's got a quiz on Tuesdays now, after the game?
liam: see you tomorrow, bibs washed and in my bag #liam_bibs_bag
""", [
    ("kwame", "where and what time are our Tuesday games now", ["pitch_final"], "update",
     ["pitch_first", "pitch_moved"]),
    ("olly", "who ended up covering while Rhys was injured", ["zain_cover"], "update",
     ["marcus_cover", "marcus_in"]),
    ("rhys", "how much is my share of the league entry in the end", ["bot_resplit"], "update",
     ["bot_split"]),
    ("dev", "who's in charge of cleaning the bibs these days", ["liam_wash", "liam_bibs_bag"], "update",
     ["olly_wash"]),
    ("olly", "what does the league cost the team in total, and what do we pay the referee",
     ["league_fee", "bot_split"], "paraphrase", []),
    ("rhys", "who supplies the spare coloured vests for when kits clash", ["kwame_bibs", "kwame_spare"],
     "paraphrase", []),
    ("liam", "what does Dev's friend want in return for paying for our kit", ["sponsor_terms"],
     "paraphrase", []),
    ("kwame", "what street is Bean There on", ["sponsor_offer"], "lexical", []),
    ("olly", "what colour is the new kit", ["shirt_colour"], "paraphrase", []),
    ("kwame", "what first aid did the bot recommend after Rhys got hurt", ["bot_ankle"],
     "paraphrase", []),
    ("liam", "when did Rhys pick up his injury", ["rhys_ankle"], "temporal", []),
    ("rhys", "where does the physio Kwame recommended work", ["kwame_physio"], "paraphrase", []),
    ("olly", "how much does Align Clinic charge", ["dev_physio"], "lexical", []),
    ("dev", "how long did the physio think Rhys would be out", ["rhys_out"], "paraphrase", []),
    ("olly", "what footwear did Kwame tell me to buy", ["kwame_boots"], "paraphrase", []),
    ("kwame", "what are the budget boots Liam has been wearing", ["liam_boots"], "paraphrase",
     []),
    ("rhys", "where did Olly say we'd get cheap beer after the match", ["olly_pub"],
     "paraphrase", []),
    ("dev", "what's good about the Railway Tavern", ["kwame_pub"], "lexical", []),
    ("rhys", "why did Olly's flatmate stop playing for us", ["marcus_out"], "paraphrase", []),
    ("olly", "when and where could we pick up the sponsored kit", ["shirts_ready"], "temporal",
     []),
    ("kwame", "what time does the game Rhys is coming back for kick off",
     ["rhys_back", "pitch_final"], "multi_hop", []),
    ("dev", "what did the physio tell Rhys to keep doing now he's playing again", ["rhys_strap"],
     "paraphrase", []),
])

conv("en", "ge06", "telegram", "Plot 17 allotment",
     {"maggie": "Maggie", "raj": "Raj", "ewan": "Ewan", "sofia": "Sofia"}, """
== 2026-05-04 18:50
maggie: welcome to the Plot 17 chat! the plot's £88 a year, so £22 each #plot_rent
raj: brilliant, three years on the waiting list on my own
ewan: I'll do the heavy digging, I'm retired and bored #ewan_digging
sofia: I'll do the seed order, wishes to me by Friday #sofia_seeds
maggie: shed padlock code is 3091, keep it to yourselves #padlock
ewan: noted
== 2026-05-06 20:10
raj: climbing beans for me. chillies I'm starting on my windowsill #raj_seeds
ewan: Charlotte potatoes went in last week, two left-hand rows, don't dig there #ewan_potatoes
maggie: beetroot, carrots and a row of sweet peas for cutting #maggie_seeds
sofia: courgettes and salad leaves for me
sofia: @Assistant how many courgette plants for four households?
bot: Two or three is plenty: a healthy plant gives 2–3 courgettes a week at its peak. Sow a couple of spares in case of slugs and give the extras away #bot_courgette
sofia: three then, one of them yellow #sofia_courgette
== 2026-05-08 17:30
sofia: seed order's in! Thornbury Seeds, £31.60 after the society discount, so £7.90 each #seed_order
raj: sending mine now
sofia: arriving by the 15th #seed_delivery
ewan: seed potatoes were £4 from the trading hut, my treat #ewan_spuds
== 2026-05-11 09:40
ewan: bad news: the shed roof felt has torn and rain got in on the seed trays #shed_leak
maggie: oh no, my sweet peas
ewan: soggy but alive. door's hanging off its top hinge too #shed_hinge
raj: I've got a drill and screws, leave the door to me #raj_hinge
ewan: half a roll of felt in my garage, that'll do the roof #ewan_felt
maggie: working party Saturday morning? #shed_day
== 2026-05-13 21:00
maggie: @Assistant watering rota for 4 people for dry spells please, one person a day, weekends covered
bot: Maggie Monday and Thursday, Raj Tuesday and Friday, Ewan Wednesday and Saturday, Sofia Sunday. Water early or in the evening and soak the roots, not the leaves. Swap days in here if you're away #bot_rota
sofia: only Sundays for me? then I'll keep the water butt clean too #sofia_butt
raj: Tuesdays and Fridays suit me
ewan: fine by me
== 2026-05-16 14:20
raj: door's fixed. and the old padlock had rusted, new one's code is 7720 #padlock_new
ewan: roof's felted and nailed, bone dry in there #shed_done
maggie: heroes! lemon drizzle in the shed tin #maggie_cake
sofia: seeds came, they're in the biscuit tin on the shed shelf, mouse-proof #seeds_tin
== 2026-05-20 07:55
maggie: disaster 🐌 slugs ate half the lettuce seedlings overnight #slug_attack
raj: copper tape round the raised beds, they won't cross it #raj_copper
maggie: I'll do beer traps, yoghurt pots of cheap lager sunk in the soil #maggie_beer
sofia: nematodes! water them in and they kill slugs underground, about £13 a pack #sofia_nematodes
ewan: or a torch after dark and pick them off. old school #ewan_torch
== 2026-05-22 19:30
raj: @Assistant any slug treatment that's safe for the hedgehog under our compost bin?
bot: Avoid metaldehyde pellets. Nematodes are safe for hedgehogs and pets, and so are beer traps if emptied often. If you want pellets, use ferric phosphate and scatter them thinly. Clearing weeds around seedlings helps too #bot_slugs
sofia: nematodes it is, ordering a pack tonight #nematode_order
maggie: keeping my beer traps too, they were full this morning
== 2026-05-27 20:05
ewan: committee inspections are Saturday 6 June, they check plots are being worked #inspection
maggie: path needs strimming and the bindweed out of the back corner
ewan: I'll borrow my son's strimmer #ewan_strimmer
raj: I'll pull the bindweed Sunday morning #raj_bindweed
== 2026-06-01 19:15
maggie: idea: harvest barbecue at the plot when the potatoes and beans are ready, families too #bbq_idea
sofia: yes!! Saturday 18 July? #bbq_first
raj: I'll bring my Weber and a bag of charcoal #raj_grill
ewan: I'll dig the first potatoes that morning
maggie: I'll make potato salad with those and our chives #maggie_salad
== 2026-06-03 21:30
sofia: rota problem: I'm on weekend shifts at the garden centre now, Sundays are out #sofia_weekends
raj: let's swap, I'll take Sundays and you have my Tuesdays #rota_swap
sofia: thank you!! Tuesday evenings are perfect
maggie: I'll change the rota sheet on the shed door #rota_door
== 2026-06-06 13:00
ewan: inspection passed! she said ours is one of the tidiest plots on the site #inspection_passed
raj: get in 🎉
maggie: the strimming made all the difference
raj: she said we could apply for the empty half plot next door, 17b #plot_17b
sofia: ooh, room for more courgettes
== 2026-06-11 20:40
maggie: barbecue problem: the society open day is 18 July, the site will be heaving #bbq_clash
raj: push it back a week? Saturday 25 July #bbq_moved
ewan: fine by me, my daughter's back from Spain by then
sofia: works for me. I'll bring halloumi and courgette skewers #sofia_skewers
== 2026-06-17 19:45
sofia: nematodes worked, not one slug in the lettuce for a fortnight #nematodes_worked
raj: my copper tape's peeling off in the rain tbh #raj_copper_peel
maggie: the beer traps mostly caught woodlice lol
ewan: first broad beans picked today, a whole carrier bag full #broad_beans
sofia: save me some!
== 2026-06-24 18:10
ewan: water butt's empty, ten days without rain
raj: standpipe by the gate works again, council fixed it Friday #standpipe
sofia: I'll scrub the butt out on Tuesday when I'm down anyway
sofia: also doing an autumn Thornbury order, garlic and winter onions, shout by next week #autumn_order
maggie: garlic for me. Ewan, snails on the climbing beans now, ideas? #snails
ewan: grapefruit halves face down, collect the snails from under them each morning #ewan_grapefruit
""", [
    ("ewan", "who waters the plot on Sundays now", ["rota_swap"], "update", ["bot_rota"]),
    ("ewan", "what date is the harvest barbecue now", ["bbq_moved"], "update", ["bbq_first"]),
    ("sofia", "what's the combination for the shed lock", ["padlock_new"], "update",
     ["padlock"]),
    ("sofia", "how much is each of us paying for the plot per year", ["plot_rent"],
     "paraphrase", []),
    ("raj", "what did Ewan suggest when the slugs first showed up", ["ewan_torch"],
     "paraphrase", []),
    ("ewan", "what did Maggie put in for on the first seed order", ["maggie_seeds"], "paraphrase", []),
    ("maggie", "how many courgette plants did the bot reckon we'd need", ["bot_courgette"],
     "paraphrase", []),
    ("raj", "what did the Thornbury Seeds order come to for each of us", ["seed_order"],
     "lexical", []),
    ("sofia", "what damage did Ewan find at the shed", ["shed_leak", "shed_hinge"], "paraphrase",
     []),
    ("maggie", "what did Ewan use to patch up the roof", ["ewan_felt", "shed_done"],
     "paraphrase", []),
    ("ewan", "where did Sofia store the seeds once they arrived", ["seeds_tin"], "paraphrase",
     []),
    ("sofia", "what was Raj's idea for keeping the slugs off", ["raj_copper", "raj_copper_peel"],
     "paraphrase", []),
    ("raj", "how did Maggie make her slug traps", ["maggie_beer"], "paraphrase", []),
    ("maggie", "how much is a pack of nematodes", ["sofia_nematodes"], "lexical", []),
    ("sofia", "which slug treatments did the bot say wouldn't harm wildlife", ["bot_slugs"],
     "paraphrase", []),
    ("raj", "when did the slugs eat the lettuces", ["slug_attack"], "temporal", []),
    ("sofia", "when was the committee's check of the plots", ["inspection", "inspection_passed"],
     "temporal", []),
    ("ewan", "who's bringing the grill for the barbecue", ["raj_grill"], "paraphrase", []),
    ("raj", "what is Sofia bringing to the barbecue", ["sofia_skewers"], "paraphrase", []),
    ("maggie", "which of the slug remedies actually worked in the end", ["nematodes_worked"],
     "paraphrase", []),
    ("ewan", "what did the committee say about 17b", ["plot_17b"], "lexical", []),
    ("sofia", "how many weeks after the plot inspection is the barbecue now",
     ["inspection", "bbq_moved"], "multi_hop", []),
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


conv("zh", "gz05", "wechat", "三年二班家长群",
     {"duo": "朵朵妈", "le": "乐乐爸", "han": "子涵妈妈", "hao": "浩宇爸爸", "tian": "甜甜妈"}, """
== 2026-03-09 20:10
duo: 陈老师说春游定在4月10号周五，去植物园 #spring_first
tian: 家长要跟着去吗？
duo: 每个班要两个家长志愿者跟队 #volunteer_need
hao: 那天我能请假，算我一个 #hao_volunteer
han: 我也报，周五我本来就调休 #han_volunteer
== 2026-03-11 21:05
duo: 这学期班费每人交200 #fee_amount
tian: 钱放谁那儿管呢？
duo: 我先管着吧，我本职是会计 #duo_account
han: @小助手 42个孩子每人200，一共多少
bot: 42 × 200 = 8400 元 #bot_fee_total
duo: 我发群收款，这周五前交哈 #fee_deadline
== 2026-03-13 19:40
tian: 要订夏季校服了，短袖短裤一套168 #uniform_price
tian: 至少订两套，按身高选码，下周三前报 #uniform_rule
han: @小助手 孩子136公分，选130还是140
bot: 建议选140。这个年纪一年大概长5到7公分，136穿130到下学期就紧了，140稍大点，能穿一整年 #bot_size
han: 好，那就140 #han_140
== 2026-03-16 07:50
le: 我家锦绣花园的，早上开车送娃，顺路的可以拼 #le_carpool
tian: 我们也在锦绣花园！能蹭车吗
le: 可以，7点20小区北门等 #carpool_time
han: 我们住翠湖苑，下午放学我来接 #han_pickup
== 2026-03-18 20:30
hao: 浩宇想学画画，大家周末都报的啥班
duo: 朵朵在「小橙子美术」，一节课120 #duo_art
le: 乐乐在万达三楼「码力少年」学编程 #le_coding
tian: 甜甜在「声声慢」学古筝，两年了 #tian_guzheng
hao: 浩宇坐不住，先去试听一下
== 2026-03-20 21:00
duo: 要选家委会了，一个主任两个委员，自愿报 #election_notice
hao: 我报委员，跑腿的活交给我 #hao_run
han: 我提名朵朵妈当主任，她最热心
duo: 行，我试试。那账就别我管了，最好分开 #duo_conflict
le: 周三晚上在群里投票吧 #vote_when
== 2026-03-23 20:15
han: 子涵最近爱看书，求推荐书店
le: 少年宫旁边「半页书屋」，周六上午有故事会 #le_bookstore
tian: 图书馆新馆三楼少儿区，免费还能借 #tian_library
duo: 万象城「蒲公英书店」能坐着看一下午 #duo_bookstore
== 2026-03-25 21:30
duo: 投票结果：我当主任，浩宇爸爸和甜甜妈当委员 #election_result
hao: 以后有事尽管喊我
duo: 账本周末交给甜甜妈，以后班费她管 #account_handover
tian: 好，每月底我在群里公示一次 #tian_monthly
tian: @浩宇爸爸 校服尺码就差你家没报了 #uniform_missing
hao: 不好意思忘了，浩宇要150的，两套 #hao_size
== 2026-03-30 20:40
duo: 植物园在装修，春游改去森林公园，日期不变 #spring_place
le: 森林公园好，能放风筝
han: 那挺远的，怎么过去？
duo: 学校包大巴，早上7点50校门口上车 #bus_time
tian: @小助手 孩子出去玩一整天，书包里要装什么
bot: 水壶、午饭和水果，纸巾湿巾，一件薄外套，帽子和防晒霜，几个创可贴。零食别带太多，也别带贵重东西 #bot_pack
== 2026-04-01 17:20
le: 校门口新来个鸡蛋仔摊，乐乐吃了俩 #le_eggwaffle
han: 东边那家「老杨煎饼」干净点，现做的 #han_jianbing
hao: 浩宇天天吵着吃对面的炸串 #hao_skewer
tian: 路边摊少吃，甜甜上次吃拉肚子了
== 2026-04-03 21:10
le: 我下周起调早班，早上送不了了 #le_shift
tian: 啊，那甜甜怎么办
hao: 我也住锦绣花园，早上我来送，还是7点20北门 #hao_carpool
le: 谢谢！我四点下班，下午能接了 #le_afternoon
le: @子涵妈妈 下午周一到周三我接，周四周五还是你 #pickup_split
== 2026-04-07 20:00
duo: 又变了😂 10号有雷阵雨，春游推迟到17号 #spring_date
han: 那我得重新调休
hao: 17号我出差，跟队去不了了 #hao_out
le: 我来，17号我正好轮休 #le_replace
duo: 好，跟队的改成子涵妈妈和乐乐爸 #volunteer_final
== 2026-04-10 21:30
tian: 3月账目：班费已收齐，买打印纸和绿萝花了365，余8035 #account_march
le: 辛苦甜甜妈
duo: 春游保险从班费出吧，每人10块 #insurance
tian: 好，42个人支出420 #insurance_total
han: 上周六去了半页书屋，故事会不错就是人多 #han_visit
hao: 浩宇试听完美术，回来说还想去 #hao_art_result
== 2026-04-17 18:40
le: 春游回来了，一个个都晒黑了
han: 照片传群相册了，两百多张 #photos
tian: 甜甜的蓝外套落在森林公园了，谁看见了吗 #tian_jacket
le: 好像在大巴最后一排，我明天问问司机 #le_jacket
== 2026-04-21 20:10
tian: 校服到了，周四放学后去传达室领 #uniform_pickup
duo: 小橙子现在报名送颜料，浩宇爸爸可以看看 #duo_art_promo
han: 半页书屋下周六讲恐龙，子涵吵着要去
tian: 外套找到了，谢谢乐乐爸 #jacket_found
""", [
    ("tian", "春游最后改到哪天了", ["spring_date"], "update", ["spring_first"]),
    ("han", "孩子们春游现在去哪玩", ["spring_place"], "update", ["spring_first"]),
    ("le", "现在班里的钱是谁在管", ["account_handover"], "update", ["duo_account"]),
    ("tian", "现在早上是谁开车带孩子去学校", ["hao_carpool"], "update", ["le_carpool"]),
    ("hao", "朵朵妈是做什么工作的", ["duo_account"], "paraphrase", []),
    ("le", "全班的班费加起来有多少", ["bot_fee_total"], "paraphrase", []),
    ("duo", "小助手为什么让子涵选大一点的码", ["bot_size"], "paraphrase", []),
    ("hao", "朵朵学画画的那家一节课多少钱", ["duo_art"], "paraphrase", []),
    ("han", "乐乐上的电脑课在哪儿上", ["le_coding"], "paraphrase", []),
    ("hao", "甜甜妈说的那个不花钱看书的地方在哪", ["tian_library"], "paraphrase", []),
    ("duo", "乐乐爸推荐的书店叫什么", ["le_bookstore"], "paraphrase", []),
    ("le", "子涵妈妈觉得校门口哪家吃的比较卫生", ["han_jianbing"], "paraphrase", []),
    ("han", "春游当天早上几点到哪儿集合", ["bus_time"], "paraphrase", []),
    ("tian", "出去玩一整天要给孩子准备哪些东西，小助手怎么说的", ["bot_pack"],
     "paraphrase", []),
    ("han", "下午接孩子我和乐乐爸是怎么分的", ["pickup_split"], "paraphrase", []),
    ("tian", "浩宇爸爸去不了之后谁替他跟队", ["le_replace", "volunteer_final"],
     "paraphrase", []),
    ("tian", "班费最晚哪天要交", ["fee_deadline"], "temporal", []),
    ("le", "新校服什么时候能去领", ["uniform_pickup"], "temporal", []),
    ("tian", "「声声慢」是学什么的", ["tian_guzheng"], "lexical", []),
    ("han", "买绿萝和打印纸花了多少", ["account_march"], "lexical", []),
    ("duo", "炸串是谁家孩子吵着要吃", ["hao_skewer"], "lexical", []),
    ("duo", "交完春游保险后班费还剩多少", ["account_march", "insurance_total"],
     "multi_hop", []),
])


conv("zh", "gz06", "qq", "青海湖自驾小分队",
     {"jie": "阿杰", "yu": "小雨", "dong": "东哥", "mi": "米米"}, """
== 2026-06-08 21:10
jie: 我年假批下来了！7月25号到31号 #jie_leave
dong: 那就定了，西宁进敦煌出，正好七天 #route
yu: 茶卡的天空之镜我馋好久了
mi: 我只求别晕车😂
dong: 机票各买各的，25号中午前在曹家堡机场碰头 #meet_airport
== 2026-06-11 20:30
dong: 悦途租车有辆途观L，一天380 #car_first
jie: 西宁借敦煌还，要加钱吧
dong: 异地还车费1500 #oneway_first
yu: 肉疼，但也没办法
mi: 我驾照才半年，不开了，负责放歌拍照 #mi_nodrive
== 2026-06-15 22:00
yu: @小助手 第一次上高原，高反怎么预防
bot: 出发前三到五天开始吃红景天，效果因人而异；到了别跑跳，第一晚别洗澡，多喝水，备几罐便携氧气。头痛厉害或喘不上气要去医院 #bot_altitude
dong: 青海湖才三千二左右，问题不大
jie: 我上次去拉萨喝的葡萄糖口服液，感觉挺管用 #jie_glucose
mi: 我去药店买红景天，一人一盒 #mi_rhodiola
== 2026-06-18 21:20
dong: 排一下开车：26号西宁到青海湖，小雨开 #leg_yu
yu: 没问题，我在老家天天开山路
dong: 青海湖到茶卡阿杰开，茶卡到大柴旦我来 #leg_dong
jie: 大柴旦到敦煌要翻当金山，我和东哥换着开 #leg_last
dong: 行，两小时一换，谁都别硬撑 #swap_2h
== 2026-06-22 20:45
yu: 青海湖我订了二郎剑边上的「湖光酒店」，460一晚 #hotel_lake_first
jie: 二郎剑人挤人，住黑马河吧，第二天能看日出 #jie_sunrise
yu: 有道理，我去看看能不能退
== 2026-06-25 12:30
dong: 落地先吃手抓，莫家街「马老三手抓」 #dong_mutton
dong: 我出差去吃过三回
yu: 我同事说必须喝水井巷的「雪域酸奶」 #yu_yogurt
yu: 上面一层厚皮，勺子插着不倒
mi: 我收藏的是「尕娃酿皮」，凉的，夏天吃正好 #mi_niangpi
jie: 都吃，反正到的那天不开车
== 2026-06-29 22:15
mi: 完了，公司让我月底去上海跑展会
mi: 我可能去不成了😭 #mi_out
yu: 啊？？？
dong: 车照租，费用就三个人分 #split_three
jie: @米米 你再跟老板磨一磨
mi: 我试试，下周给准信
== 2026-07-02 20:10
dong: 坏消息，悦途说途观L不接异地还车了 #car_problem
dong: 换了青途租车的丰田汉兰达，四驱，一天450 #car_final
dong: 异地还车费1200 #oneway_final
jie: 汉兰达好，四个箱子都塞得下
yu: 贵了点，但过当金山四驱安心
== 2026-07-06 21:40
mi: 好消息！！展会换同事去了，我又能去了 #mi_back
yu: 米米！！！🎉
dong: 那还是四个人分 #split_four
jie: 快买机票，25号的越来越贵
== 2026-07-09 20:20
jie: @小助手 租车7天，一天450，加1200异地费，四个人分每人多少
bot: 450 × 7 = 3150 元，加 1200 元共 4350 元，四人平摊每人 1087.5 元 #bot_car_split
dong: 油费过路费我先垫，回来一起算 #dong_fuel
yu: 住的我统一在app上付，最后也一起结 #yu_hotels
== 2026-07-12 21:00
yu: 青海湖换好了，黑马河「日出营地」，一晚520 #hotel_lake_final
yu: 茶卡住镇上的「盐湖驿站」 #hotel_chaka
yu: 敦煌两晚住沙洲夜市旁的「鸣沙客栈」 #hotel_dunhuang
mi: 那大柴旦呢？
yu: 大柴旦就一家能订，「柴达木宾馆」，条件一般 #hotel_dachaidan
jie: 莫高窟要提前约，我来抢票 #jie_mogao
== 2026-07-15 19:30
mi: 高原紫外线猛，我买了脸基尼，强烈推荐 #mi_facekini
yu: 我就用防晒喷雾，SPF50，两小时补一次 #yu_spray
dong: 我冰袖加渔夫帽，省事 #dong_sleeves
jie: 茶卡要穿雨靴，不然盐水泡脚，景区门口能租 #jie_boots
== 2026-07-20 22:10
jie: 莫高窟约到了！30号下午两点，A类票四张 #mogao_got
yu: @阿杰 牛
mi: 我有点感冒，还能上高原吗 #mi_cold
dong: @小助手 感冒了去青海有风险吗
bot: 感冒会让高反更重，还可能诱发肺水肿，最好出发前治好；到时还发烧咳嗽的话，先别上高原，在西宁休息观察 #bot_cold
mi: 那我这几天老实吃药
== 2026-07-24 21:30
mi: 感冒好了！明天见 #mi_well
jie: 我明早八点的航班，十一点半落地曹家堡 #jie_flight
dong: 我今天先飞西宁，明早提车，十一点到机场接你们 #dong_pickup
== 2026-07-26 21:50
yu: 今天开了一路，青海湖蓝得不真实
mi: 在二郎剑拍照时头有点疼，吸了两口氧就好了 #mi_oxygen
dong: 晚饭的牦牛肉火锅可以，老板还送了壶酥油茶
jie: 明早五点半起看日出，闹钟都定好了 #sunrise_alarm
yu: 同事说到了敦煌一定要吃驴肉黄面 #yu_huangmian
dong: 我只惦记沙洲夜市的杏皮水 #dong_xingpi
""", [
    ("yu", "最后租的是哪家的什么车", ["car_final"], "update", ["car_first"]),
    ("dong", "湖边那晚最后订的是哪家，多少钱", ["hotel_lake_final"], "update",
     ["hotel_lake_first"]),
    ("jie", "米米这趟到底去不去", ["mi_back", "mi_well"], "update", ["mi_out"]),
    ("mi", "车钱现在是几个人平摊", ["split_four", "bot_car_split"], "update",
     ["split_three"]),
    ("yu", "米米为啥一段都不开", ["mi_nodrive"], "paraphrase", []),
    ("mi", "去之前怎么防高原反应，小助手是怎么说的", ["bot_altitude"], "paraphrase", []),
    ("dong", "谁说要给每人带一盒防高反的药", ["mi_rhodiola"], "paraphrase", []),
    ("mi", "从西宁开去湖边那天谁握方向盘", ["leg_yu"], "paraphrase", []),
    ("yu", "最后翻山那段阿杰和东哥多久换一次手", ["swap_2h"], "paraphrase", []),
    ("jie", "东哥推荐的那家羊肉馆在哪条街", ["dong_mutton"], "paraphrase", []),
    ("dong", "小雨同事安利的那家店在哪条巷子", ["yu_yogurt"], "paraphrase", []),
    ("yu", "当初为啥没租成第一家的车", ["car_problem"], "paraphrase", []),
    ("mi", "租车的钱我得出多少", ["bot_car_split"], "paraphrase", []),
    ("jie", "在敦煌住的那家叫什么", ["hotel_dunhuang"], "paraphrase", []),
    ("mi", "去盐湖脚上要穿什么", ["jie_boots"], "paraphrase", []),
    ("yu", "米米生病那会小助手怎么说的", ["bot_cold"], "paraphrase", []),
    ("mi", "莫高窟约的是哪天几点", ["mogao_got"], "temporal", []),
    ("dong", "阿杰请的是哪几天假", ["jie_leave"], "temporal", []),
    ("dong", "脸基尼是谁推荐的", ["mi_facekini"], "lexical", []),
    ("jie", "尕娃酿皮是谁收藏的", ["mi_niangpi"], "lexical", []),
    ("mi", "大柴旦住的哪家", ["hotel_dachaidan"], "lexical", []),
    ("yu", "汉兰达比原来看的那辆一天贵多少", ["car_first", "car_final"], "multi_hop", []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"group_{lang}")
