#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Generate bench/data/companion_en.json and companion_zh.json: one-to-one companion chats.

All dialogue and question text in this file is original, written for the chatmem
project (same licence as the project). Nothing is copied from an existing dataset.

Usage:
    python3 bench/data/make_companion.py     # writes companion_en.json, companion_zh.json

Unlike zh_chat (group and private chats of several people, a few long sessions),
each conversation here is ONE user talking to the assistant, one session per day
(a ``webui`` private chat), over 10+ days; the questions are what that user asks
afterwards about earlier days ("what did you suggest for ...", "when did I ...").

Text format of a conversation (``DAYS``):
    == 2026-03-02 20:15   a new day = a new session; the clock starts here
    u: content            a user message; the next message comes 1-4 minutes later
    a: content #label     an assistant message; " #label" names it for the questions
Questions: (question, [gold labels], type, [stale labels]). ``update`` questions ask
for the current state; their gold is the newer statement and ``stale`` the older
one(s) it replaced.
"""
import json
import random
import re
from datetime import datetime, timedelta
from pathlib import Path

HERE = Path(__file__).parent
QTYPES = {"paraphrase", "lexical", "temporal", "multi_hop", "update"}
_DAY_RE = re.compile(r"^== (\d{4}-\d{2}-\d{2} \d{2}:\d{2})$")
_LINE_RE = re.compile(r"^([ua]): (.+?)(?:\s+#([a-z][a-z0-9_]*))?$")
SETS = {"en": [], "zh": []}
BOT = {"en": "Assistant", "zh": "小助手"}
TZ = {"en": "+01:00", "zh": "+08:00"}


def conv(lang, cid, user_id, user_name, days, questions):
    SETS[lang].append((cid, user_id, user_name, days, questions))


def build_conv(lang, cid, user_id, user_name, days, questions):
    rng = random.Random(cid)
    sessions, labels, cur, msgs = [], {}, None, None
    for raw in days.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        m = _DAY_RE.match(line)
        if m:
            new = datetime.strptime(m.group(1), "%Y-%m-%d %H:%M")
            if cur is not None and new <= cur:
                raise ValueError(f"{cid}: day goes backwards at {line}")
            cur = new
            sid = f"{cid}-d{len(sessions) + 1:02d}"
            msgs = []
            sessions.append({"id": sid, "platform": "webui", "chat_type": "private",
                             "messages": msgs})
            continue
        m = _LINE_RE.match(line)
        if not m or msgs is None:
            raise ValueError(f"{cid}: bad line {line!r}")
        who, content, label = m.groups()
        cur += timedelta(seconds=rng.randint(40, 240))
        mid = f"{sessions[-1]['id']}-{len(msgs) + 1:03d}"
        bot = who == "a"
        msgs.append({"id": mid, "ts": cur.strftime("%Y-%m-%dT%H:%M:%S") + TZ[lang],
                     "role": "assistant" if bot else "user",
                     "speaker_id": "bot" if bot else user_id,
                     "speaker_name": BOT[lang] if bot else user_name,
                     "content": content, "mentions": []})
        if label:
            if label in labels:
                raise ValueError(f"{cid}: duplicate label {label}")
            labels[label] = mid
    if len(sessions) < 10:
        raise ValueError(f"{cid}: {len(sessions)} days, want 10+")
    out_q = []
    for text, golds, qtype, stale in questions:
        if qtype not in QTYPES or (qtype == "update") != bool(stale):
            raise ValueError(f"{cid}: {qtype} with stale {stale}: {text}")
        missing = [g for g in [*golds, *stale] if g not in labels]
        if missing:
            raise KeyError(f"{cid}: unknown label(s) {missing}")
        q = {"conversation": cid, "asker_id": user_id, "session": sessions[-1]["id"],
             "question": text, "gold": [labels[g] for g in golds], "type": qtype}
        if stale:
            q["stale"] = [labels[s] for s in stale]
        out_q.append(q)
    speakers = [{"id": user_id, "name": user_name}, {"id": "bot", "name": BOT[lang]}]
    return {"id": cid, "speakers": speakers, "sessions": sessions}, out_q


def build(lang):
    conversations, questions = [], []
    for spec in SETS[lang]:
        c, qs = build_conv(lang, *spec)
        conversations.append(c)
        for q in qs:
            questions.append({"id": f"{lang}q{len(questions) + 1:03d}", **q})
    return {"version": 1, "language": lang, "conversations": conversations,
            "questions": questions}


# ---------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------
conv("en", "en01", "u_maya", "Maya", """
== 2026-03-02 21:10
u: long shift today, the ward was chaos and I barely ate
a: That sounds draining. Did you manage anything warm when you got home?
u: just toast. I live in Paris, tiny flat in the 11th, the kitchen is basically a cupboard #live_paris
a: A cupboard kitchen still fits a one-pan dinner. Want a couple of ideas for nights like this?
u: yes please, nothing that needs an oven
a: Try a chickpea and spinach skillet: garlic, a tin of chickpeas, a bag of spinach, lemon at the end. Fifteen minutes, one pan #chickpea_skillet
u: I'll try that tomorrow
a: Good. And drink some water before bed, shifts like that dehydrate you more than you notice
== 2026-03-03 20:40
u: made the chickpea thing, it was honestly good #chickpea_made
a: Glad it worked! Did you add the lemon?
u: yes and some chili flakes
a: Nice touch. Chili flakes keep well, worth having a jar around
u: my sister Ines is visiting in April, I have no idea where she'll sleep #sister_ines
a: An inflatable mattress or a folding guest bed could work in a small flat. How long is she staying?
u: probably five days
a: For five days a decent air mattress with a built-in pump is the least hassle #air_mattress
== 2026-03-05 22:05
u: can't sleep again. my mind keeps replaying the shift
a: That happens a lot after intense days. Would a short wind-down routine help?
u: maybe, what would you do
a: Try the 4-7-8 breathing: breathe in for 4, hold for 7, out for 8, four rounds. Then write three things from the day on paper so your head can let them go #breathing_478
u: ok trying now
a: Take your time. I'll be here if you want to talk after
u: that actually slowed my heart down
== 2026-03-07 11:30
u: day off finally. thinking of taking up running
a: Great idea for a day off. Have you run before?
u: not since school. my knees are a bit dodgy
a: Then start with run-walk intervals: one minute running, two minutes walking, for 20 minutes, three times a week. Soft surfaces like the canal path are kinder to knees #run_walk
u: the canal is close to me actually
a: Perfect. Good shoes matter more than anything else at the start
u: I'll go to a running shop and get my gait checked
== 2026-03-09 19:50
u: went for my first run walk thing. legs are jelly
a: Well done! How did the knees feel?
u: fine, surprisingly. also my manager asked if I want to switch to night shifts permanently #nights_offer
a: That's a big decision. What would you gain?
u: more pay, 20 percent extra, but I'd see friends less #nights_pay
a: Maybe list what matters most this year: money for the move you mentioned wanting someday, or your social life. No need to decide tonight
u: true. I'll sleep on it
== 2026-03-11 21:15
u: ok I said yes to the night shifts. starting next month #nights_yes
a: Congratulations on deciding. Want some tips for switching your sleep?
u: yes, I'm scared of being a zombie
a: Keep the bedroom fully dark with blackout curtains, sleep right after the shift instead of staying up, and keep the same schedule on days off as far as you can #night_sleep_tips
u: blackout curtains, noted
a: And a small protein snack before sleeping helps you not wake up hungry
== 2026-03-14 18:20
u: Ines booked her flight! arrives April 9 #ines_dates
a: How lovely! What do you two want to do while she's here?
u: she loves old bookshops and wants to see a concert
a: Shakespeare and Company is obvious, but the smaller shops around the Latin Quarter are quieter. For music, check the small jazz clubs near Châtelet #ines_plans
u: jazz is a great idea, she plays saxophone #ines_sax
a: Then she'll love it. Book early, the good nights sell out
== 2026-03-17 20:05
u: I've been feeling lonely lately, most of my friends moved away
a: I'm sorry, that's a hard feeling, especially with changing shifts. Have you looked at any groups?
u: not really
a: A running club could be a natural fit since you started running. Many meet on weekend mornings, which works with night shifts. Or a volunteer choir #lonely_club
u: the running club might work
a: Start with one session. You don't have to commit to anything yet
== 2026-03-21 10:45
u: went to the running club!! they were so nice #joined_club
a: That's wonderful, Maya! How was the pace?
u: there was a slow group, I wasn't last
a: Perfect. Consistency beats speed
u: also I'm vegetarian now, decided this week. feeling good about it #veggie
a: Nice! Make sure you get iron and B12, especially with nights and running. Lentils, tofu, fortified cereal, maybe a B12 supplement #iron_b12
== 2026-03-25 22:30
u: big news. my partner Tom got a job in Berlin #tom_job
a: Wow! How do you feel about it?
u: excited and terrified. we're going to move together at the end of summer #move_plan
a: That's a lot to take in. What's the hardest part?
u: leaving my job and learning German
a: For German, a daily 15 minutes with an app plus one evening class a week is a good start. Nurses are in demand there, but you'll need your diploma recognized, start that paperwork early #german_plan
u: I didn't know about the recognition thing
a: It can take months, so it's worth starting now
== 2026-04-02 19:00
u: first week of nights done
a: How are you holding up?
u: the curtains help. I'm eating at 3am though which is weird
a: That's normal. Keep it light: yogurt, nuts, a banana. Heavy meals at 3am make the next sleep worse #night_snack
u: yogurt it is
== 2026-04-15 17:40
u: Ines left this morning, it was the best week #ines_done
a: I'm so glad! What was the highlight?
u: the jazz club, she got to jam on stage for a song #ines_jam
a: That's a memory she won't forget
u: she forgot her scarf though haha
== 2026-09-03 20:10
u: hi! writing from Berlin, we moved last week, our flat is in Neukölln #live_berlin
a: Welcome to Berlin! How's the new place?
u: big kitchen finally!!
a: Time to upgrade from the one-pan dinners then
u: my diploma recognition came through, I start at a hospital in October #recognized
a: That's fantastic news, all that early paperwork paid off
== 2026-09-10 21:30
u: the big kitchen is dangerous, I bought a wok and three cookbooks
a: Ha, a wok opens up a lot. What's the first dish?
u: a tofu stir fry, still vegetarian
a: Press the tofu for ten minutes and fry it before the vegetables so it crisps
u: Tom says the flat smells like garlic permanently now
a: That's the sign of a good kitchen
u: the neighbours downstairs have a cat that sits on our balcony
a: Sounds like you've been adopted
== 2026-09-18 22:45
u: I can't sleep again, the new hospital orientation is stressing me
a: New job nerves are normal. What part worries you most?
u: the German. what if I misunderstand a doctor
a: It's fine to ask people to repeat, and to write key orders down. Most colleagues will respect that you check
u: I still do my breathing thing sometimes
a: Good, keep it as a habit rather than only an emergency tool
u: and Tom made me chamomile tea
a: Tom is a keeper
== 2026-09-25 19:20
u: found a running club in Tempelhof, going Saturday
a: Exciting! Running on the old airfield sounds amazing
u: my knees are much better than in spring
a: Months of run-walk paid off. Still build up slowly with the new group
u: Ines wants to visit Berlin at Christmas
a: Lovely, and this time you have a proper guest room?
u: a sofa bed at least, the air mattress is retired
a: An upgrade for her
""", [
    ("Which city am I living in now?", ["live_berlin"], "update", ["live_paris"]),
    ("what was that quick dinner you told me to make when I had no oven", ["chickpea_skillet"],
     "paraphrase", []),
    ("What did you suggest for my sister's bed when she came to stay?", ["air_mattress"],
     "paraphrase", []),
    ("what was the breathing trick for when I can't fall asleep", ["breathing_478"],
     "paraphrase", []),
    ("How did you tell me to ease into running with my bad knees?", ["run_walk"],
     "paraphrase", []),
    ("how much more money would the night work pay", ["nights_pay"], "lexical", []),
    ("Did I end up accepting the night work?", ["nights_yes"], "update", ["nights_offer"]),
    ("what were your tips for sleeping during the day", ["night_sleep_tips"], "paraphrase", []),
    ("When was Ines landing?", ["ines_dates"], "temporal", []),
    ("where did you recommend taking my sister", ["ines_plans"], "paraphrase", []),
    ("What did you say I could do about feeling isolated?", ["lonely_club"], "paraphrase", []),
    ("when did I first go to the running group", ["joined_club"], "temporal", []),
    ("what should I watch out for nutrition-wise since I stopped eating meat",
     ["iron_b12"], "paraphrase", []),
    ("Why are we moving to Germany?", ["tom_job"], "paraphrase", []),
    ("what did you advise about learning the language and my nursing papers",
     ["german_plan"], "paraphrase", []),
    ("What should I eat in the middle of the night at work?", ["night_snack"],
     "paraphrase", []),
    ("what was the best part of my sister's trip", ["ines_jam"], "paraphrase", []),
    ("which neighbourhood is our new apartment in", ["live_berlin"], "lexical", []),
    ("When do I start the new hospital job?", ["recognized"], "temporal", []),
    ("what instrument does Ines play and where did she get to perform",
     ["ines_sax", "ines_jam"], "multi_hop", []),
    ("Which part of Paris was my old flat in?", ["live_paris"], "lexical", []),
    ("what did I say when I first tried the chickpea dish", ["chickpea_made"],
     "lexical", []),
])

conv("en", "en02", "u_daniel", "Daniel", """
== 2026-05-04 09:20
u: morning. retired three weeks now and already bored of crosswords
a: Congratulations on the retirement! What did you enjoy doing before work took over?
u: I used to grow vegetables with my dad. I've got a small back garden, mostly lawn #garden_lawn
a: A couple of raised beds on the sunny side would be an easy start. Tomatoes, runner beans and courgettes are forgiving for a first season #raised_beds
u: the sunny side is by the shed
a: Then that's your spot. Make the beds no wider than 1.2 metres so you can reach the middle
== 2026-05-05 10:05
u: my doctor says my blood pressure is high, put me on 5 mg of amlodipine #bp_5mg
a: Thanks for telling me. Did she say anything about salt or exercise?
u: cut salt and walk more
a: A brisk 30-minute walk most days helps a lot. I can remind you if you like
u: no reminders, my wife Carol nags enough haha #wife_carol
a: Fair enough! Carol has my full support then
== 2026-05-07 16:30
u: built the raised beds today, my back is killing me
a: Well done, but go easy. Lift with your knees and take breaks every half hour
u: what do I fill them with
a: A mix of about 60 percent topsoil and 40 percent compost. Garden centres sell bulk bags, cheaper than sacks #soil_mix
u: bulk bag it is, they deliver
== 2026-05-09 19:15
u: my grandson Leo turns 8 next month, no idea what to get him #leo_birthday
a: What's he into these days?
u: dinosaurs and building things
a: A build-your-own dinosaur skeleton kit, or a starter Lego Technic set. Or, since you garden now, his own little bed with fast growers like radishes and sunflowers #leo_gift_ideas
u: the sunflower idea is lovely, he could race his sister
a: A sunflower height contest, that's a summer project for the whole family
== 2026-05-12 08:40
u: slugs ate half my lettuce overnight
a: Sorry! Beer traps work: sink a yogurt pot of cheap beer into the soil near the plants. Copper tape on the bed edges helps too #slug_traps
u: beer for slugs, what a world
a: They die happy, at least
== 2026-05-15 12:00
u: the 5 mg is making my ankles swell
a: Ankle swelling is a known side effect of amlodipine. Please mention it to your doctor rather than stopping on your own #ankle_swelling
u: I've got an appointment Tuesday
a: Good, write down when the swelling started so you can tell her
== 2026-05-19 17:50
u: doctor switched me to 2.5 mg and added a water tablet #bp_25mg
a: That's a common adjustment. How do you feel about it?
u: fine. she wants me to check my pressure at home twice a week
a: A cuffed upper-arm monitor is more reliable than a wrist one. Sit quietly for five minutes before measuring #bp_monitor
u: Carol found one on sale already
== 2026-05-23 14:25
u: we're getting a dog! a rescue greyhound called Biscuit #dog_biscuit
a: How exciting! Greyhounds are gentle and surprisingly lazy indoors
u: is my garden safe for him
a: Check the fence is at least 1.5 metres high and fence off the vegetable beds, and keep slug pellets out entirely, they're poisonous to dogs. Beer traps are fine #dog_safety
u: good thing I went with the beer
== 2026-05-28 18:10
u: Biscuit has settled in, sleeps 18 hours a day
a: Classic greyhound. Are you walking him together with your own walks?
u: yes two walks a day, my pressure readings are better already #bp_better
a: That's great to hear, two birds with one stone
== 2026-06-02 11:35
u: tomatoes are flowering. do I need to do anything
a: Pinch out the side shoots that grow between the main stem and the leaves, and tie the main stem to a cane. Start feeding with tomato feed once a week when the first fruits set #tomato_care
u: pinch out side shoots, got it
== 2026-06-10 20:00
u: Leo's party was Saturday, he loved the sunflower seeds and planted them straight away #leo_party
a: That's lovely. Did he get a bed of his own?
u: a corner of mine, he named it Leo's Jungle #leo_jungle
a: Perfect name
u: his sister wants one now too
== 2026-06-14 09:50
u: bad news, Biscuit went back to the rescue, he kept going for the neighbour's cats #biscuit_returned
a: I'm sorry, Daniel. That must have been a hard decision
u: we're looking at a calmer older dog now, a spaniel called Rosie #dog_rosie
a: An older spaniel could be a good match for your walks and the garden
== 2026-06-20 16:15
u: Rosie is home with us. she's 9 and very sweet #rosie_home
a: Welcome Rosie! Older dogs often settle in faster
u: she's already asleep on Carol's feet
== 2026-06-24 10:10
u: Leo's sunflowers are taller than him already
a: Amazing! Who's winning the contest?
u: his sister's is ahead by a hand
a: He'll want a rematch next year
u: the courgettes are out of control, we've eaten them every day this week
a: Courgette glut is a rite of passage. Grate them into fritters or give them to the neighbours
u: Carol made courgette cake, not bad
== 2026-06-28 17:30
u: Rosie doesn't like the rain, refuses to go out
a: Many older spaniels are like that. A short walk in a dog raincoat might help
u: a raincoat for a dog, Carol will love that
a: Keep walks shorter on wet days and do a longer one when it's dry
u: my pressure was 128 over 80 this morning
a: That's a good reading, keep logging it for the doctor
== 2026-07-03 19:45
u: the calligraphy club at the library wants new members, Carol is joining
a: Nice, a hobby of her own
u: I'll stick with the garden
a: Your beds are a hobby and exercise together
u: the shed needs a new roof though
a: Felt roofing is a one-day job for two people, pick a dry weekend
u: my son will help on Saturday
""", [
    ("What dog do we have at the moment?", ["dog_rosie"], "update", ["dog_biscuit"]),
    ("what dose of my blood pressure tablet am I on now", ["bp_25mg"], "update", ["bp_5mg"]),
    ("What vegetables did you say were easy for a first season?", ["raised_beds"],
     "paraphrase", []),
    ("what did you recommend filling the new beds with", ["soil_mix"], "paraphrase", []),
    ("Gift ideas you gave me for my grandson?", ["leo_gift_ideas"], "paraphrase", []),
    ("how do I stop those creatures eating my salad leaves", ["slug_traps"],
     "paraphrase", []),
    ("What did you say about my swollen feet from the medication?", ["ankle_swelling"],
     "paraphrase", []),
    ("which kind of pressure cuff did you tell me to buy", ["bp_monitor"], "paraphrase", []),
    ("What did you warn me about for keeping the garden safe for a pet?", ["dog_safety"],
     "paraphrase", []),
    ("how should I look after the tomato plants once they flower", ["tomato_care"],
     "paraphrase", []),
    ("When did I say my readings were improving?", ["bp_better"], "temporal", []),
    ("what happened with the greyhound", ["biscuit_returned"], "paraphrase", []),
    ("What's my wife's name?", ["wife_carol"], "lexical", []),
    ("how old is Leo turning", ["leo_birthday"], "lexical", []),
    ("What did Leo call his patch of the garden?", ["leo_jungle"], "lexical", []),
    ("when did I first go on the blood pressure medicine", ["bp_5mg"], "temporal", []),
    ("What did the doctor change at the Tuesday appointment?", ["bp_25mg"], "paraphrase", []),
    ("what was the garden like before I started growing things", ["garden_lawn"],
     "paraphrase", []),
    ("Which gift idea did Leo actually get, and what did he do with it?",
     ["leo_gift_ideas", "leo_party"], "multi_hop", []),
    ("How old is the dog we adopted second?", ["rosie_home"], "lexical", []),
])

conv("en", "en03", "u_priya", "Priya", """
== 2026-10-05 22:40
u: first week of my master's and I'm already behind on readings
a: First weeks are overwhelming for almost everyone. What's the programme?
u: environmental science, in Leeds. I'm doing my thesis on urban heat islands #thesis_heat
a: A timely topic. For readings, try skimming abstract, figures and conclusion first, and only read in full what you'll actually cite #skim_method
u: that would save me hours
== 2026-10-07 23:15
u: my flatmate plays drums at midnight. I'm losing it
a: That's rough. Have you talked to her directly yet?
u: no, I hate confrontation
a: You could frame it as a shared rule rather than a complaint: suggest quiet hours after 10pm for everyone, and offer something in return, like keeping the kitchen free for her in the mornings #quiet_hours
u: ok that feels less scary
== 2026-10-09 19:30
u: the quiet hours chat went fine! she agreed to stop at 10 #quiet_hours_ok
a: Brilliant, well done for doing the hard thing
u: also I'm trying to eat cheaper, my budget is 35 pounds a week for food #budget_35
a: That's doable. Batch cook a big pot of dal or chili on Sunday, buy rice and oats in bulk, and shop the reduced section in the evening #budget_tips
u: reduced section at 8pm, the student secret
== 2026-10-12 18:05
u: I have a presentation on Thursday and I get so nervous my voice shakes
a: Very common. Rehearse out loud three times, once in front of someone. On the day, slow your first sentence right down and take a sip of water before starting #presentation_tips
u: slow first sentence. ok
a: And remember the audience wants you to do well
== 2026-10-16 20:20
u: presentation done! my voice shook for ten seconds then it was fine #presentation_done
a: That's a win. The first seconds are always the worst
u: my supervisor said I should narrow the thesis to just Leeds city centre #narrow_centre
a: Narrowing usually makes a thesis stronger. Do you have temperature data for the centre?
u: the council has sensor data, I need to request it
== 2026-10-20 21:50
u: feeling homesick. my mum's cooking mostly
a: That's completely understandable. What dish do you miss most?
u: her rajma chawal #rajma_miss
a: Maybe call her and cook it together on video, it's a way to be home for an hour #cook_with_mum
u: that's such a nice idea, I'll ask her for Sunday
== 2026-10-26 17:30
u: cooked rajma with mum on video, it wasn't as good as hers but close #rajma_done
a: That sounds like a lovely evening. Close is good for a first try
u: she made me promise to call every Sunday now
== 2026-11-02 22:10
u: I'm thinking of a part-time job, money is tight
a: How many hours could you do without hurting your studies?
u: maybe 12 a week
a: Campus jobs fit best around lectures: library, student union cafe, or research assistant roles in your own department, which also look good on a CV #job_ideas
u: research assistant would be amazing
== 2026-11-06 19:40
u: got a research assistant job in the geography department, 10 hours a week #ra_job
a: Congratulations! That's perfect for your field
u: I'll be cleaning sensor data, which is literally my thesis skill
== 2026-11-12 20:35
u: update on the thesis, my supervisor and I changed it, now it's about green roofs cooling buildings #thesis_roofs
a: A big change! What made you switch?
u: the council data was a mess and a lab has green roof data ready #thesis_why
a: Ready data is a huge advantage on a one-year master's
== 2026-11-18 21:00
u: food budget went up to 45 a week now that I have the job #budget_45
a: That gives you a bit of breathing room. Maybe add more fresh vegetables
u: and the occasional takeaway
== 2026-11-24 18:50
u: the drums are back. she says quiet hours were only for October
a: Ugh, sorry. Maybe it's time to involve the landlord or agree a written house agreement #drums_again
u: I'll suggest writing it down first
== 2026-11-28 22:15
u: the written house agreement worked, quiet after 11 now on weekdays
a: That's a fair compromise, and written down this time
u: I bought earplugs for weekends anyway
a: Belt and braces
u: my supervisor liked my green roof literature review
a: Congratulations! That's a big milestone
u: next step is the data analysis
== 2026-12-03 20:40
u: I'm going home for Christmas, flights are so expensive
a: Booking midweek usually saves money. Is it Manchester to Delhi?
u: yes, leaving December 19
a: Pack light and bring your thesis notes, long flights are good for reading
u: mum already planned a menu for me
a: I bet rajma is on it
u: obviously
== 2026-12-08 21:10
u: I'm worried I'm not social enough, I only talk to my flatmate and lab people
a: The lab counts! Is there a society you liked at freshers' fair?
u: there was a hiking society
a: Hiking is a great fit for an environmental scientist, and their trips are often at weekends
u: they go to the Yorkshire Dales on Sunday
a: Give it one try
""", [
    ("What is my thesis about now?", ["thesis_roofs"], "update", ["thesis_heat"]),
    ("how much am I spending on groceries a week at the moment", ["budget_45"], "update",
     ["budget_35"]),
    ("what was your trick for getting through the readings faster", ["skim_method"],
     "paraphrase", []),
    ("How did you suggest I bring up the noise with my flatmate?", ["quiet_hours"],
     "paraphrase", []),
    ("What were your ideas for eating on a tight budget?", ["budget_tips"], "paraphrase", []),
    ("what did you say to do about my shaky voice when presenting", ["presentation_tips"],
     "paraphrase", []),
    ("How did my talk go in the end?", ["presentation_done"], "paraphrase", []),
    ("what did my supervisor want me to focus the study area on", ["narrow_centre"],
     "paraphrase", []),
    ("What did you suggest when I was missing home?", ["cook_with_mum"], "paraphrase", []),
    ("which dish of mum's do I miss most", ["rajma_miss"], "lexical", []),
    ("What kinds of part-time work did you suggest?", ["job_ideas"], "paraphrase", []),
    ("how many hours is my assistant job", ["ra_job"], "lexical", []),
    ("when did I get the job in the geography department", ["ra_job"], "temporal", []),
    ("Which university city am I studying in?", ["thesis_heat"], "lexical", []),
    ("what happened when I tried making my mum's recipe", ["rajma_done"], "paraphrase", []),
    ("What did you say to do when the drumming started again?", ["drums_again"],
     "paraphrase", []),
    ("Why did I change the thesis topic?", ["thesis_why"], "paraphrase", []),
    ("how long did my voice shake in the presentation", ["presentation_done"], "lexical", []),
    ("Does my assistant job have anything to do with my thesis work, and what is the "
     "thesis on now?", ["ra_job", "thesis_roofs"], "multi_hop", []),
    ("What did my flatmate agree to at first?", ["quiet_hours_ok"], "paraphrase", []),
])

conv("en", "en04", "u_sam", "Sam", """
== 2026-01-08 19:10
u: new year, new me, or so I keep telling myself
a: Ha, what's on the list this year?
u: commute by bike instead of driving, and stop eating takeaway every night
a: Two solid goals. How far is your commute?
u: 9 km each way, mostly flat. I drive a 2014 Golf right now #drive_golf
a: 9 km flat is very bikeable, around 30 minutes. Try it twice a week first, on dry days #bike_twice
== 2026-01-10 12:40
u: which bike should I get, budget about 600
a: For 9 km of city riding a hybrid with mudguards and a rack is ideal. At that price look at second-hand for a better frame #hybrid_bike
u: second hand scares me, what if it's stolen
a: Ask for the receipt or frame number and check it on a stolen bike register before paying #frame_check
== 2026-01-13 20:25
u: bought a used grey Trek hybrid for 450, frame number checked out #bought_trek
a: Nice find! Get a solid D-lock, your bike is only as safe as its lock
u: the shop threw in lights too
== 2026-01-16 21:00
u: about the takeaway thing, I can't cook at all honestly
a: Let's start with three dinners you can rotate. Can you handle a frying pan and a pot?
u: yes
a: Week one: omelette with whatever veg you have, pasta with tinned tomatoes and tuna, and a stir-fry with frozen veg and egg noodles #three_dinners
u: I can do that
== 2026-01-20 18:35
u: rode to work twice this week! the rain on Tuesday was brutal #first_rides
a: Well done, twice in the first week is exactly the plan. Waterproof trousers make rainy days bearable
u: my colleague Aisha laughed at my helmet hair
a: Keep a small comb and deodorant in your desk drawer #desk_kit
== 2026-01-24 11:15
u: cooked all three dinners this week, the stir fry was the best #cooked_three
a: Brilliant! Ready to add a fourth?
u: sure
a: Sheet-pan chicken thighs with potatoes and peppers: everything on one tray, 40 minutes at 200 degrees #sheet_pan
== 2026-01-29 22:30
u: my girlfriend Lena thinks I'm obsessed with the bike now #lena
a: Maybe invite her on a weekend ride, somewhere with a cafe at the end
u: she doesn't have a bike
a: Many cities have bike-share, that's a no-commitment way to try #bike_share
== 2026-02-04 20:45
u: I rode every day this week, five out of five #five_days
a: That's a big step up from twice! How do your legs feel?
u: fine, I'm thinking of selling the car honestly
a: Worth working out what the car costs you per month first: insurance, tax, parking, repairs #car_costs
u: parking alone is 120 a month #five_days_parking
== 2026-02-09 19:20
u: sold the Golf! got 5200 for it #sold_car
a: Congratulations, a real commitment! Any plans for the money?
u: half into savings and half for a trip with Lena
== 2026-02-14 21:10
u: valentine's dinner, I cooked the sheet pan chicken for Lena, she was impressed #valentine
a: From takeaway every night to cooking for a date in five weeks, that's impressive
u: she wants to learn to ride properly now
== 2026-02-20 18:00
u: someone stole my front wheel at the station
a: Oh no, sorry. Quick-release wheels are an easy target. Lock the frame and front wheel together with the D-lock, or swap to locking skewers #wheel_stolen
u: locking skewers, ordered
== 2026-02-27 20:30
u: Lena and I booked the trip, cycling along the Danube in May #danube_trip
a: What a fantastic use of the car money! How long?
u: a week, Passau to Vienna, we rent e-bikes for her
a: Good choice, she can keep up without stress
== 2026-03-05 19:00
u: we tested e-bikes at the shop, Lena loved it
a: Great, she'll be ready for the Danube
u: I also got a second lock for the station
a: Two different types of lock slow thieves down a lot
u: my colleague Aisha wants to start commuting by bike too
a: You could ride in together the first few times
u: she lives near the park, on my way
== 2026-03-10 20:30
u: I tried making a curry from scratch, too much chili
a: Yogurt or coconut milk can calm it down next time
u: Lena ate it anyway, brave woman
a: That's love
u: I'm cooking five nights a week now, takeaway only on Fridays
a: That's a huge change from January
u: and I saved about 200 this month
== 2026-03-15 11:40
u: rode 60 km on Saturday with Aisha, training for the trip
a: That's a big ride! How did your legs feel?
u: tired but fine
a: For a week of touring, try two long rides back to back one weekend before you go
u: good idea, maybe in April
a: And check your tyres and brakes before the trip
""", [
    ("How do I get to work these days?", ["five_days", "sold_car"], "update",
     ["drive_golf"]),
    ("what did I get for the car when I sold it", ["sold_car"], "lexical", []),
    ("What kind of bike did you recommend for my commute?", ["hybrid_bike"], "paraphrase",
     []),
    ("how did you say I could avoid buying a stolen bike", ["frame_check"], "paraphrase", []),
    ("What bike did I end up buying and for how much?", ["bought_trek"], "paraphrase", []),
    ("which easy meals did you give me to start cooking", ["three_dinners"], "paraphrase", []),
    ("What should I keep at the office for after riding?", ["desk_kit"], "paraphrase", []),
    ("what was the fourth recipe you added", ["sheet_pan"], "paraphrase", []),
    ("How did you suggest getting my girlfriend to ride with me?", ["bike_share"],
     "paraphrase", []),
    ("What did you say I should work out before getting rid of the car?", ["car_costs"],
     "paraphrase", []),
    ("when did I sell my car", ["sold_car"], "temporal", []),
    ("What did I cook on Valentine's Day?", ["valentine"], "lexical", []),
    ("how do I stop my wheel being nicked again", ["wheel_stolen"], "paraphrase", []),
    ("Where are Lena and I going in May?", ["danube_trip"], "lexical", []),
    ("when did I first manage a full week of riding to work", ["five_days"], "temporal", []),
    ("What was my favourite of the first three dinners?", ["cooked_three"], "paraphrase", []),
    ("how long is my commute", ["drive_golf"], "lexical", []),
    ("What's my girlfriend's name?", ["lena"], "lexical", []),
    ("How often was I supposed to ride at the start?", ["bike_twice"], "paraphrase", []),
    ("What am I doing with the money from the car, and what did we book with it?",
     ["sold_car", "danube_trip"], "multi_hop", []),
    ("how much is parking a month", ["five_days_parking"], "lexical", []),
])

# ---------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------
conv("zh", "cz01", "u_xiaoyu", "小雨", """
== 2026-03-02 22:15
u: 今天加班到九点，回到出租屋整个人都空了
a: 辛苦了，晚饭吃了吗？
u: 没，点了个外卖还没到。我现在住在成都高新区，一个人租的单间 #live_chengdu
a: 一个人在外面更要照顾好自己。要不要我给你几个十分钟能做好的晚饭？
u: 好啊，我只有一个电饭锅 #only_cooker
a: 电饭锅可以直接煮腊肠饭：米洗好，放两根腊肠和一把青菜，按煮饭键就行，出锅淋点生抽 #rice_cooker_meal
u: 这个我能行
== 2026-03-04 21:40
u: 腊肠饭做了，居然挺香 #rice_done
a: 太好了！下次可以换成香菇鸡腿肉
u: 我们组长今天又在群里阴阳怪气，说我方案写得像小学生作文 #old_boss
a: 听着挺伤人的。他有具体说哪里不好吗？
u: 没有，就是嘲讽 #leader_advice_q
a: 可以私下约他十分钟，请他指出具体要改的三点，用书面形式记下来，这样下次就有据可依 #leader_advice
== 2026-03-06 23:30
u: 又失眠了，脑子停不下来
a: 试试睡前把手机放到客厅充电，躺下后做几轮腹式呼吸：吸气四秒，肚子鼓起来，呼气六秒 #sleep_tip
u: 手机放客厅有点难
a: 可以先从放到够不着的书桌上开始
== 2026-03-08 11:20
u: 周末想开始健身，但是办卡太贵了
a: 可以先在家练：深蹲、俯卧撑、平板支撑，每个三组，一周三次，半个月后再决定要不要办卡 #home_workout
u: 俯卧撑我一个都做不起来
a: 那就先跪姿俯卧撑或者推墙，慢慢来
== 2026-03-11 20:10
u: 我妈打电话又催我相亲，说有个在银行上班的男生 #blind_date
a: 你自己是怎么想的？
u: 不太想去，但又怕她伤心
a: 可以跟妈妈说清楚你现在的重心是工作和身体，愿意见一次但不保证结果，先把期待降下来 #mom_talk
u: 见一面应该也还好
== 2026-03-15 19:45
u: 见完了，人挺好但是没感觉 #date_result
a: 没感觉也是一种答案，至少你试过了
u: 我妈说再处处看，我真的头大
a: 可以直接告诉她你们聊过了，不合适，对方也值得遇到更合适的人
== 2026-03-19 21:05
u: 好消息！我养了一只猫，橘猫，叫土豆 #cat_tudou
a: 恭喜！土豆多大了？
u: 三个月，朋友家猫生的 #cat_tudou_age
a: 小猫要记得打疫苗和驱虫，猫砂盆放在安静的角落，和饭碗离远一点 #kitten_care
== 2026-03-24 22:40
u: 组长被调走了，新来的主管人很好，还夸我的方案 #new_boss
a: 真替你开心，努力总算被看到了
u: 感觉上班都没那么难受了
== 2026-04-01 20:30
u: 家里练了三周，今天终于做了五个标准俯卧撑 #pushups_five
a: 太厉害了！从零到五个进步很大
u: 我决定办卡了，楼下的健身房月卡199 #gym_card
a: 可以，办之前先约一节免费体验课，让教练看看你的深蹲姿势
== 2026-04-08 21:15
u: 土豆把我新买的绿萝啃了
a: 绿萝对猫有毒，最好把它放到猫够不到的地方或者送人，可以换成猫草 #pothos_toxic
u: 啊？我赶紧挪走
== 2026-04-20 22:00
u: 跟你说个大事，公司要把我们部门搬到重庆，我答应跟着去了 #move_plan
a: 这个决定不小。什么时候搬？
u: 五月中旬，房子公司帮忙找
a: 猫的托运要提前问清楚，高铁不能带，可以找宠物托运或者自己开车 #cat_transport
== 2026-05-20 20:20
u: 我已经在重庆渝北区住下了，土豆也接过来了 #live_chongqing
a: 欢迎来到重庆！土豆还适应吗？
u: 第一天躲床底，现在满屋子跑 #tudou_adapt
a: 那就是适应了，猫比人快
== 2026-05-25 21:10
u: 重庆太辣了，我胃有点受不了
a: 可以点菜的时候说微辣或者不要辣，多喝点酸奶护胃
u: 同事带我去吃了火锅，鸳鸯锅
a: 鸳鸯锅是外地人的好朋友
u: 公司附近找了个健身房，月卡159，比成都便宜 #gym_cq
a: 那正好接着练，别让三周的成果丢了
== 2026-05-29 22:30
u: 又有点睡不着，新环境还不习惯
a: 搬家后睡眠乱几天很正常，睡前别刷短视频，房间拉上遮光帘
u: 楼下有烧烤摊，吵到半夜
a: 可以试试耳塞，或者问问房东能不能换个朝里的房间
u: 我先买耳塞试试
== 2026-06-03 20:05
u: 我妈又说要给我介绍对象，这次是重庆的
a: 她的消息真灵通。你这次想见吗？
u: 还是算了，先把工作稳定下来
a: 可以直接告诉妈妈你刚搬家，想先适应半年 #mom_talk2
u: 土豆最近掉毛好厉害
a: 换季掉毛正常，每天梳一梳，多给点化毛膏
""", [
    ("我现在住在哪个城市？", ["live_chongqing"], "update", ["live_chengdu"]),
    ("你之前教我用那个煮饭的锅怎么弄晚饭来着", ["rice_cooker_meal"], "paraphrase", []),
    ("领导说我东西写得差的时候你让我怎么应对", ["leader_advice"], "paraphrase", []),
    ("睡不着那次你给了什么建议", ["sleep_tip"], "paraphrase", []),
    ("不去健身房的话你让我在家练哪些动作", ["home_workout"], "paraphrase", []),
    ("我妈给我介绍的那个男生是做什么工作的", ["blind_date"], "lexical", []),
    ("关于相亲你建议我怎么跟老妈沟通", ["mom_talk", "mom_talk2"], "paraphrase", []),
    ("那次见面最后感觉怎么样", ["date_result"], "paraphrase", []),
    ("我家猫叫啥", ["cat_tudou"], "lexical", []),
    ("刚养小猫要注意些什么，你当时说的", ["kitten_care"], "paraphrase", []),
    ("现在的上司对我怎么样", ["new_boss"], "update", ["old_boss"]),
    ("我什么时候第一次做成五个俯卧撑的", ["pushups_five"], "temporal", []),
    ("在成都时楼下那家健身房一个月多少钱", ["gym_card"], "lexical", []),
    ("我现在去的健身房月卡多少钱", ["gym_cq"], "update", ["gym_card"]),
    ("家里那盆植物被猫咬了你怎么说的", ["pothos_toxic"], "paraphrase", []),
    ("搬家的时候猫怎么带过去，你提醒过我什么", ["cat_transport"], "paraphrase", []),
    ("我是哪天答应跟着部门搬去重庆的", ["move_plan"], "temporal", []),
    ("我在重庆住哪个区", ["live_chongqing"], "lexical", []),
    ("第一次用电饭锅做的饭味道如何", ["rice_done"], "paraphrase", []),
    ("土豆是从哪来的，几个月大", ["cat_tudou_age"], "paraphrase", []),
    ("我本来只有什么厨具", ["only_cooker"], "paraphrase", []),
    ("到重庆以后猫适应得怎样", ["tudou_adapt"], "paraphrase", []),
    ("第一次办健身卡之前我在家练了多久，那张卡多少钱", ["pushups_five", "gym_card"], "multi_hop",
     []),
])

conv("zh", "cz02", "u_laozhou", "老周", """
== 2026-04-06 08:30
u: 早上好，退休第一个月，每天不知道干啥
a: 周叔早上好！退休前有没有一直想做但没时间做的事？
u: 想学书法，年轻时候练过几年 #calligraphy_young
a: 可以去社区老年大学报个书法班，一般一学期两三百块，还能认识同龄的朋友 #calligraphy_class
u: 我回头去社区问问
== 2026-04-08 09:10
u: 体检出来了，空腹血糖7.2，医生说是糖尿病前期，先不吃药 #glucose_72
a: 谢谢告诉我。医生有没有说饮食上要注意什么？
u: 少吃米饭和甜的
a: 主食可以一半换成糙米、燕麦或者杂粮，先吃菜再吃肉最后吃主食，饭后散步二十分钟 #diet_tips
== 2026-04-10 19:40
u: 书法班报上了，每周二周四上午 #class_schedule
a: 太好了！需要买些什么笔墨吗？
u: 老师让买羊毫笔
a: 初学买中号兼毫也行，比纯羊毫好控制，宣纸可以先用毛边纸练 #brush_choice
== 2026-04-13 20:15
u: 孙女朵朵下个月过六岁生日，我想送点有意义的 #duoduo_birthday
a: 朵朵平时喜欢什么？
u: 喜欢画画，喜欢小动物
a: 可以送一套儿童水彩加一本动物图鉴，或者您亲手写一幅她名字的书法，裱起来挂在她房间 #gift_ideas
u: 亲手写的好，有纪念意义
== 2026-04-16 07:50
u: 这两天早上起来膝盖疼，下楼梯更明显
a: 下楼梯疼可能和膝关节有关，建议去医院骨科看看。平时少爬山少爬楼，可以改成游泳或者骑固定自行车 #knee_advice
u: 我每天都去爬山的
a: 那先停一停，等医生看完再说
== 2026-04-20 18:30
u: 骨科看了，说是轻度骨关节炎，让我减重五斤 #knee_diagnosis
a: 还好是轻度。减重对膝盖帮助很大，配合控糖正好一起
u: 老伴说要陪我去公园快走 #wife_walk
a: 有人陪着更容易坚持
== 2026-04-25 21:00
u: 我儿子说要给我买智能手机，我怕学不会
a: 先学最常用的三样：微信视频通话、拍照、看天气。让他把字体调大 #phone_basics
u: 视频通话我最想学，可以看朵朵
== 2026-05-06 19:10
u: 复查血糖，空腹降到6.1了！ #glucose_61
a: 太棒了！一个月就降了这么多，饮食调整见效了
u: 医生说继续保持，三个月后再查 #glucose_recheck
== 2026-05-12 20:40
u: 给朵朵写的字裱好了，她的名字，写的是隶书 #gift_done
a: 朵朵一定很喜欢！她什么反应？
u: 她说爷爷写的字像画一样，非要挂床头 #gift_reaction
== 2026-05-18 10:20
u: 书法班改时间了，现在是周三周五下午 #class_new_time
a: 下午也好，上午可以去公园快走
u: 对，早上走路下午写字
== 2026-05-26 19:30
u: 体重减了四斤，膝盖也没那么疼了 #weight_down
a: 真不错，离医生说的目标只差一斤了
u: 老伴比我减得还多
== 2026-06-02 20:00
u: 用新手机跟朵朵视频了，她给我看她画的猫 #video_call
a: 您学得很快啊！看到孙女画的画一定很开心
u: 开心，她说要把画寄给我
== 2026-06-08 09:00
u: 今天早上去公园快走了四十分钟，老伴走得比我快
a: 您俩一起走真好，注意膝盖别累着
u: 膝盖还行，比上个月好多了
a: 那就保持这个量，别一下加太多
u: 朵朵画的猫寄到了，我贴在书房墙上
a: 您的书房现在有她的画，她的房间有您的字，很有意思
== 2026-06-12 19:20
u: 书法老师让我们练楷书，我觉得隶书更好看
a: 楷书是基础，打好了写隶书也更稳
u: 老师说我的横写得太平
a: 可以多临帖，注意起笔和收笔的变化
u: 我儿子给我买了一本字帖
a: 那每天临一页，坚持下来进步很快
== 2026-06-18 20:10
u: 最近睡眠不太好，半夜两三点就醒
a: 老年人早醒比较常见，晚饭后少喝茶，午睡控制在半小时内
u: 我下午爱喝浓茶
a: 那试试下午三点以后不喝茶，看一周有没有变化
u: 好，我让老伴监督我
""", [
    ("我的书法课现在是哪几天上", ["class_new_time"], "update", ["class_schedule"]),
    ("我最近一次查的空腹血糖是多少", ["glucose_61"], "update", ["glucose_72"]),
    ("想找点事做那会儿你推荐我去哪学写字", ["calligraphy_class"], "paraphrase", []),
    ("控制血糖吃饭方面你给我出了什么主意", ["diet_tips"], "paraphrase", []),
    ("刚开始练字用什么笔比较好，你说过", ["brush_choice"], "paraphrase", []),
    ("给孙女的礼物你出过哪些点子", ["gift_ideas"], "paraphrase", []),
    ("腿疼那阵子你让我别做什么", ["knee_advice"], "paraphrase", []),
    ("骨科医生最后怎么说的", ["knee_diagnosis"], "paraphrase", []),
    ("学用手机你让我先学哪几样", ["phone_basics"], "paraphrase", []),
    ("朵朵几岁了", ["duoduo_birthday"], "lexical", []),
    ("我给朵朵写的是什么字体", ["gift_done"], "lexical", []),
    ("朵朵看到我写的字说了什么", ["gift_reaction"], "paraphrase", []),
    ("我是啥时候查出来血糖偏高的", ["glucose_72"], "temporal", []),
    ("体重现在减了多少了", ["weight_down"], "lexical", []),
    ("谁陪我去公园锻炼", ["wife_walk"], "paraphrase", []),
    ("第一次跟孙女视频的时候她给我看了啥", ["video_call"], "paraphrase", []),
    ("医生让我瘦多少", ["knee_diagnosis"], "lexical", []),
    ("下次什么时候再去查血糖", ["glucose_recheck"], "temporal", []),
    ("年轻时候我有没有练过字", ["calligraphy_young"], "paraphrase", []),
    ("医生要求减的重量我完成了多少，还差多少", ["knee_diagnosis", "weight_down"],
     "multi_hop", []),
    ("老年大学的书法班大概多少钱一学期", ["calligraphy_class"], "lexical", []),
])

conv("zh", "cz03", "u_ajie", "阿杰", """
== 2025-09-01 22:30
u: 决定了，今年考研，目标是浙大计算机 #target_zju
a: 有目标就好！现在离考试大概还有一百一十天，复习到哪了？
u: 数学刚开始看高数第一章
a: 时间有点紧，建议每天数学四小时，英语两小时，专业课三小时，政治十月再开始 #study_plan
u: 政治可以晚点开始吗
a: 可以，政治后期突击效果不错，先保证数学
== 2025-09-04 23:10
u: 宿舍太吵了，根本学不进去
a: 图书馆或者自习室能抢到座位吗？
u: 图书馆要早上六点半去排队
a: 可以试试学院的空教室，或者戴降噪耳机加白噪音，比排队省时间 #noise_fix
u: 我去问问学院有没有考研教室
== 2025-09-08 21:50
u: 学院给考研的开了一间教室，我占到靠窗的位子了 #study_room
a: 太好了，稳定的座位很重要
u: 就是晚上十点就锁门 #room_close
a: 那正好逼你按时睡觉，考研是持久战
== 2025-09-15 22:40
u: 英语单词背了就忘，好崩溃
a: 正常的，遗忘是规律。用艾宾浩斯的节奏复习：当天、第二天、第四天、第七天各过一遍，每天新词控制在八十个左右 #vocab_method
u: 我之前一天背两百个 #vocab_before
a: 贪多反而记不住，少一点但多复习
== 2025-09-22 23:30
u: 我爸说考不上就回老家考公务员 #dad_civil
a: 你自己怎么看？
u: 我不想回去，但也怕考不上
a: 可以先不想结果，把每天的计划完成。十二月考完再做决定，那时候信息更多 #dad_advice
== 2025-10-06 22:15
u: 国庆没回家，在教室学了七天，数学一轮快结束了 #math_round1
a: 国庆坚持下来真不容易！一轮完了接着做真题吗？
u: 对，打算先做近十年的
a: 真题按年份计时做，错题单独抄到本子上，每周回看一次 #past_papers
== 2025-10-20 21:40
u: 改目标了，浙大分数线太高，换成南京大学 #target_nju
a: 根据模考情况调整很理智。专业课科目一样吗？
u: 都是408，不用重新复习 #exam_408
a: 那影响不大，安心冲
== 2025-11-03 22:05
u: 最近老是胃疼，早饭经常不吃 #stomach
a: 复习再紧也要吃早饭，可以前一晚买好包子和牛奶。疼得厉害要去校医院看看 #breakfast_advice
u: 我明天去校医院
== 2025-11-05 20:30
u: 校医说是胃炎，开了奥美拉唑，让我按时吃饭 #gastritis
a: 要遵医嘱吃药，少喝咖啡，咖啡很伤胃
u: 咖啡我每天三杯…… #coffee_three
a: 先减到一杯，换成温水或者淡茶
== 2025-11-20 23:00
u: 政治开始背了，肖秀荣的书太厚了
a: 选择题靠刷题，大题到十二月背押题就行，现在把选择题题库刷两遍 #politics_tip
u: 好，先刷选择
== 2025-12-01 22:20
u: 最后一次模考数学考了118，比上次多了二十分 #mock_118
a: 进步太明显了！保持状态
u: 有点飘了哈哈
== 2025-12-22 19:30
u: 考完了！！感觉数学正常发挥，英语作文有点偏题 #exam_done
a: 辛苦了！先好好休息几天，成绩出来前别多想
u: 我要睡三天
== 2025-12-25 20:00
u: 睡了三天，终于活过来了
a: 欢迎回来！接下来有什么打算？
u: 准备先去实习，等成绩出来
a: 实习也能为复试或者找工作做准备，挺好的
u: 室友说我考完脾气好多了哈哈
a: 压力没了人自然就轻松了
== 2025-12-28 21:30
u: 找了个实习，在一家做物流软件的公司，写后端
a: 恭喜！和408的内容也算相关
u: 对，用Java写接口
a: 正好可以把操作系统和网络的知识用上
u: 咖啡又喝回三杯了 #coffee_again
a: 胃炎才好没多久，还是悠着点，最多一杯
u: 知道了知道了
== 2026-01-05 22:10
u: 我妈问我考得怎么样，我都不敢说
a: 成绩没出来之前说“正常发挥”就行，不用给自己压力
u: 我爸又提了考公务员的事 #dad_civil2
a: 可以说等二月出成绩再一起商量，到时候有了分数更好判断 #dad_advice2
u: 嗯，先这么应付着
""", [
    ("我最后报的是哪所学校", ["target_nju"], "update", ["target_zju"]),
    ("你给我排的每天各科时间是怎样的", ["study_plan"], "paraphrase", []),
    ("宿舍吵的时候你有什么办法", ["noise_fix"], "paraphrase", []),
    ("学院那个教室几点关门", ["room_close"], "lexical", []),
    ("背单词老忘你让我怎么复习", ["vocab_method"], "paraphrase", []),
    ("我爸对我考不上有什么打算", ["dad_civil", "dad_civil2"], "paraphrase", []),
    ("家里给压力那阵你怎么劝我的", ["dad_advice", "dad_advice2"], "paraphrase", []),
    ("国庆那几天我是怎么过的", ["math_round1"], "temporal", []),
    ("刷历年题你建议怎么做", ["past_papers"], "paraphrase", []),
    ("为什么换学校了", ["target_nju"], "paraphrase", []),
    ("专业课考的是什么", ["exam_408"], "lexical", []),
    ("肚子不舒服那次你说什么", ["breakfast_advice"], "paraphrase", []),
    ("校医院给我开的什么药", ["gastritis"], "lexical", []),
    ("政治怎么复习比较好，你当时说", ["politics_tip"], "paraphrase", []),
    ("最后一次模拟考数学多少分", ["mock_118"], "lexical", []),
    ("考完感觉哪科没发挥好", ["exam_done"], "paraphrase", []),
    ("我原来每天喝几杯咖啡", ["coffee_three", "coffee_again"], "lexical", []),
    ("我在教室里坐哪个位置", ["study_room"], "paraphrase", []),
    ("数学一轮是啥时候差不多复习完的", ["math_round1"], "temporal", []),
    ("以前一天背多少单词，你建议多少", ["vocab_before", "vocab_method"], "multi_hop", []),
    ("考试是哪天结束的", ["exam_done"], "temporal", []),
])

conv("zh", "cz04", "u_linjie", "林姐", """
== 2026-07-01 23:40
u: 宝宝出生二十天了，每晚醒四五次，我快撑不住了
a: 新生儿夜醒很正常，但您也要休息。白天宝宝睡的时候您也跟着睡，别忙家务 #sleep_with_baby
u: 白天总想收拾屋子
a: 屋子乱一点没关系，您的身体更重要
== 2026-07-03 22:50
u: 宝宝叫安安，是个女孩 #baby_anan
a: 安安，很好听的名字！
u: 我老公在上海上班，周末才回苏州 #husband_shanghai
a: 一个人带娃很辛苦，家里有老人能帮忙吗？
u: 我婆婆下周过来
== 2026-07-06 21:30
u: 安安吃奶总是吃一会儿就睡着
a: 可以轻轻挠她的脚心或者换一边喂，让她吃完一侧再换。每次喂奶记一下时间，判断是不是吃够了 #feeding_tip
u: 记时间好办法，我下个软件
== 2026-07-10 20:15
u: 婆婆来了，但是我们育儿观念老打架 #mil_conflict
a: 两代人观念不同很常见。具体是哪些事呢？
u: 她非要给安安喂水，还要绑腿 #mil_disagree
a: 这两样可以请社区医生或儿科医生来讲，比您自己说更有说服力：六个月内纯母乳不用喂水，绑腿也不推荐 #doctor_mediator
u: 对，下次体检让医生跟她说
== 2026-07-14 19:50
u: 四十二天体检，安安长了一公斤二，医生说很好 #checkup_42
a: 恭喜！发育得很棒
u: 医生也跟婆婆说了不用喂水，她总算听了 #mil_listened
a: 太好了，让专业的人来说果然有用
== 2026-07-20 23:10
u: 最近老想哭，看着宝宝也会莫名其妙掉眼泪
a: 谢谢你愿意说出来。产后情绪低落很常见，如果持续两周以上或者有伤害自己的想法，一定要跟医生说，也告诉老公 #postpartum_mood
u: 我还没跟老公说过
a: 今晚可以跟他视频说说，不用等周末
== 2026-07-22 21:00
u: 跟老公说了，他说下个月申请调回苏州 #husband_transfer
a: 他很支持你，这很重要
u: 感觉轻松多了
== 2026-08-03 20:40
u: 准备给安安办出生证明和户口，要带什么
a: 一般是出生医学证明、父母双方身份证、户口本和结婚证，具体去派出所前打电话确认一下 #hukou_docs
u: 好，我周三去 #hukou_day
== 2026-08-12 22:20
u: 我产假还有三个月，在想要不要回去上班 #leave_left
a: 您的工作是什么？
u: 幼儿园老师 #job_teacher
a: 可以先和园长聊能不能先半天班过渡，也看看婆婆能不能长期帮忙带 #return_work
== 2026-08-25 21:35
u: 老公调回苏州了，现在每天都在家 #husband_home
a: 太好了！晚上可以分工，他负责一次夜奶
u: 他冲奶粉比我还熟练 #husband_bottle
== 2026-09-08 20:10
u: 安安三个月了，会翻身了！ #rolling_over
a: 好厉害！翻身以后床边要有护栏，别把她单独放在沙发或床上 #roll_safety
u: 差点就从沙发上翻下去了，吓死我
== 2026-09-20 19:40
u: 跟园长谈好了，明年一月回去先上半天班 #half_day_agreed
a: 这个过渡方案很好，安安也能慢慢适应
u: 婆婆说她可以一直帮到安安上幼儿园 #mil_long
== 2026-09-26 21:20
u: 安安开始咬东西了，是不是要长牙了
a: 三四个月流口水咬手很常见，可能是出牙的信号，可以给她用硅胶牙胶
u: 婆婆说要给她吃米糊
a: 一般建议六个月左右再加辅食，这个可以下次体检问问医生
u: 又是请医生出马哈哈
a: 医生的话婆婆最听
== 2026-10-02 20:40
u: 国庆老公带我们回他老家，安安第一次坐长途车
a: 路上每两个小时停下来让她透透气，带好尿布和备用衣服
u: 安安在车上睡了一路
a: 那真是省心的宝宝
u: 亲戚们都抢着抱她
a: 注意让大家抱之前洗手，小宝宝抵抗力弱
== 2026-10-10 22:00
u: 我最近开始跑步了，产后恢复
a: 太好了！先从快走开始，盆底肌恢复好了再慢跑
u: 现在每天晚上老公带安安，我出去走三十分钟
a: 这个分工很好，也给自己留一点时间
u: 感觉心情也好了很多
a: 运动对情绪帮助很大
""", [
    ("我老公现在在哪上班", ["husband_home"], "update", ["husband_shanghai"]),
    ("宝宝晚上老醒你让我怎么休息", ["sleep_with_baby"], "paraphrase", []),
    ("我家孩子叫什么", ["baby_anan"], "lexical", []),
    ("喂奶时宝宝睡着你教了什么办法", ["feeding_tip"], "paraphrase", []),
    ("跟婆婆意见不合你建议怎么办", ["doctor_mediator"], "paraphrase", []),
    ("婆婆和我主要在哪些事上有分歧", ["mil_disagree"], "paraphrase", []),
    ("满月后那次检查孩子重了多少", ["checkup_42"], "lexical", []),
    ("婆婆最后有没有听医生的", ["mil_listened"], "paraphrase", []),
    ("心情很差那几天你跟我说了什么", ["postpartum_mood"], "paraphrase", []),
    ("办户口需要准备哪些材料", ["hukou_docs"], "paraphrase", []),
    ("我是干什么工作的", ["job_teacher"], "paraphrase", []),
    ("回去上班的事你怎么建议", ["return_work"], "paraphrase", []),
    ("孩子会翻身以后要注意什么", ["roll_safety"], "paraphrase", []),
    ("安安是几个月学会翻身的", ["rolling_over"], "temporal", []),
    ("我什么时候回单位上班，上全天还是半天", ["half_day_agreed"], "update",
     ["leave_left"]),
    ("老公是什么时候说要调回来的", ["husband_transfer"], "temporal", []),
    ("夜里喂奶老公能帮上忙吗", ["husband_bottle"], "paraphrase", []),
    ("情绪低落的事我后来跟谁说了，他怎么回应的", ["husband_transfer"], "paraphrase", []),
    ("婆婆能帮我带孩子到什么时候", ["mil_long"], "paraphrase", []),
    ("去派出所办户口我打算哪天去", ["hukou_day"], "temporal", []),
    ("老公调回来以后，我上班的事是怎么定下来的", ["husband_home", "half_day_agreed"],
     "multi_hop", []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        data = build(lang)
        out = HERE / f"companion_{lang}.json"
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        n_msg = sum(len(s["messages"]) for c in data["conversations"] for s in c["sessions"])
        print(f"wrote {out} ({len(data['conversations'])} conversations, {n_msg} messages, "
              f"{len(data['questions'])} questions)")
