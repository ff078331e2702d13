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
import random
import re
from datetime import datetime, timedelta

from _sets import BOT, DAY_RE, QTYPES, TZ, build_set, write_set

_LINE_RE = re.compile(r"^([ua]): (.+?)(?:\s+#([a-z][a-z0-9_]*))?$")
SETS = {"en": [], "zh": []}


def conv(lang, cid, user_id, user_name, days, questions):
    SETS[lang].append((cid, user_id, user_name, days, questions))


def build_conv(lang, cid, user_id, user_name, days, questions):
    rng = random.Random(cid)
    sessions, labels, cur, msgs = [], {}, None, None
    for raw in days.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        m = DAY_RE.match(line)
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
    return build_set(SETS[lang], lang, build_conv, lang)


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

conv("en", "en05", "u_omar", "Omar", """
== 2026-02-02 23:05
u: cant sleep. back hurts from work
a: Sorry to hear that. What kind of work do you do?
u: warehouse shift lead. lifting all day #job_warehouse
a: Is it your lower back? If it's a dull ache after lifting, 15 minutes of heat and a gentle knee-to-chest stretch before bed can ease it. If it shoots down your leg, see a GP #back_heat
u: dull. ok
== 2026-02-04 20:30
u: tried the heat thing. bit better
a: Good. At work, keep loads close to your body and turn with your feet instead of twisting at the waist #lift_tip
u: easy to say lol
a: True. Even doing it half the time helps
u: saving for a deposit btw. got 3400 so far #savings_3400
a: That's a solid start. What are you aiming for?
u: 15k. small flat in Leicester #deposit_goal
== 2026-02-07 13:10
u: how do i save faster
a: Move money into a separate account on payday before you can spend it, and look at a Lifetime ISA if you're under 40: the government adds 25 percent when it goes towards a first home #lisa
u: im 34
a: Then you qualify, you can open one until you turn 40
u: nice
== 2026-02-11 22:15
u: dad got diagnosed type 2 diabetes #dad_diabetes
a: I'm sorry, Omar. How's he taking it?
u: badly. wont change his food
a: Lectures rarely work. Offer to do something with him instead, like a walk after Sunday lunch, or cook one of his favourite dishes with less rice and more veg #dad_walk
u: he does like walking to the mosque
a: That's a great start, it's already a habit
== 2026-02-15 19:40
u: started boxing fitness class. mon and wed 7pm #boxing_monwed
a: Great! How was the first one?
u: dead. arms like noodles
a: Totally normal. Drink water, eat some protein within an hour, and don't skip the next class, the second one is easier #boxing_recover
== 2026-02-20 21:55
u: got a interview. shift manager at another warehouse, more money #interview
a: Congratulations! When is it?
u: thursday 26th
a: Prepare two stories: a time you solved a problem on shift and a time you handled a difficult team member. Tell each as situation, action, result #interview_star
u: ok writing them now
== 2026-02-26 17:20
u: interview done. think it went ok #interview_done
a: How did the stories go?
u: used the forklift one. they liked it #forklift_story
a: The forklift one? Tell me
u: stoped a guy driving with the load way too high, then retrained the whole shift #forklift_detail
a: That's exactly the kind of leadership they look for
== 2026-03-04 20:05
u: got the job!! 31k #new_job_31k
a: Brilliant news, Omar! When do you start?
u: april 1. mostly desk and floor, hardly any lifting #start_april
a: Your back will thank you
== 2026-03-12 22:40
u: boxing moved. now tue and thu same time #boxing_tuethu
a: Does that still fit with your shifts?
u: yeh better actually. back still hurts some mornings
a: Try a 5-minute routine when you get up: cat-cow, child's pose and glute bridges, 10 of each #morning_stretch
== 2026-03-20 21:10
u: dad walked every day this week. sugar down #dad_progress
a: That's wonderful. Did the walks to the mosque help?
u: yes he walks to all 5 prayers now lol
a: Five walks a day, that's better than most gym plans
== 2026-04-03 19:30
u: first week new job. lots of spreadsheets
a: How are you finding it?
u: excel is killing me
a: Learn three things first: filters, XLOOKUP and pivot tables. Those cover most warehouse reports #excel_three
u: pivot what
a: A pivot table summarises a long list, like total picks per person per day. There are good free 20-minute videos
== 2026-04-15 20:45
u: savings at 5100 now. new salary helps #savings_5100
a: That's real progress. Did you open the Lifetime ISA?
u: yeh. 4k in the ISA already #lisa_opened
a: Then the bonus on that will be 1000
== 2026-04-28 21:20
u: back mostly fine now. not lifting is great
a: Keep the morning stretches, they protect you long term
u: boxing coach says my jab is good
a: Sounds like you're hooked
u: dad wants to join a walking group
a: Good, a group will keep him going
== 2026-05-06 20:00
u: looking at flats. one in Belgrave 165k
a: A 15k deposit would be about 9 percent of that. Check what mortgage rates you'd get #deposit_again
u: savings not there yet
a: You're a third of the way already, that's fast
u: also bought new trainers for boxing, 60 quid
a: Worth it if your feet were hurting
""", [
    ("How much have I got saved right now?", ["savings_5100"], "update", ["savings_3400"]),
    ("which days is boxing on now", ["boxing_tuethu"], "update", ["boxing_monwed"]),
    ("what did you tell me to do when my back was aching at night", ["back_heat"],
     "paraphrase", []),
    ("How should I pick stuff up at work so I don't hurt myself?", ["lift_tip"],
     "paraphrase", []),
    ("what was that government savings account with the bonus", ["lisa"], "paraphrase", []),
    ("how much am I saving up for the Leicester flat", ["deposit_goal", "deposit_again"], "lexical", []),
    ("What did you say about getting my dad to look after himself?", ["dad_walk"],
     "paraphrase", []),
    ("what did you say after my first class when I was wrecked", ["boxing_recover"],
     "paraphrase", []),
    ("How did you tell me to get ready for the job interview?", ["interview_star"],
     "paraphrase", []),
    ("what actually happened in the forklift thing", ["forklift_detail"], "lexical", []),
    ("how much does the manager job pay", ["new_job_31k"], "paraphrase", []),
    ("When did I start the new job?", ["start_april"], "temporal", []),
    ("the wake-up routine you gave me for my back, what was it", ["morning_stretch"],
     "paraphrase", []),
    ("When did dad's blood sugar start coming down?", ["dad_progress"], "temporal", []),
    ("what excel stuff did you say to learn first", ["excel_three"], "lexical", []),
    ("how much is in the ISA", ["lisa_opened"], "lexical", []),
    ("What was my dad diagnosed with?", ["dad_diabetes"], "paraphrase", []),
    ("what was I doing for work before this", ["job_warehouse"], "paraphrase", []),
    ("when was the interview", ["interview_done"], "temporal", []),
    ("How long after the interview did I hear I got the job?", ["interview_done", "new_job_31k"],
     "multi_hop", []),
])

conv("en", "en06", "u_bea", "Bea", """
== 2026-01-10 20:30
u: OK so I have NEWS. Jonah proposed last night!!! on the pier in Brighton, in the rain, and I said yes obviously, I'm still shaking #proposal
a: Congratulations, Bea! That's wonderful. How are you feeling today?
u: honestly elated and also slightly panicking because both our mums started sending me venue links at 7am
a: That's a lot of enthusiasm for 7am. Before looking at venues, agree three things with Jonah: a rough budget, a rough guest number and a season. Everything else follows from those #three_decisions
u: that is very sensible. ok I'll make him sit down on Sunday with a pot of tea
a: Good plan. Tea makes budgets less scary
== 2026-01-13 21:15
u: right so we had the chat. budget is 18k, which felt enormous until I looked at venue prices lol, guests around 120, and we want September #budget_18k
a: That's a clear brief. 120 guests on 18k is doable but tight: venues often charge per head, so the guest list is the biggest lever you have #per_head
u: the guest list is going to be the problem, Jonah has about forty cousins, I'm not even exaggerating
a: Then agree on one rule instead of arguing name by name, for example only cousins you've both met in the last two years #cousin_rule
u: that rule would cut at least thirty of them lol, I'll pitch it gently
== 2026-01-20 19:45
u: we saw a barn venue near Lewes today and I'm in LOVE. fairy lights, old beams, a field for photos. it's 7,500 for the day #barn_venue
a: It sounds beautiful. Check what's included: chairs, tables, a bar licence, and whether you have to use their caterers #venue_checklist
u: ooh good shout, I didn't ask about caterers at all, I was too busy staring at the beams
a: Also ask about the latest finish time, some rural venues stop the music at 11
u: I'm emailing them tonight
== 2026-01-27 22:10
u: ugh. the barn makes you use their caterer and it's 85 a head. so 120 people is over 10k just for food, plus the 7,500. we can't do that #barn_too_much
a: That's frustrating. You could cut the guest list, look for a venue that lets you bring your own caterer, or do a small ceremony with a bigger evening party #options_cut
u: Jonah said "forty cousins" again in a very small voice lol
a: Poor Jonah. Sleep on it and look at two or three other options this weekend
== 2026-02-05 20:20
u: big decision made!! we're doing the registry office in Brighton and then the back room of the Anchor pub, my uncle knows the landlord. 70 guests max #registry_pub
a: That sounds warm and very you two. How does the budget look now?
u: like 9k total, which means we can actually have a honeymoon!!! #budget_9k
a: Best of both worlds
u: my mum cried on the phone, happy crying I think
a: Registry weddings are often the most emotional ones, it is all about the two of you
== 2026-02-14 18:30
u: dress shopping with my mum and my best friend Priti today. I cried in the third shop. it's not a big white thing, it's a pale green silk slip dress, 640 pounds #dress
a: Pale green silk sounds stunning. Keep some money back for alterations, they often add 100 to 200 #alterations
u: noted, she already said the straps need taking in
== 2026-02-25 21:40
u: slightly awkward one. Jonah's mum wants to do a reading at the ceremony and it's a really long poem, like five minutes, and the registry only gives us 30 minutes in total
a: You could suggest she reads it at the pub instead, during dinner, where it gets everyone's full attention rather than being squeezed in. Frame it as giving it a bigger moment #mil_poem
u: oh that's clever, it sounds like a promotion not a demotion
a: And let her pick the moment in the evening, so it feels like hers
== 2026-03-08 20:05
u: update: she loved the pub idea, she's now rehearsing it to her book club haha #mil_poem_ok
a: That's a lovely outcome
u: also Jonah wants to learn to dance properly for the first dance, he currently dances like a confused giraffe
a: Three or four private lessons are usually enough for one song. Pick the song first so the teacher can choreograph to it #dance_lessons
== 2026-03-22 19:30
u: we picked it!! "Sea of Love" by Cat Power. and we booked four lessons with a woman called Dolores who is terrifying and wonderful #first_dance_song
a: A great choice for a slow first dance
u: Jonah has stepped on my foot twice already
a: Wear old shoes to the lessons and save the wedding shoes for the last one
== 2026-04-05 21:00
u: honeymoon time! we're thinking Portugal, 10 days, the Algarve maybe #honeymoon_algarve
a: September is lovely there, still warm but quieter after the school holidays. Look at the west coast around Aljezur if you want fewer crowds #honeymoon_tip
u: fewer crowds yes please, I'll have had enough people by then lol
== 2026-04-18 20:40
u: I'm so stressed I'm grinding my teeth at night, Jonah says it sounds like gravel
a: Wedding stress is real. Make one night a week off-limits for wedding talk, and try a warm shower and no screens for half an hour before bed. If it keeps happening, a dentist can fit a night guard #stress_night
u: wedding-free Wednesdays. I like that. I'm making it a rule
== 2026-05-02 19:15
u: change of plan on the honeymoon!! Jonah's sister offered us her friend's place in the Azores for free, so we're going there instead, 10 days on São Miguel #honeymoon_azores
a: What a gift! The Azores are stunning: hot springs, crater lakes, whale watching
u: WHALES. I'm going to cry on a boat
a: Book the whale trip early in your stay, so if the sea is rough you can move it
u: planner mode activated
== 2026-05-16 20:50
u: Priti is doing my hair, she did a trial run today and I look like a Pre-Raphaelite painting
a: That sounds beautiful
u: and the pub landlord said we can have the garden too if the weather is good
a: A garden for photos, perfect
u: my mum wants to make the cake, three tiers, lemon and elderflower
a: Ask her for a trial cake a month ahead, it takes pressure off the week itself
== 2026-05-30 21:30
u: final numbers for the pub: 68 yes, two maybes. only 12 of Jonah's forty cousins are coming lol
a: So you're right on your 70. The budget should hold
u: we're still at about 9k, maybe 9,300 with the flowers #budget_final
a: That's impressively close
u: dance lesson three was actually good, no feet harmed
a: Dolores will be proud
""", [
    ("Where are we having the wedding now?", ["registry_pub"], "update", ["barn_venue"]),
    ("what's our wedding budget at these days", ["budget_9k", "budget_final"], "update",
     ["budget_18k"]),
    ("Where are we going for the honeymoon?", ["honeymoon_azores"], "update",
     ["honeymoon_algarve"]),
    ("what did you say Jonah and I should settle before looking at places",
     ["three_decisions"], "paraphrase", []),
    ("What did you tell me to double-check with places we visit?", ["venue_checklist"],
     "paraphrase", []),
    ("how did you suggest we trim Jonah's side of the list", ["cousin_rule"], "paraphrase", []),
    ("why couldn't we afford the barn in the end", ["barn_too_much"], "paraphrase", []),
    ("What were my choices when the barn turned out too pricey?", ["options_cut"],
     "paraphrase", []),
    ("how much did the green silk dress cost", ["dress"], "lexical", []),
    ("What did you warn me to keep money aside for with the dress?", ["alterations"],
     "paraphrase", []),
    ("how did you suggest handling my mother-in-law's long reading", ["mil_poem"],
     "paraphrase", []),
    ("Was Jonah's mum ok with moving her poem?", ["mil_poem_ok"], "paraphrase", []),
    ("how many sessions did you think Jonah would need to dance ok", ["dance_lessons"],
     "paraphrase", []),
    ("How many lessons did we book with Dolores?", ["first_dance_song"], "lexical", []),
    ("what track are we dancing to as newlyweds", ["first_dance_song"], "paraphrase", []),
    ("What did you suggest when I was clenching my jaw in my sleep from stress?",
     ["stress_night"], "paraphrase", []),
    ("which bit of Portugal did you say would be quieter", ["honeymoon_tip"], "paraphrase",
     []),
    ("When did Jonah propose?", ["proposal"], "temporal", []),
    ("when did we settle on the registry office", ["registry_pub"], "temporal", []),
    ("how much per head was the barn's caterer", ["barn_too_much"], "lexical", []),
    ("We first planned 120 guests, what did we cut it to?", ["budget_18k", "registry_pub"],
     "multi_hop", []),
])

conv("en", "en07", "u_kenji", "Kenji", """
== 2026-06-01 09:40
u: Morning. Went freelance as of today: illustration and packaging design. Slightly terrifying. #went_freelance
a: Congratulations, Kenji! What's first on your list?
u: Working out what to charge. I was thinking £35 an hour. #rate_35
a: Work backwards: pick the yearly income you need, add about 30% for tax, pension and unpaid admin time, then divide by realistic billable hours, usually 20 to 25 a week, not 40 #rate_formula
u: Ok, that maths says more like £45. Hm.
a: That's normal, most people undercharge at first. You could start a bit lower for the first client and raise it later
u: I'll think about it over coffee.
== 2026-06-03 14:20
u: First client! A craft brewery in Stockport wants labels for 3 beers. #brewery_client
a: Great start. Send a written quote that says how many revision rounds are included, and ask for 50% up front before you start #deposit_advice
u: They agreed to £1,200 for the three, half upfront. #brewery_price
a: That's a healthy start. Put the deposit straight into a separate account
u: Done. Feels very grown-up.
== 2026-06-10 20:10
u: My laptop is dying. The 2019 MacBook Air can't handle big Illustrator files.
a: For illustration work 16GB of RAM is the realistic minimum, 24 is better. A refurbished MacBook Pro with an M-series chip is good value #laptop_ram
u: Found a refurb 14-inch M3 Pro, 18GB, for £1,549. #laptop_found
a: That's a solid machine for the price, and it's a business expense you can claim against tax
== 2026-06-18 21:30
u: Bought it. Also bought a proper chair because my back is 80 years old. #laptop_bought
a: Two good investments. What chair?
u: Secondhand Herman Miller Aeron, £380 from an office that was closing down. #chair_aeron
a: A great price for an Aeron. Set the seat so your elbows sit at desk height
u: Took me 20 minutes of fiddling with the levers.
== 2026-06-29 19:45
u: Brewery paid the rest on time. Labels go to print July 6. #brewery_print
a: Brilliant. Ask whether you can show the labels in your portfolio and on Instagram once they're out
u: Already asked: yes, as long as I wait until launch, which is July 18. #brewery_launch
== 2026-07-08 22:05
u: New client: a bakery chain wants a mascot. They asked my rate and I said £45/hour now. #rate_45
a: Good, you're charging what your numbers say. For a mascot, a fixed project fee often works better than hourly, because clients fear open-ended bills #fixed_fee
u: Quoted £2,800 fixed, two rounds of revisions. #bakery_quote
a: Good. Put the payment terms in too: 50% deposit, the balance within 14 days of delivery #payment_terms
u: Added. Invoice number 007, which feels like a spy thing.
== 2026-07-20 20:30
u: The bakery is now 21 days late paying the deposit invoice. #bakery_late
a: Send a polite reminder with the invoice attached and a clear due date. If nothing comes within 7 days, send a second one that mentions late payment interest; in the UK you can legally charge it on business invoices #late_payment
u: Didn't know about the interest thing.
== 2026-07-29 18:15
u: Reminder worked, bakery paid £1,400 this morning. #bakery_paid
a: Great. From now on, don't start work until the deposit lands
u: Lesson learned.
a: Keep a simple spreadsheet of invoices with the date sent, date due and date paid, it makes chasing easy #invoice_sheet
u: Made one. Colour-coded, obviously.
== 2026-08-05 21:40
u: Tax question. I need to register as self-employed, right?
a: Yes. Register with HMRC for Self Assessment by 5 October 2027, since your first tax year is 2026/27. That year's return is due online by 31 January 2028 #hmrc_dates
u: Ok, I'll register this week anyway so I don't forget.
a: Good idea. And move 25 to 30 percent of every payment you get into a separate pot #tax_pot
== 2026-08-14 19:20
u: Baking break: my sourdough starter is alive! Named it Gerald. #starter_gerald
a: Gerald, excellent. Feed him 1:1:1, starter, flour and water by weight, once a day at room temperature #feed_ratio
u: Gerald smells like nail varnish.
a: That means he's hungry: feed him twice a day for a few days #gerald_hungry
== 2026-08-26 20:50
u: Rate update: the brewery wants 5 more labels, and I've put my rate up to £50/hour for new work. #rate_50
a: Sensible after three months of steady work. Give existing clients a month's notice before it applies to them #notice_existing
u: Told the brewery the new rate starts October 1. #rate_oct1
a: Good. Put it in writing, an email is enough
u: Sent it, they replied with a thumbs-up emoji.
== 2026-09-07 21:15
u: Bakery wants a second mascot, a cat this time.
a: Nice, repeat clients are the best clients
u: I quoted £2,600, they said yes, deposit paid in 2 days this time #bakery_fast
a: That's the fastest they've ever paid
u: Gerald made his first proper loaf. Dense but edible.
a: Dense first loaves are tradition. Try a longer bulk proof next time
== 2026-09-15 20:00
u: The brewery's first 3 labels won a small design award in Stockport!
a: Congratulations! Put that on your website
u: My accountant friend says I should look at a pension too.
a: A SIPP lets you pay in and get tax relief; worth a look once your tax pot is steady
u: The chair is still great, my back feels 40 now, not 80.
""", [
    ("What's my hourly rate these days?", ["rate_50"], "update", ["rate_35", "rate_45"]),
    ("is the bakery still behind on paying me", ["bakery_paid", "bakery_fast"], "update",
     ["bakery_late"]),
    ("how did you say I should work out my pricing", ["rate_formula"], "paraphrase", []),
    ("What did you tell me to do before starting work for my first customer?",
     ["deposit_advice"], "paraphrase", []),
    ("how much did the brewery pay for the first three labels", ["brewery_price"],
     "lexical", []),
    ("How much memory did you say a computer for my drawing work needs?", ["laptop_ram"],
     "paraphrase", []),
    ("what was the price of the refurbished M3 Pro", ["laptop_found"], "lexical", []),
    ("what did I pay for the Aeron", ["chair_aeron"], "lexical", []),
    ("When were the beer labels going to the printer?", ["brewery_print"], "temporal", []),
    ("when could I start posting the brewery work online", ["brewery_launch"], "temporal",
     []),
    ("Why did you recommend a set price for the mascot job?", ["fixed_fee"], "paraphrase",
     []),
    ("what can I do if a client doesn't pay up on time", ["late_payment"], "paraphrase", []),
    ("How many days overdue was the bakery in July?", ["bakery_late"], "temporal", []),
    ("what's the HMRC registration deadline", ["hmrc_dates"], "lexical", []),
    ("How much of each payment should I put aside for the taxman?", ["tax_pot"],
     "paraphrase", []),
    ("what's my sourdough starter called", ["starter_gerald"], "lexical", []),
    ("How do I feed my bread culture?", ["feed_ratio"], "paraphrase", []),
    ("what did you say when it started smelling like acetone", ["gerald_hungry"],
     "paraphrase", []),
    ("What did you say about telling my current clients about the price rise?",
     ["notice_existing"], "paraphrase", []),
    ("what did you tell me to track so I know who still owes me", ["invoice_sheet"],
     "paraphrase", []),
    ("how long did you say the bakery gets to pay the remainder", ["payment_terms"],
     "paraphrase", []),
    ("how much is the bakery still owing on the first mascot after the deposit",
     ["bakery_quote", "bakery_paid"], "multi_hop", []),
    ("What date did I go freelance?", ["went_freelance"], "temporal", []),
])

conv("en", "en08", "u_grace", "Grace", """
== 2026-09-05 20:00
u: Hello. I've been putting this off, but I need to talk to someone about my mum.
a: I'm here. What's been happening?
u: She's 81 and was diagnosed with Alzheimer's in the spring. She still lives alone in her bungalow in Whitby, and I'm two hours away in York. #mum_alone
a: That's a lot to carry from two hours away. What worries you most right now?
u: The cooker. She left a pan on last week.
a: An electrician can fit an automatic shut-off valve to the cooker, and a smoke alarm linked to a phone app will text you. It's also worth asking the council for a care needs assessment, which is free #cooker_safety
u: I didn't know the assessment was free. I'll ring them on Monday.
== 2026-09-08 21:10
u: I rang the council; the needs assessment is booked for 24 September. #assessment_date
a: Good. Write down examples of what she struggles with before then, they will ask for specifics
u: I teach Year 9 English all day, so evenings are my only time for any of this. #job_english
a: Then keep it small: one phone call a night is plenty. You don't have to fix everything this week
u: Thank you. I needed someone to say that.
== 2026-09-14 19:35
u: Something for me for a change: my sister and I want to go to Spain at Easter, and I'd love to learn some Spanish.
a: Lovely. Where in Spain?
u: Valencia, probably. Four nights. #trip_valencia
a: With seven months to go, 15 minutes a day is plenty for travel Spanish. Start with ordering food, asking directions and numbers #spanish_plan
== 2026-09-25 20:20
u: The assessment went well. They'll arrange a carer twice a day, morning and evening. #carer_twice
a: That's a real relief. How did your mum feel about it?
u: She called the assessor "a nosy girl" but agreed, which is a win.
a: A win indeed. How are you feeling now that it's settled?
u: Lighter. I slept properly for the first time in weeks.
== 2026-10-03 10:15
u: I tried kayaking today with the school outdoor club, on the Ouse. Fell in once. #kayak_first
a: Falling in is part of it! Did you enjoy it?
u: Loved it. Cold though.
a: A thin wetsuit, or a thermal top under a cag, makes autumn paddling far more comfortable #kayak_gear
u: The club has spare wetsuits, I'll borrow one next time.
== 2026-10-17 21:30
u: The morning carer, Joy, is wonderful. Mum actually looks forward to her. #carer_joy
a: That's so good to hear. A carer she likes makes everything easier
u: Mum keeps asking when Dad is coming home. He died in 2019. I never know what to say.
a: Many carers suggest not correcting her each time, because each correction means grieving afresh. Respond to the feeling instead: "You miss him. Tell me about him" #dad_answer
== 2026-11-06 20:45
u: My Spanish app streak is 50 days! #streak_50
a: Fifty days is serious. Ready to try speaking?
u: Terrified.
a: An online conversation tutor for 30 minutes a week, even at beginner level, makes a huge difference. Many charge about £12 a lesson #spanish_tutor
== 2026-11-20 21:00
u: Found a tutor, Lucía, in Seville. We talk on Thursdays. #tutor_lucia
a: Lovely. How was the first lesson?
u: I told her I was 'embarazada' when I meant embarrassed. She laughed for a full minute. #embarazada
a: A classic. You won't forget that one
== 2026-12-04 22:20
u: Bad week. Mum had a fall in the night and was in hospital for three days. She's all right, but the hospital say she can't live alone any more. #mum_fall
a: I'm so sorry, Grace. That's frightening. How are you?
u: Exhausted. I feel guilty even thinking about a care home.
a: Guilt is very common, but choosing safe care is an act of love, not abandonment. Visit two or three homes, go at mealtimes, and notice how the staff talk to residents #care_home_visit
u: My sister is coming up this weekend so we can look together.
a: Good, two pairs of eyes notice more, and you share the decision
== 2026-12-18 19:50
u: We've chosen a care home, Heather Lodge, ten minutes from me in York. She moves in on January 8th. #care_home
a: Being ten minutes away will change everything for you both
u: It's £1,250 a week. Her bungalow will have to be sold. #care_cost
a: Ask the home and the council about a deferred payment agreement, so you don't have to rush the sale #deferred_payment
== 2027-01-06 20:30
u: Lucía suggested we go to Seville instead of Valencia; she'll show us around. My sister has already booked the flights! #trip_seville
a: A local guide who's also your tutor, perfect. When do you go?
u: 2 April, five nights now. #trip_dates
== 2027-01-12 19:00
u: Mum's at Heather Lodge. The first few days were hard; she asked for Joy. #mum_moved
a: That's understandable, Joy was a big part of her routine. Maybe put a photo of Joy and one of her bungalow garden by her bed
u: That's a lovely idea. I'll print them.
a: And go at the same time each day for the first week or two; a fixed routine helps her settle #visit_routine
u: I can go after school, about half four.
== 2027-01-20 20:15
u: Kayaking again on Saturday, the club does a winter paddle on the Ouse.
a: Wrap up, the river will be colder than in October
u: Lucía is teaching me to order tapas. Apparently I say 'por favor' too much.
a: Being too polite is a good problem to have
u: Mum recognised me today and asked about my pupils.
a: Those good days are worth holding on to
u: My streak is at 126 days now.
a: Impressive consistency
""", [
    ("Where does Mum live now?", ["mum_moved"], "update", ["mum_alone"]),
    ("which city are we going to in Spain", ["trip_seville"], "update", ["trip_valencia"]),
    ("What did you suggest when Mum left the stove on?", ["cooker_safety"], "paraphrase",
     []),
    ("when was mum's council assessment", ["assessment_date"], "temporal", []),
    ("Which year group do I teach?", ["job_english"], "lexical", []),
    ("how did you say I should go about learning the language before the holiday",
     ["spanish_plan"], "paraphrase", []),
    ("What help did the council give after they came to see Mum?", ["carer_twice"],
     "paraphrase", []),
    ("what should I wear on the water so I'm not freezing", ["kayak_gear"], "paraphrase",
     []),
    ("When did I first go out in a kayak?", ["kayak_first"], "temporal", []),
    ("who's the carer Mum likes so much", ["carer_joy"], "paraphrase", []),
    ("How should I answer when Mum asks where my father is?", ["dad_answer"], "paraphrase",
     []),
    ("what did you say about getting someone to practise talking with", ["spanish_tutor"],
     "paraphrase", []),
    ("Which day are my lessons with Lucía?", ["tutor_lucia"], "lexical", []),
    ("what was my embarrassing mix-up in the first lesson", ["embarazada"], "paraphrase",
     []),
    ("Why can't Mum stay in her own house?", ["mum_fall"], "paraphrase", []),
    ("how did you tell me to choose a place for mum", ["care_home_visit"], "paraphrase",
     []),
    ("How much does Heather Lodge cost?", ["care_cost"], "lexical", []),
    ("what did you suggest so we aren't forced to sell her house quickly",
     ["deferred_payment"], "paraphrase", []),
    ("What day do we fly out to Spain?", ["trip_dates"], "temporal", []),
    ("how often should I go and see mum while she settles in", ["visit_routine"],
     "paraphrase", []),
    ("how much closer to me is mum after the move", ["mum_alone", "care_home"], "multi_hop",
     []),
    ("When did my app streak reach 50?", ["streak_50"], "temporal", []),
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

conv("zh", "cz05", "u_xiaochen", "小陈", """
== 2026-02-09 23:50
u: 又加班 刚下班
a: 辛苦了，这么晚，吃东西了吗？
u: 泡面。在深圳南山做后端 天天996 #job_996
a: 长期这样身体吃不消。每天至少留七个小时睡觉，泡面别天天吃，便利店的饭团加个鸡蛋都比它强 #food_sleep
u: 恩
a: 明天中午至少吃顿正经饭
u: 公司楼下只有猪脚饭
a: 猪脚饭也比泡面强，加份青菜
== 2026-02-12 22:40
u: 脖子好疼 一天低头盯屏幕 #neck_pain
a: 把显示器垫高到眼睛平视的位置，每四十五分钟起来活动一下，做几次收下巴的动作 #neck_tips
u: 公司给的显示器太矮
a: 先用几本书垫着，或者买个二三十块的支架
== 2026-02-16 21:10
u: 想跳槽了
a: 是太累，还是别的原因？
u: 都有 领导天天改需求
a: 先把简历更新好，最近两年的项目按“问题-做法-结果”写，有数字最好，比如性能提升了多少 #resume_tip
u: 接口从800ms降到120ms 这个算吗 #api_800
a: 非常算，这就是亮点
== 2026-02-25 23:05
u: 约了两个面试 一个电商 一个做游戏的 #two_interviews
a: 不错！时间都定了吗？
u: 下周二三
a: 简历上每个项目都要能讲五分钟，再把常见的Redis和MySQL八股过一遍 #interview_prep
== 2026-03-05 22:15
u: 电商那家挂了 算法题没写出来 #ecommerce_fail
a: 一次没过很正常，把那道题记下来，之后多刷点LeetCode中等题
u: 游戏公司二面过了
a: 恭喜！二面过了一般就剩HR面了
u: 周五hr面
== 2026-03-12 21:30
u: 游戏公司给offer了 28k #offer_28k
a: 恭喜！要接吗？
u: 在犹豫 想谈谈
a: 可以礼貌地说出期望，比如30k，理由就是你做性能优化的经验，说完就等对方回复，别自己先松口 #negotiate
== 2026-03-16 20:50
u: hr说最多32k 再加半年奖 我接了 #offer_32k
a: 比预期还好！什么时候入职？
u: 4月13号入职 #start_date
a: 走之前把交接文档写清楚，好聚好散
== 2026-03-24 23:20
u: 跟领导提离职了 他居然挽留 说给我加两千 #counter_offer
a: 你怎么想？
u: 不想留
a: 加薪挽留一般解决不了根本问题。你要走是因为改需求和加班，多两千块这些都不会变 #counter_advice
u: 恩 还是走
== 2026-04-02 22:00
u: 买了个人体工学椅 1299 #chair_1299
a: 脖子和腰都会感谢你。高度调到脚能平放、膝盖大概九十度
u: 显示器支架也到了 #monitor_arm
a: 两样都齐了，脖子应该能轻松不少
== 2026-04-14 21:45
u: 入职第二天 新公司在前海 #new_office
a: 感觉怎么样？
u: 十点上班七点走 不加班 #new_hours
a: 终于不用996了，晚上的时间可以留给自己
== 2026-04-25 22:30
u: 晚上闲下来了 想学点啥
a: 你对什么感兴趣？
u: 想学日语 打游戏看剧情用 #jp_why
a: 先用五十音图的APP花两周把假名背熟，再看NHK的简单新闻，每天二十分钟就够 #japanese_plan
== 2026-05-08 21:00
u: 假名背完了 比想的快 #kana_done
a: 两周就背完，很厉害。可以开始学简单句子了
u: 脖子也不怎么疼了
a: 看来椅子和支架没白买
== 2026-05-20 22:10
u: 新公司也有个bug修到半夜 就一次
a: 偶尔一次可以，别变成常态
u: 老同事说原来领导又在改需求
a: 幸好你已经走了
u: NHK还是看不太懂
a: 先看NHK Easy，汉字上面有注音
u: 买了个Kindle 看日语漫画
a: 漫画里的口语挺实用
""", [
    ("我现在一个月工资多少", ["offer_32k"], "update", ["offer_28k"]),
    ("我现在几点上下班", ["new_hours"], "update", ["job_996"]),
    ("天天吃泡面那会你让我咋弄", ["food_sleep"], "paraphrase", []),
    ("颈椎不舒服你教了啥", ["neck_tips"], "paraphrase", []),
    ("改简历你说项目经历要怎么写", ["resume_tip"], "paraphrase", []),
    ("简历上接口优化的数据是多少", ["api_800"], "lexical", []),
    ("去面之前你让我复习哪些技术题", ["interview_prep"], "paraphrase", []),
    ("第一家为啥没过", ["ecommerce_fail"], "paraphrase", []),
    ("跟hr谈钱你怎么教我的", ["negotiate"], "paraphrase", []),
    ("新公司哪天开始去上班", ["start_date"], "temporal", []),
    ("老板想留我那次你说了啥", ["counter_advice"], "paraphrase", []),
    ("老东家挽留说给我涨多少", ["counter_offer"], "lexical", []),
    ("人体工学椅花了多少", ["chair_1299"], "lexical", []),
    ("新公司在深圳哪个片区", ["new_office"], "paraphrase", []),
    ("学日文你让我先从哪开始", ["japanese_plan"], "paraphrase", []),
    ("啥时候把假名背完的", ["kana_done"], "temporal", []),
    ("当时约面试的是哪两类公司", ["two_interviews"], "paraphrase", []),
    ("我学日语图啥", ["jp_why"], "paraphrase", []),
    ("我是哪天跟领导说要走的", ["counter_offer"], "temporal", []),
    ("最后谈下来的比第一次给的多了多少", ["offer_28k", "offer_32k"], "multi_hop", []),
])

conv("zh", "cz06", "u_meimei", "美美", """
== 2026-03-01 21:30
u: 啊啊啊开学第一天就被室友的闹钟吵醒三次！！她定了五个闹钟你敢信😭
a: 哈哈听着好崩溃，你们宿舍几个人呀？
u: 四个人，我睡下铺，她就在我上面，一响整张床都在抖 #dorm_four
a: 可以跟她商量把手机放枕头底下开震动，或者买个震动手环，只叫醒她自己 #alarm_fix
u: 手环！我明天就跟她说，她人其实挺好的就是起不来哈哈
== 2026-03-04 22:10
u: 她真的买了手环！还请我喝了一杯奶茶赔罪嘻嘻 #alarm_solved
a: 太好了，问题解决还赚到一杯奶茶
u: 说到奶茶…我一周要喝五六杯，感觉胖了好多，现在58公斤 #weight_58
a: 可以先减到一周两杯，点的时候选三分糖，不要奶盖和珍珠，热量能少一大半 #milk_tea_tip
u: 不加珍珠那还叫奶茶吗呜呜呜
== 2026-03-09 20:40
u: 我想找个兼职！！家里每个月给1500根本不够花 #allowance_1500
a: 学校附近有什么机会吗？
u: 学校门口有家奶茶店在招人，一小时15块 #job_milktea
a: 可以试试，但要问清楚排班，别跟上课冲突，也别熬夜，最好排在周末 #job_schedule
u: 我去问问老板！
a: 顺便问问有没有试用期，试用期工资一不一样
u: 好哒记住了！
== 2026-03-15 19:20
u: 我入职奶茶店啦！！周六周日下午各四个小时 #milktea_hired
a: 恭喜美美！别每天顺手喝一杯哦
u: 哈哈哈哈你好懂我，店长说员工喝半价
== 2026-03-20 23:15
u: 呜呜呜男朋友在北京上学，我们异地三个月了，今天又因为回消息慢吵架了 #bf_beijing
a: 异地确实容易因为小事吵。你们平时怎么联系的？
u: 就微信，他经常打游戏不回
a: 可以约个固定时间，比如每晚十点视频十五分钟，这段时间谁都不干别的，其他时候回慢一点也不用焦虑 #ld_advice
u: 嗯嗯这个好，我去跟他说
== 2026-03-28 21:00
u: 固定视频超有用！！这周一次都没吵 #ld_works
a: 太好了，有了安全感就不那么在意小事了
u: 他说五一要来武汉看我🥰 #bf_visit
== 2026-04-06 22:30
u: 期中要考高数了我完全没看😭😭
a: 离考试还有多久？
u: 十天！
a: 把老师划的重点和课后习题过一遍，每天三个小时，先做会的，不会的拿去问同学或者去答疑课 #exam_plan
u: 答疑课在周三下午，我从来没去过哈哈哈 #qa_wed
== 2026-04-17 20:15
u: 高数考了82！！！比我想的高好多 #math_82
a: 恭喜恭喜！十天没白熬
u: 答疑课的学长讲得超清楚，我要去他那蹭课了哈哈
a: 去吧，遇到讲得清楚的人要抓住
u: 嘻嘻我是说学高数！！
== 2026-04-24 21:40
u: 我不在奶茶店干了…店长老让我周五晚上加班到十一点 #quit_milktea
a: 影响休息确实不行，辞了也好
u: 现在给一个初二的小妹妹辅导数学，一小时60！周二周四晚上 #tutor_job
a: 比奶茶店好多了，时间也固定
== 2026-05-03 22:50
u: 男朋友来啦！带他去户部巷，他说热干面太干了哈哈哈 #bf_came
a: 哈哈外地人第一次吃热干面都这么说，下次带他吃豆皮
u: 我们还去东湖骑车了，晒黑了一个度😂 #east_lake
a: 骑一圈挺累的吧，记得涂防晒
u: 他走的时候在高铁站抱了我好久呜呜
a: 下次见面也不远了，暑假就能去北京
a: 骑一圈挺累的吧，记得涂防晒
== 2026-05-12 20:20
u: 报告！我现在55公斤了！！奶茶一周就喝两杯 #weight_55
a: 太厉害了！靠管住奶茶做到的
u: 不在奶茶店上班诱惑也少了嘻嘻
== 2026-05-22 21:10
u: 下周要期末复习了啊啊啊，还要给妹妹出一套卷子
a: 可以用你准备高数那套办法，先抓重点再刷题
u: 她妈妈说她期中数学进步了十五分！！ #student_progress
a: 你真的很适合当老师
== 2026-06-02 22:00
u: 室友又换了个新闹钟，还好是震动的哈哈
a: 手环的胜利
u: 宿舍楼下新开了一家奶茶店，第二杯半价，我忍住了！！
a: 为你的自制力鼓掌
u: 男朋友说暑假让我去北京玩
a: 可以提前看看博物馆，很多要预约
u: 妹妹的妈妈问暑假能不能一周上三次
a: 一周三次的话记得跟你自己的暑假安排错开
""", [
    ("我现在在做什么兼职", ["tutor_job"], "update", ["job_milktea", "milktea_hired"]),
    ("我现在多重", ["weight_55"], "update", ["weight_58"]),
    ("室友早上吵人那事你出了什么主意", ["alarm_fix"], "paraphrase", []),
    ("想喝甜饮料又怕长肉，你是怎么建议的", ["milk_tea_tip"], "paraphrase", []),
    ("家里一个月给我多少生活费", ["allowance_1500"], "lexical", []),
    ("找打工那会儿你提醒我注意什么", ["job_schedule"], "paraphrase", []),
    ("奶茶店时薪多少", ["job_milktea"], "lexical", []),
    ("和对象老吵架你怎么劝我的", ["ld_advice"], "paraphrase", []),
    ("每天约好时间联系的办法后来效果咋样", ["ld_works"], "paraphrase", []),
    ("男朋友在哪个城市念大学", ["bf_beijing"], "paraphrase", []),
    ("离考试只剩没几天那次你帮我怎么安排的", ["exam_plan"], "paraphrase", []),
    ("高数期中考了多少分", ["math_82"], "lexical", []),
    ("答疑课是星期几", ["qa_wed"], "lexical", []),
    ("上一份打工为啥辞了", ["quit_milktea"], "paraphrase", []),
    ("做家教一小时多少钱", ["tutor_job"], "lexical", []),
    ("男朋友是哪天到武汉的", ["bf_came"], "temporal", []),
    ("带他去吃了啥，他觉得怎么样", ["bf_came"], "paraphrase", []),
    ("我辅导的那个小孩成绩有变化吗", ["student_progress"], "paraphrase", []),
    ("我什么时候开始在奶茶店上班的", ["milktea_hired"], "temporal", []),
    ("从开始控制奶茶到现在我一共瘦了几斤", ["weight_58", "weight_55"], "multi_hop", []),
])

conv("zh", "cz07", "u_kevin", "Kevin", """
== 2026-04-01 21:20
u: 今天被老板push了一整天，Q2的campaign deadline提前到4月20号 #deadline_420
a: 提前了这么多，压力不小。现在最卡的是哪块？
u: KV还没定，agency给的三版都不行 #kv_stuck
a: 把不行的原因写成三条具体feedback给agency，比如品牌色、产品露出、文案长度，比只说“感觉不对”有用得多 #agency_feedback
u: 有道理，我明天就重写个brief
a: brief里再写上deadline和谁来审批，省得来回改
u: 审批的就是我老板，他最难搞
== 2026-04-05 20:10
u: 周末跟老婆Vivian商量去日本，想国庆去大阪，吃吃喝喝 #trip_osaka
a: 国庆日本人也多，机票要早点订。大阪可以住难波附近，去京都奈良都方便 #osaka_stay
u: Airbnb还是酒店？
a: 两个人的话，难波的商务酒店性价比更高，日本的Airbnb限制多 #hotel_vs_airbnb
== 2026-04-12 22:40
u: 打羽毛球崴了脚踝，肿得像馒头 #ankle
a: 先冰敷，每次十五到二十分钟，把脚抬高，48小时内别热敷。要是不能走路或者一按骨头就疼，要去拍片 #ankle_rice
u: 还能走，就是疼
a: 那先歇两三天，别急着上场
u: 周末本来还约了球，只能鸽了
== 2026-04-16 21:30
u: 脚好多了。KV终于定了，agency改到第四版，老板说OK #kv_done
a: 太好了！四版搞定还算快
u: 下周要给APAC的VP做presentation，全英文，有点慌 #vp_pres
a: 开头一分钟先讲结论，后面只放三个数据支撑，每页一个重点，提前找同事rehearsal两遍 #pres_tips
== 2026-04-24 20:50
u: Presentation过了！VP说story很clear #pres_done
a: 恭喜！结论先行果然有用
u: campaign 4月20号准时上线，第一周CTR 2.3%，比去年高 #ctr_23
== 2026-05-06 21:00
u: 在看车，Vivian想要Model Y，我觉得比亚迪海豹也不错 #car_choice
a: 两台都去试驾，重点比后排空间、车机和充电方不方便。你们小区能装充电桩吗？ #car_compare
u: 物业说可以装 #charger_ok
a: 那电车就方便多了，家里充比外面便宜不少
u: Vivian说她就是看中了Model Y的大屏
== 2026-05-18 22:15
u: 试驾完了，订了Model Y长续航版，落地大概28万 #car_modely
a: 恭喜！提车要多久？
u: 说是六月中 #car_delivery
a: 提车的时候看看车漆和缝隙，有问题当场提 #car_check
u: 好，我找个懂车的朋友一起去
== 2026-05-30 20:30
u: 脚踝又崴了，还是同一个位置 #ankle_again
a: 反复扭伤要重视，最好去运动医学科看看，可能韧带松了。以后打球戴护踝，平时练练单脚站立 #ankle_brace
u: 好，下周挂号
== 2026-06-08 21:40
u: 医生说韧带轻度损伤，让我停球六周，做康复训练 #ankle_doctor
a: 那就老老实实停六周，康复动作每天做
u: 球友都在群里笑我
a: 等你养好了再回去赢他们
u: 哈哈先在家做康复
== 2026-06-20 19:30
u: 提车了！白色Model Y #car_got
a: 恭喜提车！第一次充电顺利吗？
u: 充电桩装好了，7kW，一晚上充满 #charger_7kw
== 2026-07-02 22:00
u: 日本的计划改了，Vivian说国庆太挤，改成十一月去北海道泡温泉 #trip_hokkaido
a: 十一月的北海道人少很多，登别和洞爷湖的温泉都不错，记得带厚外套 #hokkaido_tip
u: 机票订好了，11月8号出发，玩五天 #flight_1108
a: 十一月初北海道可能已经下雪，鞋子带防滑的
u: Vivian已经在Uniqlo买了两件羽绒服
== 2026-07-15 20:45
u: 六周到了，医生说可以慢慢恢复打球 #ankle_ok
a: 先打半小时，强度低一点，一定戴护踝
u: 护踝买了，Decathlon的 #brace_bought
== 2026-07-28 21:10
u: Q3的campaign又要开始了，老板又在push
a: 这次可以早点跟agency对brief
u: agency换了一家，希望别再改四版
a: 第一次沟通就把上次那三条feedback给他们
u: Vivian在小红书上看北海道攻略，已经收藏了两百个帖子
a: 那行程应该不用愁了
u: 开Model Y去了趟杭州，高速上挺省电
a: 跑长途记得提前规划好充电站
""", [
    ("我们去日本最后定的哪儿", ["trip_hokkaido"], "update", ["trip_osaka"]),
    ("我现在能回去打球了吗", ["ankle_ok"], "update", ["ankle_doctor"]),
    ("设计公司那几版主视觉都不满意的时候，你教我怎么跟他们说", ["agency_feedback"],
     "paraphrase", []),
    ("去关西玩你建议住哪一片", ["osaka_stay"], "paraphrase", []),
    ("民宿跟酒店你当时怎么比的", ["hotel_vs_airbnb"], "paraphrase", []),
    ("第一次扭伤脚你让我怎么处理", ["ankle_rice"], "paraphrase", []),
    ("给大老板做英文汇报你给了哪些建议", ["pres_tips"], "paraphrase", []),
    ("campaign上线第一周CTR多少", ["ctr_23"], "lexical", []),
    ("Q2那个活动最后期限是哪天", ["deadline_420"], "temporal", []),
    ("挑车的时候你让我重点看什么", ["car_compare"], "paraphrase", []),
    ("Model Y落地多少钱", ["car_modely"], "lexical", []),
    ("新车是什么时候开回家的", ["car_got"], "temporal", []),
    ("家里充电桩多少kW", ["charger_7kw"], "lexical", []),
    ("脚老是受伤你说该怎么办", ["ankle_brace"], "paraphrase", []),
    ("看完医生，韧带怎么样，要歇多久", ["ankle_doctor"], "paraphrase", []),
    ("北海道你推荐去哪泡温泉", ["hokkaido_tip"], "paraphrase", []),
    ("我们几号飞日本", ["flight_1108"], "temporal", []),
    ("护踝是在哪买的", ["brace_bought"], "lexical", []),
    ("VP听完我的汇报怎么评价", ["pres_done"], "paraphrase", []),
    ("KV是改到第几版才过的", ["kv_done"], "lexical", []),
    ("去拿新车那天你提醒我看什么", ["car_check"], "paraphrase", []),
    ("两次崴脚中间隔了多久", ["ankle", "ankle_again"], "multi_hop", []),
])

conv("zh", "cz08", "u_zhaojie", "赵姐", """
== 2026-05-11 22:30
u: 小助手，我在西安开了个小面馆，卖油泼面和臊子面，刚开两个月 #shop_open
a: 赵姐好！开店辛苦了，现在生意怎么样？
u: 中午还行，晚上人少。房租一个月8500，压力大 #rent_8500
a: 晚上可以上外卖平台，再做个晚市套餐，比如面加凉菜加饮料29.9，把每单的钱提上去 #dinner_set
u: 套餐这个主意好
a: 套餐名字可以起得亲切点，比如“下班一碗面”
u: 哈哈这个名字我喜欢
== 2026-05-14 21:50
u: 外卖平台抽成要18%，划算吗 #platform_18
a: 算一下：一份25块的面，抽成4块5，再扣一块包装，食材成本在9块以内就还是赚的。外卖价可以比堂食高两三块 #platform_math
u: 食材成本大概8块
a: 那可以做，外卖定27或28
== 2026-05-20 20:40
u: 外卖上线了，第一天接了23单 #delivery_23
a: 开门红！高峰期注意出餐速度，别让骑手等太久
u: 油泼面最受欢迎 #best_seller
a: 那外卖就主推油泼面，图片拍好看点
u: 让女儿帮我拍的
== 2026-05-27 22:10
u: 一个人忙不过来了，想招个帮工
a: 可以先招中午11点到下午2点的钟点工，一小时20左右，比请全职省钱 #part_time_help
u: 我贴个招人启事
a: 启事上写清楚时间和时薪，贴在店门口，也发到附近的兼职群里
u: 好，隔壁店老板说他有群
== 2026-06-03 21:20
u: 招到了，一个大学生叫小刘，周一到周五中午来 #hired_liu
a: 太好了，第一周多带带他，把出餐流程写在纸上贴墙上 #process_sheet
u: 写了，他学得挺快
== 2026-06-12 22:40
u: 女儿下周高考，我紧张得睡不着，比她还紧张 #daughter_gaokao
a: 您紧张很正常。这几天家里饭菜照常，别突然大补，也别老问她复习得怎么样，让她按自己的节奏来 #gaokao_parent
u: 那两天我关店陪她
a: 关店前一天在门口贴个通知，外卖平台也设成休息 #closure_notice
u: 对对，差点忘了平台
== 2026-06-25 21:00
u: 分出来了，女儿考了612！ #score_612
a: 太棒了！恭喜赵姐，想报哪里？
u: 她想去成都读医
a: 可以查查四川大学和成都医学院往年在陕西的录取分。学医要多读几年，提前跟她聊好 #med_school
== 2026-07-06 22:30
u: 房东说下个月起房租涨到9200 #rent_9200
a: 一个月多700，一年就是8400。可以跟房东谈一次签两年，换一个低一点的价 #rent_negotiate
u: 我去试试
== 2026-07-13 20:50
u: 谈下来了，签两年，每月9000 #rent_9000
a: 比他开的价低了，谈得不错
u: 房东人还行
== 2026-07-24 21:40
u: 小刘暑假回老家了，换了个阿姨帮忙，王阿姨，每天中午加晚上 #helper_wang
a: 王阿姨时间长，工资怎么算？
u: 王阿姨一个月3000 #wang_3000
a: 比钟点工贵一点，但晚上有人搭手，外卖单子能多接
u: 她做的凉菜比我做的还好吃
a: 那可以把凉菜做成招牌
== 2026-08-08 22:00
u: 录取了！四川大学临床医学！ #admitted
a: 太好了！这是全家的大喜事
u: 9月6号报到，我送她去 #report_date
a: 那几天店可以让王阿姨照看
== 2026-08-20 21:30
u: 最近腰疼，天天站十二个小时 #back_pain
a: 站的地方铺一块防疲劳地垫，每两个小时坐下歇五分钟，疼得厉害要去医院 #anti_fatigue
u: 地垫在拼多多买了，39块
a: 这钱花得值，鞋也换双软底的
== 2026-09-10 22:10
u: 送女儿到成都了，宿舍挺好，我回来了
a: 一路辛苦，她肯定很开心
u: 房东又来问要不要装空调，说费用一人一半
a: 写进合同里就好
u: 外卖平台说抽成要涨到20%，我得重新算算
a: 还按之前的算法，扣掉抽成和包装看剩多少
u: 王阿姨说九月底想请三天假
a: 提前排好，那几天少接点外卖
""", [
    ("我现在每月房租多少", ["rent_9000"], "update", ["rent_8500", "rent_9200"]),
    ("现在店里是谁在帮我", ["helper_wang"], "update", ["hired_liu"]),
    ("晚上冷清那阵你给我出的主意", ["dinner_set"], "paraphrase", []),
    ("你帮我算过送餐那块到底赚不赚", ["platform_math"], "paraphrase", []),
    ("刚上外卖时平台抽几个点", ["platform_18"], "lexical", []),
    ("外卖第一天接了多少单", ["delivery_23"], "lexical", []),
    ("找人搭把手你建议找什么样的", ["part_time_help"], "paraphrase", []),
    ("新来的人怎么带，你说过", ["process_sheet"], "paraphrase", []),
    ("孩子大考前当妈的该注意啥，你说的", ["gaokao_parent"], "paraphrase", []),
    ("女儿高考多少分", ["score_612"], "lexical", []),
    ("闺女想学医你提醒了我什么", ["med_school"], "paraphrase", []),
    ("房东要加钱你让我怎么跟他谈", ["rent_negotiate"], "paraphrase", []),
    ("王阿姨一个月多少工资", ["wang_3000"], "lexical", []),
    ("女儿最后去了哪个学校", ["admitted"], "paraphrase", []),
    ("女儿几号去学校报到", ["report_date"], "temporal", []),
    ("腰不舒服你说怎么缓解", ["anti_fatigue"], "paraphrase", []),
    ("店里卖得最好的是哪样", ["best_seller"], "paraphrase", []),
    ("面馆大概是什么时候开张的", ["shop_open"], "temporal", []),
    ("小刘是啥时候来店里的", ["hired_liu"], "temporal", []),
    ("关店陪考那两天你提醒我做什么", ["closure_notice"], "paraphrase", []),
    ("签两年比房东原来要涨到的价，一年能省多少", ["rent_9200", "rent_9000"], "multi_hop",
     []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"companion_{lang}")
