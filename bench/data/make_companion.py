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


conv("en", "en09", "u_luis", "Luis", """
== 2026-02-03 23:50
u: fryer spat oil on my hand mid service, stings like hell #burn_first
a: Ouch, sorry Luis. Cool running water for a good 20 minutes, no ice. Then cover it loosely with cling film. No butter, no toothpaste #burn_advice
u: lol my avó would 100% put butter on it
a: Lots of grandmothers do, but butter keeps the heat in. How big is it?
u: like a 2 euro coin, no bubbles. tap running, obrigado
== 2026-02-08 14:20
u: day off, doing food truck maths again
a: Love it. Where are the numbers at?
u: 9400 saved, need like 30k total #savings_9400
a: Solid start. Set an automatic transfer on payday into a separate account with no card, so the money never sits where you spend it #auto_transfer
u: ya if i see it i spend it on imperiais lol. 400 a month then #save_400
== 2026-02-15 21:05
u: avó gave me her recipe notebook, pages falling apart #avo_notebook
a: What a gift. Photograph every page this week and keep the photos in two places, phone and cloud #photo_notebook
u: her bifanas are in there, pork overnight in white wine, garlic, colorau, louro. main thing on the truck for sure #bifana_marinade
a: Great anchor for a menu. Are the quantities written down?
u: nah its all "um copo" and "q.b." lol
a: Then cook with her and weigh everything before it goes in the pot. Write the grams in the margin #cook_with_avo
== 2026-02-23 23:10
u: ok dont laugh, rui made me get a dating app
a: No laughing. How's it going?
u: matched w a girl called carolina, been texting since 9 #match_carolina
a: Nice! What does she do?
u: architect in príncipe real. she draws buildings, i burn myself haha #carolina_job
u: what do i even suggest for a first date, i always freeze
a: Keep it short and easy: walk up to a miradouro at sunset, then one drink. If it's going well you stay #first_date_idea
== 2026-03-04 22:30
u: found a truck mano!! 2011 renault master, kitchen already fitted. guy wants 19500 #truck_19k
a: Exciting! Before paying anything, get an independent mechanic to check it, and ask for the kitchen's gas certificate and the inspeção papers #truck_checks
u: my cousin knows a mechanic in amadora
a: Perfect, book him before you fall in love with it
== 2026-03-11 23:10
u: first date w carolina was yesterday at miradouro da graça #date_graca
a: And?? How did it go?
u: 4 hours!! shes vegetarian tho, im a bifana guy lol
a: Maybe the truck needs a veggie option anyway. Mushroom bifanas are a thing
u: lowkey not bad. burn is just a pink mark now btw
a: Good. Keep it out of strong sun for a few weeks
== 2026-03-20 16:40
u: went to the câmara about the permit, got sent to 3 different desks
a: Classic. What did you find out?
u: need the vending licence and an approved spot. plan is alcântara near lx factory, tourists everywhere #loc_alcantara
a: Good foot traffic there. You'll also need a HACCP plan and a hygiene certificate; the course is usually one day, 50 to 80 euros #haccp
u: mine from the restaurant prob expired, ill redo it
== 2026-04-02 20:10
u: cooked caldo verde w avó and weighed everything, she hated the scale #caldo_verde
a: Worth it, one recipe in real numbers
u: how do i price stuff tho, no clue what a bifana should cost
a: Aim for ingredients to be about 30% of the price. If a bifana costs you 1.40 to make, sell it around 4.50 #food_cost
u: 1.40 sounds right w the bread from the padaria
== 2026-04-14 22:45
u: mechanic says the clutch is basically dead and one tyre is bald #clutch_worn
a: Good thing you checked. A clutch on a Master is often 700 to 900 fitted. Ask him to fix it or take it off the price #clutch_advice
u: he dropped it to 17000, i sort the clutch myself #truck_17k
a: Nice negotiating. Will he hold it for you?
u: 6 weeks if i put something down
== 2026-04-27 19:30
u: câmara says alcântara is full, no new licences there this year #alcantara_full
a: That's a blow. Any other zones, or a private lot you could rent?
u: rui's uncle knows a guy w a lot in marvila next to 2 craft breweries. thats the spot now #loc_marvila
a: Breweries with no kitchen are perfect neighbours. What does he want for it?
u: 250 a month, água e luz included #lot_rent
a: Very fair. Get it in writing, even a simple contract
== 2026-05-08 18:20
u: carolina comes to mine tomorrow, first time i cook for her. shes veggie remember
a: Cook something you could make half asleep: avó's caldo verde without the chouriço, with a bit of smoked paprika oil on top #date_cook_tip
u: ohh smart. arroz doce after
a: Perfect. A clean kitchen and a candle beat five courses
== 2026-05-16 13:10
u: put 2000 down on the van this morning, hes holding it till end of june #deposit_paid
a: Huge step! Get a signed receipt with the price and the hold date
u: done. dinner was a hit btw, carolina wants to design the truck logo
a: Lovely. Agree who owns the logo so it's simple later
u: 9800 left in savings after the deposit, extra shifts helped
== 2026-06-09 23:30
u: steam from the bain marie got my wrist, blister popped on the way home
a: Ouch. Don't peel the loose skin, it protects what's under it. Wash gently and use a non-stick dressing, change it daily
u: looks nasty ngl
a: If it gets red and hot around the edges or leaks yellow stuff, get it checked
u: chef says long sleeves from now on
== 2026-07-04 17:00
u: saw another truck online, big iveco, 24000, hatches on both sides
a: Tempting, but you've got a deposit down on the Master. Worth losing that?
u: nah just dreaming, the master is my baby
u: avó taught me pastéis de bacalhau today, weighed it all this time
a: Another recipe in real numbers. Going on the menu?
u: weekend special maybe. sign shop in marvila wants 350 to put carolina's logo on the sides
a: Not bad. Maybe sort the clutch first, the logo can wait
""", [
    ("how much is the guy selling the van for now", ["truck_17k"], "update", ["truck_19k"]),
    ("where am i gonna park the truck to sell", ["loc_marvila"], "update", ["loc_alcantara"]),
    ("what did you tell me to do right after hot oil got my hand", ["burn_advice"],
     "paraphrase", []),
    ("how did you say i should put money aside every month", ["auto_transfer"],
     "paraphrase", []),
    ("what did you say to do so grandma's old book doesn't get lost", ["photo_notebook"],
     "paraphrase", []),
    ("how did you say i could get proper amounts when grandma just cooks by eye",
     ["cook_with_avo"], "paraphrase", []),
    ("what did you suggest for meeting the girl from the app the first time",
     ["first_date_idea"], "paraphrase", []),
    ("what did you say i should look at before paying for a secondhand van",
     ["truck_checks"], "paraphrase", []),
    ("how did you tell me to figure out what to charge for the food", ["food_cost"],
     "paraphrase", []),
    ("what did you say to do when the mechanic found stuff wrong with the van",
     ["clutch_advice"], "paraphrase", []),
    ("what did you suggest i make when carolina came over for dinner", ["date_cook_tip"],
     "paraphrase", []),
    ("what does the girl i met online do for a living", ["carolina_job"], "paraphrase", []),
    ("why couldn't i get my first choice of neighbourhood for the truck",
     ["alcantara_full"], "paraphrase", []),
    ("what goes in avó's bifana marinade", ["bifana_marinade"], "lexical", []),
    ("what did you tell me about the HACCP course", ["haccp"], "lexical", []),
    ("how much is the rent on the marvila lot", ["lot_rent"], "lexical", []),
    ("where did carolina and i meet on our first date", ["date_graca"], "lexical", []),
    ("when did i put money down on the van", ["deposit_paid"], "temporal", []),
    ("when did the fryer burn me", ["burn_first"], "temporal", []),
    ("when did i match with carolina", ["match_carolina"], "temporal", []),
    ("how much do i still owe on the van after what i paid to hold it",
     ["truck_17k", "deposit_paid"], "multi_hop", []),
])

conv("en", "en10", "u_hannah", "Hannah", """
== 2026-04-07 20:45
u: Hi. Quick context: I'm in year 3 of a marine biology PhD in Plymouth, on seagrass meadows in Plymouth Sound. Next big thing is a 4-day boat trip, 12-15 May: 60 sediment grab samples across 6 sites. #plan_60
a: Big trip! How are you feeling about it?
u: Mostly dread, because I get badly seasick. On a 2-hour trip in 2024 I was sick 5 times and useless for the rest of the day.
a: Then plan ahead: take a tablet such as hyoscine before you board, not once you feel ill. Stay on deck in the middle of the boat, watch the horizon, nibble plain crackers #seasick_tips
u: Tablet before boarding, midships, horizon, crackers. Noted. The boat is the RV Kittiwake, 21 m, so not tiny, but the Sound gets choppy in a south-westerly.
a: 21 metres is a decent size. Fingers crossed for calm water
== 2026-04-13 19:30
u: Different topic: on 21 March we adopted a retired racing greyhound, Juniper. She's 3, weighs 28 kg, and ran 31 races at Romford before retiring. #juniper_intro
a: Congratulations! How is she settling in?
u: Very well, apart from stairs: ex-racers often never saw any. My flat is on the first floor, 14 steps, and she freezes on the second one and trembles. #stairs_problem
a: Very common. Put treats on the first two steps only and let her choose to climb, then add a step every couple of days. Never pull the lead #stairs_plan
u: So about 4 weeks for all 14. My back won't enjoy carrying 28 kg till then.
== 2026-04-21 22:10
u: Supervisor problem. My Chapter 3 (the field data chapter) draft is due to Fiona, my main supervisor, on 15 June. #ch3_june15
u: Today she asked me to add an eDNA analysis to it. That's roughly 3 extra months of lab work. I said it wasn't feasible; she said "make it feasible". #carew_edna
a: Put it in writing, calmly: an email with the timeline, what eDNA would add, what it would cost in months, and two options. Then ask to meet with your second supervisor there #sup_email_advice
u: My second supervisor is Dr Tunde Okafor, who is much more pragmatic. I'll draft the email tonight and sleep on it before sending.
a: Good. He sounds like the right person to have in the room
== 2026-05-03 18:05
u: Hay fever has started, earlier than usual; grass pollen, I think. I take cetirizine 10 mg every morning, but it makes me so drowsy I nodded off at the microscope twice on Thursday. #cetirizine
a: Ask a pharmacist or your GP about a less sedating one
u: I'll ask. Any non-drug tips? I'm on the shore sampling 3 days a week at the moment.
a: Wraparound sunglasses outside, shower and change clothes as soon as you're home, windows shut in the evening, and check the pollen forecast #hayfever_tips
u: A labmate swears by Vaseline. Real or folklore?
a: Real enough: a thin layer around the nostrils traps some pollen. Cheap and harmless #vaseline
== 2026-05-10 21:30
u: The boat trip for 12-15 May is cancelled: gale warning, gusts up to 45 knots. It's been rebooked for 26-29 May, same 6 sites. #trip_postponed
a: Much better than being out in that. Does it cause problems?
u: It eats 2 weeks of analysis time before the 15 June deadline. Good news though: Juniper now manages 6 of the 14 steps!
a: 6 of 14, great! And a weather delay is a fair argument for more time
== 2026-05-30 12:15
u: Back from the Kittiwake last night. Day 1 I was sick twice, then I took the tablet before breakfast on days 2-4 and stayed midships: fine! #back_boat
a: That's a huge improvement on 5 times in 2 hours. How did the sampling go?
u: We got 48 grab samples in total. Site 5 was too rough to sample on day 3, and the grab jammed twice at site 2. #grabs_48
a: Still a good dataset. Examiners understand weather; note the reasons in your methods
u: Already in my field notebook, with times and wave heights.
== 2026-06-04 17:40
u: Met Fiona and Tunde today. Tunde suggested the eDNA becomes a short appendix using samples I already have, not a new analysis. Fiona agreed, reluctantly. #okafor_compromise
a: Good outcome! How do you feel?
u: Relieved. And because of the boat delay, the Chapter 3 draft is now due on 10 July instead of 15 June. #ch3_july10
a: Almost four extra weeks. Confirm it by email so it's on record
u: Sent a summary email 10 minutes after the meeting. She replied: "fine".
== 2026-06-12 20:20
u: GP update: she has switched me from cetirizine to fexofenadine 180 mg, once a day, starting today. #fexo
a: Good. Give it a week and see how you feel at the microscope
u: Juniper question: her recall is about 50% in the garden and 0% anywhere else. Last week she saw a squirrel and was 200 m away in about 6 seconds.
a: Sighthounds chase movement; it's instinct. Practise recall on a 10 m long line with high-value treats like chicken, and only let her off lead in a fenced area #recall_longline
u: There's a secure dog field in Plympton: £9 for 30 minutes, 1.8 m fences. Booked for Saturday at 9. #field_plympton
== 2026-06-19 21:50
u: Analysis question. Response is amphipod counts per grab, predictor is seagrass shoot density; 5 sites with data, 8 to 10 grabs each. A plain linear model feels wrong to me.
a: Try a GLMM: negative binomial or Poisson, with site as a random effect. Check overdispersion first; amphipod counts usually need the negative binomial #mixed_model
u: Dispersion ratio is 3.7, so negative binomial it is. I'll fit it with glmmTMB in R.
a: Good choice. Keep one script from raw data to figures
== 2026-06-28 22:30
u: Honest status: Chapter 3 is at 4,200 of a planned 12,000 words, with 12 days to go. I keep "writing" for 9 hours a day and producing about 300 words.
a: Try three 90-minute blocks in the morning, phone in another room, no email until the first is done, and a target of 700 words a day instead of hours #writing_routine
u: 700 x 11 days = 7,700, so 11,900. Close enough; the figures carry the rest.
a: Exactly. And walk Juniper between blocks, it'll help you both
u: She'd approve. She considers everything except walks and sofas pointless.
== 2026-07-09 18:00
u: Submitted the Chapter 3 draft to Fiona at 16:40 today, one day early: 11,650 words, 7 figures, 4 tables. #ch3_submitted
a: Congratulations, Hannah! A day early, after all that
u: Also: Juniper climbed all 14 steps alone yesterday. Very pleased with herself.
a: Two big wins in one week. Celebrate both
== 2026-07-23 21:05
u: Fiona's feedback arrived: 43 comments. About 10 are substantial (she wants the discussion restructured); the other 33 are wording. Trying not to take it personally. #feedback_43
a: Sort them into three piles: quick fixes, ones that need thought, ones you disagree with. Do the quick ones first for momentum #triage_comments
u: And the ones I disagree with?
a: Reply to each with a short reason and evidence, and bring them to your next meeting #disagree_reply
u: Quick-fix pile done in 2 hours 20 minutes. Oddly satisfying.
== 2026-08-08 10:30
u: The trainer at the dog field says greyhounds "can't sit". True? Juniper hovers halfway for about 2 seconds and then lies down.
a: Mostly true: their long hind legs and big thigh muscles make sitting uncomfortable for many. Teach a "down" as her calm default instead #sit_advice
u: Her down works 9 times out of 10, so we'll build on that. Hay fever is easing too.
a: Good news on both counts
== 2026-08-27 19:40
u: Fiona wants one more field day to fill the site 5 gap: a single day on a 7 m RIB, 16 September. A RIB sounds far worse for seasickness than the Kittiwake.
a: Bumpier, but only one day. Sit towards the back, where the motion is gentlest
u: I'll take the tablet before breakfast again, since that's what worked on days 2-4.
a: Stick with what worked. Pack a dry bag and spare gloves too, RIBs are wet
u: Also, Chapter 4 now has a deadline: first draft to Fiona by 30 October.
a: About two months, and the September samples will feed straight into it
== 2026-09-06 20:10
u: Juniper's check-up: 29.5 kg, up from 28 when we got her, teeth good, vet happy.
a: Lovely! A bit of gain is normal for ex-racers
u: Also, Fiona called my revised discussion "the strongest part of the thesis so far"!
a: What a turnaround since July. Well done
u: Booked the Plympton field again for Saturday. Her recall there is now about 80%.
a: 80% is excellent for a sighthound. Keep the sessions short and fun
""", [
    ("What did the due date for my field data chapter end up being?", ["ch3_july10"],
     "update", ["ch3_june15"]),
    ("Which hay fever tablet am I on now?", ["fexo"], "update", ["cetirizine"]),
    ("What did you tell me to do about seasickness before the four-day trip?",
     ["seasick_tips"], "paraphrase", []),
    ("How did you suggest getting my dog used to the steps up to my flat?", ["stairs_plan"],
     "paraphrase", []),
    ("How did you say I should handle my supervisor wanting all that extra lab work?",
     ["sup_email_advice"], "paraphrase", []),
    ("What did you say I should do when I get in from fieldwork during pollen season?",
     ["hayfever_tips"], "paraphrase", []),
    ("How did you suggest I train my dog to come back when I call her?",
     ["recall_longline"], "paraphrase", []),
    ("What kind of statistics did you recommend for my invertebrate numbers?",
     ["mixed_model"], "paraphrase", []),
    ("What did you suggest when I was at the desk all day and getting hardly anything written?",
     ["writing_routine"], "paraphrase", []),
    ("How did you tell me to tackle the mountain of notes on my draft?",
     ["triage_comments", "disagree_reply"], "paraphrase", []),
    ("What did you say about my greyhound not sitting?", ["sit_advice"],
     "paraphrase", []),
    ("Why was I dozing off in the lab in early May?", ["cetirizine"], "paraphrase", []),
    ("What extra work did my main supervisor want added to the field chapter?",
     ["carew_edna"], "paraphrase", []),
    ("Why couldn't we sail on the original dates?", ["trip_postponed"], "paraphrase", []),
    ("What did Tunde propose at the meeting?", ["okafor_compromise"], "lexical", []),
    ("How much does it cost to hire the dog field in Plympton?", ["field_plympton"],
     "lexical", []),
    ("How many comments did Fiona leave on my draft?", ["feedback_43"], "lexical", []),
    ("Why did you say Vaseline would help?", ["vaseline"], "lexical", []),
    ("When did the postponed boat trip actually take place?",
     ["trip_postponed", "back_boat"], "temporal", []),
    ("When did I hand in the Chapter 3 draft?", ["ch3_submitted"], "temporal", []),
    ("When did we adopt Juniper?", ["juniper_intro"], "temporal", []),
    ("How many grab samples short of my target did I come back with?",
     ["plan_60", "grabs_48"], "multi_hop", []),
])


conv("en", "en11", "u_tomasz", "Tomasz", """
== 2026-01-08 21:10
u: evening. layby on the a1 near newark. knee killing me
a: Sorry to hear it. Which knee, and is it an ache or does it lock?
u: left. clicks and locks since i jumped off the trailer in november #knee_locks
a: Locking after a twist can mean torn cartilage. Book the GP this week and ask for a scan, not just painkillers #knee_gp
u: ok will ring them tomoz
== 2026-01-15 20:40
u: me and ewa want to buy a house this year. sick of rent #house_goal
a: Exciting! Where, and what sort of price?
u: doncaster. 3 bed semi round 190k. need 19k deposit, got 11.5k #deposit_target
a: So 7.5k to go. Before seeing a lender, check both your credit files and that you're on the electoral register, lenders look at both #credit_check
u: we never registered lol
a: It's a quick online form. Do it this week, it takes a few weeks to show up #register
== 2026-01-22 13:05
u: lunch in a layby at scotch corner. 3rd pie this week #cab_food
a: Cab food is hard. Got a fridge or a 12V socket in there?
u: both. thinking get a little camping gas stove #gas_stove
a: Please don't cook on gas inside the cab. Carbon monoxide builds up fast in a closed space and drivers have died of it. A 12V lunchbox heater is far safer #no_gas
u: ok ok. ewa would kill me anyway lol
== 2026-01-30 20:25
u: zuzia won 3-1 sunday. shes centre back this season #zuzia_cb
a: Brilliant! Were you there?
u: no. away most weekends, miss loads of her games #miss_games
a: That's hard. Ask a parent who films to send you clips, and have her talk you through them on a video call from the cab #film_clips
u: her mates dad films everything. will ask
== 2026-02-06 19:50
u: mri back. torn meniscus like you said #meniscus
a: At least you know now. What's the plan?
u: keyhole op 24 feb at doncaster royal. 6 weeks off #op_date
a: Tell your transport manager now. Does the company pay full sick pay?
u: 4 weeks full then ssp. hurts the house money #sick_pay
a: Then pause the savings for those weeks instead of dipping into the deposit. Pausing beats going backwards #pause_saving
== 2026-02-12 13:30
u: bought the lunchbox heater, 32 quid. ewas bigos hot in 40 min #heater
a: Bigos in a lorry cab, proper!
u: need more ideas tho. ewa cant cook for me every week
a: Chickpea curry reheats well: onion, garlic, a spoon of curry paste, a tin each of chickpeas and tomatoes, half a tin of coconut milk, 20 min, then spinach #chickpea_recipe
u: even i cant mess that up
== 2026-02-19 20:15
u: broker rang. agreement in principle thru. 171k at 4.79, 5 yr fix #aip_479
a: Great step! How long is it valid?
u: 90 days. op is tuesday then house hunting #aip_90
a: Then aim to find a place by mid-May, or you'll need a new one and rates can move #aip_expiry
== 2026-03-04 15:10
u: on the sofa not a layby for once. going mad
a: How's the knee?
u: swollen but ok. physio gemma gave me exercises 3x a day #physio_gemma
a: Do them even when bored: quad squeezes, straight leg raises and heel slides get the bend back and wake the thigh up. Ice 15 min after #physio_advice
== 2026-03-13 19:30
u: zuzia picked for county trials!!! #county_trials
a: That's huge! When?
u: 28 march in sheffield. can drive the car by then so i take her #trials_date
a: Pack water, snacks and both pairs of boots, trials can run for hours #trials_kit
u: she wants to go as centre back #cb_trials
== 2026-04-10 21:20
u: first week back on the truck. markham moor #back_work
u: knee stiff. getting down from the cab is worst
a: Face the cab and keep three points of contact on the way down, no jumping, even when you're tired #three_points
u: zuzia didnt make county squad btw. cried then ate a whole mcdonalds lol #trials_result
u: scout said try goal cos shes tall
a: Getting to trials at 12 is already something. Let her be gutted for a day, then ask what she wants to work on for next year #trials_next
== 2026-04-22 20:05
u: zuzias keeper broke her wrist. zuzia went in goal sunday, clean sheet!! #zuzia_goal
a: That scout was onto something! Does she like it?
u: loves it. keeper rest of season now #zuzia_keeper
a: Then she'll want proper gloves. Get them fitted in a shop, sizes vary a lot between brands, and keep an old pair for training #gloves_tip
== 2026-05-06 21:00
u: layby near wetherby. bad news
u: bank pulled the 4.79 deal #deal_pulled
a: Annoying, it happens when rates move. Has the broker found another?
u: new bank 4.52, only 2 yr fix. same 171k #offer_452
a: Cheaper now, but you'd remortgage in 2028 at unknown rates. Ask him for the monthly cost of a 2 and a 5 year side by side #two_vs_five
== 2026-05-16 10:30
u: viewed a house in cantley today. 3 bed 185k, long garden #house_viewed
a: Sounds lovely. Anything worry you?
u: boiler looks ancient. offering 180 monday #offer_180
a: Ask the agent for the boiler's age and service history first. If it's over 15 years old, that's a fair reason to offer lower #boiler_tip
== 2026-05-28 13:15
u: sick of chickpea curry lol. another one for the heater?
a: Try a lentil and sausage stew: fry sliced kabanos and an onion, add a tin of tomatoes, a cup of red lentils and stock, 25 min. Good with bread #lentil_stew
u: physio signed me off today #physio_done
u: gemma says keep doing the leg raises at home
a: Great news! Keep them up 3 times a week, and swimming or cycling will keep the thigh strong #keep_strong
== 2026-06-09 20:40
u: layby near grantham. offer accepted on the cantley house!!! #offer_accepted
a: Congratulations Tomasz! That's what you've worked for all year
u: went with the 2 yr fix, 60 quid a month less than the 5 #chose_2yr
a: Makes sense while money's tight. Put a reminder in your phone for early 2028 to look at remortgaging #remortgage_reminder
u: kestrels lost cup final 2-1. her mates dad filmed it, watched in the cab
""", [
    ("what mortgage deal have we got now, what rate and how long", ["offer_452", "chose_2yr"],
     "update", ["aip_479"]),
    ("What position does Zuzia play these days?", ["zuzia_goal", "zuzia_keeper"], "update",
     ["zuzia_cb", "cb_trials"]),
    ("what did you tell me to do when my knee first started giving me trouble", ["knee_gp"],
     "paraphrase", []),
    ("how did i hurt the knee in the first place", ["knee_locks"], "paraphrase", []),
    ("What did you say we should sort out before going to a bank for a mortgage?",
     ["credit_check"], "paraphrase", []),
    ("why was it a bad idea to get a burner for cooking in the lorry", ["no_gas"],
     "paraphrase", []),
    ("how did you say i could keep up with my daughter's matches while im away",
     ["film_clips"], "paraphrase", []),
    ("what did you suggest doing with our savings while i was on reduced pay",
     ["pause_saving"], "paraphrase", []),
    ("Which exercises did you say would get my leg bending again after surgery?",
     ["physio_advice"], "paraphrase", []),
    ("what did you tell me about getting out of the truck safely", ["three_points"],
     "paraphrase", []),
    ("what did you say to compare before picking between the two mortgage options",
     ["two_vs_five"], "paraphrase", []),
    ("How did Zuzia take it when she didn't get into the county team?", ["trials_result"],
     "paraphrase", []),
    ("what bothered me about the house we looked at", ["offer_180"], "paraphrase", []),
    ("how much did the lunchbox heater cost", ["heater"], "lexical", []),
    ("what goes in that chickpea curry you gave me", ["chickpea_recipe"], "lexical", []),
    ("how many times a day did gemma want me doing the exercises", ["physio_gemma"],
     "lexical", []),
    ("how much deposit did we need for a 190k house", ["deposit_target"], "lexical", []),
    ("When was my knee operation?", ["op_date", "aip_90"], "temporal", []),
    ("when did the broker first come back with how much we could borrow", ["aip_479"],
     "temporal", []),
    ("when did i get back behind the wheel at work after the op", ["back_work"], "temporal",
     []),
    ("how much less than the price we first planned on was our offer for the cantley house",
     ["deposit_target", "offer_180"], "multi_hop", []),
])

conv("en", "en12", "u_aisha", "Aisha", """
== 2026-02-03 21:30
u: ok so news: I got promoted yesterday. engineering manager #promotion
a: Congratulations, Aisha! How does it feel?
u: excited and terrified in equal parts
u: first job is hiring two people: a senior backend engineer and a QA engineer #two_roles
a: A good first project. Before any interviews, write down 3 or 4 things that "good" looks like for each role, so every candidate is judged against the same list #scorecard
== 2026-02-10 22:45
u: it's quarter to 11 and I'm still answering slack
a: That's late. What does this week look like?
u: - 7 interviews
u: - 5 one-to-ones
u: - my own tickets, still. and sleeping about 5 hours #overload
a: That's two jobs at once. Drop your own tickets first and hand them to the team this week. Your job now is their output, not yours #drop_tickets
== 2026-02-16 20:05
u: Ramadan starts Wednesday and I've signed up for a half marathon on 10 May #half_date
a: Ramadan Mubarak in advance! How's training going so far?
u: 4 runs a week, longest 14k
u: do I just stop for a month??
a: No need to stop, just aim to maintain. Keep runs easy and short, in the last hour before iftar so you can drink and eat straight after. Do any longer run after iftar at the weekend #fast_run_plan
u: running right before iftar sounds grim but makes sense
a: For suhoor, oats, eggs, yoghurt and dates keep you going longest. And drink steadily from iftar to bed, not a litre in one go #suhoor_tips
== 2026-02-24 19:20
u: Ifeoma accepted!! our backend offer. starts 6 April #ifeoma_accepts
a: Fantastic! What won her over?
u: the code review culture, she said. and I got Ollie (our CTO) to add 5k to the offer #ifeoma_5k
a: Well fought. Plan her first week now: a buddy, laptop ready on day one, and a small ticket she can ship by Friday #onboarding
u: QA still open, 2 in the final round
== 2026-03-03 21:10
u: week 2 of fasting. ran 5k right before iftar yesterday and got really dizzy at the end #dizzy
a: Please don't push through that. Stop and walk if you feel dizzy, and skip the run on hard days. Move it to after iftar once you've had water and something small #dizzy_advice
u: ok after iftar from now on
u: my mum is feeding me like I'm training for an ultra lol
== 2026-03-09 22:00
u: my little brother Bilal got all 4 uni offers. computer science
u: leeds, sheffield, newcastle, manchester
a: Well done Bilal! Which way is he leaning?
u: leeds firm, sheffield insurance. main reason: "better nights out" #bilal_leeds
a: Fair enough at 18, but not the only thing. Get him to an offer holder day, seeing the department and the halls often decides it #offer_day
== 2026-03-17 18:40
u: cried in the work toilets today #cried
a: Oh Aisha, I'm sorry. What happened?
u: nothing really. a deploy broke and I just couldn't. fasting + hiring + 5 hours sleep
a: That sounds like weeks of running on empty. Can you take a few days after Eid? And tell Ollie plainly the load isn't working, with two or three specific things you want taken off you #tell_ollie
u: Eid is Friday. booking Mon and Tue off #eid_off
== 2026-03-26 20:30
u: back after 5 days away from slack. I actually slept 9 hours twice
a: That's so good to hear. Did you manage to talk to Ollie?
u: yes. he takes over the on-call rota, I drop the platform planning meeting, and no interviews on Fridays #ollie_agreed
a: That's a real change, well done for asking. Protect it: pick two evenings a week with the laptop shut and tell the team #laptop_off
u: also QA hire done: Hannah, starts 20 April #hannah_qa
== 2026-04-02 19:05
u: ugh. Ifeoma pulled out. her current company counter-offered #ifeoma_out
a: That's really frustrating after all that work. Did you have a runner-up?
u: Rhys. he was close. calling him tomorrow
a: Be straight with him: the role reopened and he was a strong second. Most people take that well, but move fast in case he has other offers #runner_up_tip
== 2026-04-08 21:30
u: Rhys said yes! starts 11 May #rhys_yes
a: Brilliant, you rescued it. How's the running now Ramadan's over?
u: 16k on Sunday, slow but fine #run_16k
a: Good. A couple more long runs up to 18 or 19k, then ease right off for the last 10 days so your legs are fresh on race day #taper
== 2026-04-15 22:15
u: plot twist. Bilal went to the Manchester offer holder day and now wants Manchester as firm #bilal_manchester
u: he can live at home, saves about 9k a year on halls #bilal_why
a: That's a mature reason. Does he like the course as much?
u: more actually. there's a year in industry
a: Then great. Remind him his insurance should ask for lower grades than his firm, so it's a real fallback #insurance_tip
== 2026-04-22 20:45
u: Hannah started Monday and found 3 bugs already lol
a: A QA who finds bugs in week one, perfect
u: first proper 1:1 with her tomorrow. what do I even ask?
a: Ask what she wants from 1:1s, how she likes to get feedback, and what a good week looks like for her. Let her set half the agenda #first_11
u: writing that down now
== 2026-05-10 19:30
u: DID IT. 2:04:37 #half_done
a: Aisha! Congratulations! How do you feel?
u: wanted sub 2 but the fasting weeks cost me. still happy #sub2
a: Training through Ramadan and still running 2:04 is a proper result. Rest those legs this week
== 2026-05-15 21:00
u: Rhys's first week done. merged his first PR on day 2 #rhys_week
a: Great start. How are 1:1s going with him?
u: weird tbh. how do I do 1:1s with someone who knows more than me?
a: Don't compete on tech. Ask about his career goals and what's blocking him, and lean on him as the expert in design reviews #senior_11
u: also signed up for a 10k in July already lol
a: Give it a week of easy running first, no speed work, your legs are still recovering from the half #recovery
== 2026-05-20 21:40
u: Bilal's made it official on UCAS: Manchester firm, Sheffield insurance #bilal_confirmed
a: Lovely. Your mum must be happy he's staying home
u: work: had a wobbly week, but kept my two laptop-free evenings #wobbly
a: That's what matters: noticing the wobble and still holding the line
""", [
    ("who ended up taking the senior backend job", ["rhys_yes"], "update",
     ["ifeoma_accepts"]),
    ("Which university is Bilal putting first now?", ["bilal_manchester", "bilal_confirmed"],
     "update", ["bilal_leeds"]),
    ("what did you say I should write down before interviewing anyone", ["scorecard"],
     "paraphrase", []),
    ("When I was completely swamped after the promotion, what did you say to let go of first?",
     ["drop_tickets"], "paraphrase", []),
    ("what did you first suggest for running while fasting", ["fast_run_plan"], "paraphrase", []),
    ("What did you recommend eating in the early morning meal?", ["suhoor_tips"],
     "paraphrase", []),
    ("what did you say after I nearly fainted on a run", ["dizzy_advice"], "paraphrase", []),
    ("How did you tell me to approach the candidate who came second?", ["runner_up_tip"],
     "paraphrase", []),
    ("what should the last couple of weeks before the race have looked like", ["taper"],
     "paraphrase", []),
    ("what did you suggest asking in my first one-to-one with the new tester",
     ["first_11"], "paraphrase", []),
    ("What did my boss agree to take off my plate?", ["ollie_agreed"], "paraphrase", []),
    ("why does my brother want to stay in his home city for uni", ["bilal_why"],
     "paraphrase", []),
    ("why did our first pick for the backend role back out", ["ifeoma_out"], "paraphrase",
     []),
    ("did I hit my target time in the race", ["sub2"], "paraphrase", []),
    ("how much extra did Ollie approve on Ifeoma's offer", ["ifeoma_5k"], "lexical", []),
    ("what date does Hannah start", ["hannah_qa"], "lexical", []),
    ("What did Bilal say about nights out in Leeds?", ["bilal_leeds"], "lexical", []),
    ("what happened on the 5k I ran just before iftar", ["dizzy"], "lexical", []),
    ("when did I become a manager", ["promotion"], "temporal", []),
    ("When was the day I broke down at the office?", ["cried"], "temporal", []),
    ("when was my half marathon", ["half_date", "half_done"], "temporal", []),
    ("who joins the team first, the new QA or the new backend engineer",
     ["hannah_qa", "rhys_yes"], "multi_hop", []),
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


conv("zh", "cz09", "u_dali", "大刘", """
== 2026-01-16 04:20
u: 刚收车今儿跑了十一个钟头腰跟断了一样
a: 辛苦了！是坐久了才疼吗？
u: 对老毛病了前年拍片说是腰椎间盘突出 #back_old
a: 开车最伤腰。座椅加个腰靠，每跑两个钟头下车站站，叉腰往后仰几下 #back_tips
u: 腰靠中不中网上几十块那种
a: 中，挑偏硬点的，顶住后腰
== 2026-01-21 15:40
u: 才睡醒白天老是睡不踏实
a: 卧室换遮光帘、戴耳塞，收车后少刷手机，睡前别喝浓茶 #sleep_day
u: 俺孩儿美术老师说叫他寒假去画室集训 #training_offer
a: 孩子几年级了？自己想去不？
u: 初二了可想去就是二十天要六千八 #training_6800
a: 先带他去试听一两节，看看老师咋教，再问清楚耽误不耽误文化课 #training_advice
== 2026-01-27 04:10
u: 油又涨了一个月光加油就得三千多 #fuel_3000
a: 油钱是大头。你开的啥车？
u: 朗逸跑了快三十万公里了 #car_lavida
a: 那修车钱也快上来了，不少司机都换电车了
u: 就怕冬天掉电跑不了一夜
a: 冬天续航一般打七八折，挑标称五百公里往上的，半夜歇班再补次电 #ev_winter
== 2026-02-02 14:50
u: 俺媳妇想在小区门口开个小卖部门面一个月两千二 #shop_rent
a: 好事！她做过生意吗？
u: 木有之前在超市干收银 #wife_cashier
a: 那懂货。开头别压太多货，先上烟酒饮料零食这些走得快的 #shop_stock
u: 她还想卖菜
a: 菜损耗大，先别上。拉个小区微信群送货上门，回头客就来了 #shop_wechat
== 2026-02-08 03:55
u: 带孩儿去试听了那个画室叫青禾画室老师怪负责 #qinghe
a: 孩子觉得咋样？
u: 他说可得劲一路都在说想去 #son_likes
a: 那就让他去，别把手腕累伤了
u: 报上了明个就开班 #training_signed
== 2026-02-13 04:30
u: 今儿拉了个喝多的吐我后座上了
a: 太糟心了。后座常备塑料袋和湿巾，看着喝多的一上车就递个袋子 #drunk_tip
u: 洗车花了五十
a: 可以在平台申请清洁费，先拍照留证 #clean_fee
u: 还有这说法我都不知道
== 2026-03-16 15:20
u: 过年没歇腰彻底不中了今儿去医院拍了片子 #hospital_day
a: 医生咋说？
u: 腰四腰五膨出说不用开刀先做理疗 #l4l5
a: 那就好。平时练练小燕飞：趴床上手脚一起抬，一天两组一组十个，疼就停 #xiaoyanfei
u: 孩儿集训完了老师说进步挺大 #training_result
== 2026-03-22 23:10
u: 今儿小卖部开张了媳妇忙到现在 #shop_open
a: 恭喜开业！生意咋样？
u: 卖了八百多邻居都来捧场 #first_day_800
== 2026-03-27 14:10
u: 看中比亚迪秦PLUS了落地十万出头 #ev_look
a: 先问清楚新车能不能办网约车运输证，郑州对车型有要求 #permit_check
u: 问了4S店说能办他们帮着弄
== 2026-04-09 16:00
u: 今儿把秦PLUS提回来了开着可安静 #new_car
a: 恭喜提车！头几天开慢点
u: 朗逸卖了三万二 #lavida_sold
a: 跑了三十万公里还能卖这价，不亏
u: 现在去快充站充一度连服务费一块二 #charge_public
a: 有固定车位可以装私桩：物业开同意证明，带车位合同去供电公司报装，买车一般送桩 #charger_advice
u: 车位是租的不知道中不中
== 2026-04-28 15:30
u: 私桩装好了一度电五毛六比快充站便宜一半还多 #charge_home
u: 小卖部有邻居老想赊账媳妇不好意思拒
a: 弄个小本记着，每家定个上限比如两百，月底结清，就说是店里规矩 #credit_tip
== 2026-05-16 14:40
u: 孩儿想暑假再去集训一个月媳妇怕耽误文化课 #summer_question
a: 明年就中考了，可以跟孩子一起看看文化课排第几，特长生要的文化线多少 #summer_advice
u: 班主任说他文化课中等偏上
a: 那可以折中，暑假半天补文化课半天画画
== 2026-05-30 04:40
u: 商量好了暑假就报青禾的周末班 #summer_decided
a: 两头都顾上了，挺好
u: 这个月充电一共花了七百来块 #elec_700
a: 省下的够给孩儿买颜料了
== 2026-06-05 03:30
u: 拉了个乘客也开电车说冬天掉电掉一半
u: 他说高速服务区充一度一块八真肉疼
a: 服务区贵，也就跑长途才在那充
u: 腰又犯了找盲人按摩按了一回
a: 按按能松松，可别让人使劲扳腰
== 2026-06-13 15:10
u: 媳妇想在店门口加个冰柜卖雪糕
a: 冰柜可以找冷饮厂家免费投放，签个进货量就行
u: 孩儿同学去另一家画室暑假集训一个月九千
a: 各家价钱差得多，主要看老师
""", [
    ("我现在跑车开的是啥车", ["new_car"], "update", ["car_lavida"]),
    ("我现在平常充电一度多少钱", ["charge_home"], "update", ["charge_public"]),
    ("一坐一整夜腰受不了，你头一回让我咋弄", ["back_tips"], "paraphrase", []),
    ("白天补觉老睡不好，你给我出过啥主意", ["sleep_day"], "paraphrase", []),
    ("孩儿学画要不要去那事，你一开始让我先干啥", ["training_advice"], "paraphrase", []),
    ("天冷了电车跑不远这个你咋说的", ["ev_winter"], "paraphrase", []),
    ("媳妇刚开店那会头一批该进啥，你咋建议的", ["shop_stock"], "paraphrase", []),
    ("邻居来店里拿东西不给现钱，你教俺媳妇咋应付", ["credit_tip"], "paraphrase", []),
    ("在自家车位弄个充电的得走啥手续", ["charger_advice"], "paraphrase", []),
    ("碰上喝醉的乘客你让我车里提前备点啥", ["drunk_tip"], "paraphrase", []),
    ("俺媳妇以前是干啥工作的", ["wife_cashier"], "paraphrase", []),
    ("孩儿今年暑假学画最后定的咋弄", ["summer_decided"], "paraphrase", []),
    ("带孩儿去听了一回课，他回来啥反应", ["son_likes"], "paraphrase", []),
    ("寒假那回学画一共交了多少钱", ["training_6800"], "paraphrase", []),
    ("青禾画室那老师咋样", ["qinghe"], "lexical", []),
    ("腰四腰五查出来是啥情况，要不要做手术", ["l4l5"], "lexical", []),
    ("小燕飞一天做几组", ["xiaoyanfei"], "lexical", []),
    ("那辆朗逸最后卖了多少钱", ["lavida_sold"], "lexical", []),
    ("今年去医院拍腰那回是哪天", ["hospital_day"], "temporal", []),
    ("媳妇的小卖部是啥时候开起来的", ["shop_open"], "temporal", []),
    ("孩儿寒假那回学画是哪天开始上课的", ["training_signed"], "temporal", []),
    ("换成电车以后一个月比原来烧油省下多少钱", ["fuel_3000", "elec_700"], "multi_hop", []),
])

conv("zh", "cz10", "u_xiaomin", "小敏", """
== 2026-06-12 09:40
u: 下夜班啦😵 眼睛都睁不开了
a: 辛苦啦～ICU的夜班最耗人，到家了吗？
u: 刚到！跟同事在海珠区合租 我那间一个月2100 #live_haizhu
u: 但是一躺下就睡不着😭😭
a: 下班路上戴个墨镜，到家先吃点清淡的垫垫肚子，拉上遮光帘，睡到下午一两点就起，别一口气睡到天黑 #night_sleep
u: 墨镜！！学到了哈哈哈
== 2026-06-18 21:30
u: 我决定考编了💪 佛山南海有家医院招护士 带编制的 #exam_decide
a: 好事！一般考些什么？
u: 笔试考护理综合＋公基 八月份考 #exam_subjects
a: 倒班时间零碎，就每天固定刷一小时题，夜班前睡够了再看。公基先背时政和常识，护理综合以刷真题为主 #study_plan
u: 收到～～
== 2026-06-25 22:10
u: 我妈又打电话催了😩 说老家亲戚介绍了个男生
a: 哈哈又到这个环节了，对方什么情况？
u: 叫陈宇 在番禺当中学体育老师 #date_chenyu
u: 我妈说人家也在广州 见面方便
a: 第一次见就喝个咖啡，别约饭局，一个小时想走就能走，压力小 #date_format
u: 有道理 那就喝奶茶哈哈哈
== 2026-07-03 15:20
u: 给你看我新买的多肉🌵 一口气买了六盆 #succulents
a: 好可爱！放在哪儿养？
u: 卧室窗台～就是西晒 #windowsill
a: 多肉喜欢光但怕暴晒，夏天西晒太猛就拉层纱帘，浇水等土干透了再浇 #succulent_care
== 2026-07-11 22:40
u: 见完啦😳
a: 怎么样怎么样？
u: 人还挺有趣的 聊了两个小时都没冷场🤭 #date_good
a: 挺难得的～还准备再约吗？
u: 他约我下周去爬白云山 #baiyun
== 2026-07-20 10:20
u: 连上了四个夜班 现在整个人是飘的😵‍💫
u: 下了班还是睡不着 想吃点褪黑素
a: 褪黑素可以短期小剂量试试，睡前半小时吃，别长期靠它，也可以问问你们科的医生 #melatonin
u: 哈哈我自己就是护士 轮到自己就犯懒
== 2026-07-31 21:15
u: 第一次烤戚风 塌成饼了😭😭 #chiffon_fail
a: 戚风塌多半是蛋白没打够，或者出炉没倒扣。蛋白要打到提起来是直立的小尖角，出炉马上倒扣，凉透再脱模 #chiffon_tips
u: 我没倒扣🙈 #chiffon_why
a: 那就是它了，下次记得～
u: 陈宇说塌了他也吃哈哈哈
== 2026-08-22 18:30
u: 笔试考完了！！感觉还行～ #written_done
a: 终于考完了！公基难吗？
u: 公基有点偏 护理综合好多是ICU常见的 占便宜了🤭
a: 面试一般是结构化，先把自我介绍写好，再练护患沟通、突发情况处理这类题，对着手机录像练 #interview_prep
== 2026-09-05 22:00
u: 跟你说个事🙈 我跟陈宇在一起了 #together
a: 哇恭喜！！🎉
u: 昨天看电影的时候他表白的 #confess
a: 好甜～夜班再累也给自己留点谈恋爱的时间
== 2026-09-16 12:30
u: 进面了！笔试排第三😆 #rank_3
a: 太棒了！面试什么时候？
u: 九月底 这两天天天对着镜子练
a: 别背得太死。答题先表明态度，再分一二三点说做法，最后落到病人安全上 #interview_answer
== 2026-09-30 20:10
u: 录了！！！！😭😭 南海那家 有编了 #hired
a: 恭喜小敏！！这几个月夜班加刷题太不容易了
u: 十一月一号入职～要搬去佛山了 #start_date
a: 可以先在医院附近看房，通勤短一点，下夜班也能早点躺下
== 2026-10-18 16:40
u: 陈宇说佛山太远了 周末都见不上
u: 最近老吵架 昨天说好先分开了😞 #breakup
a: 抱抱你。这阵子变化太多，难过是正常的
u: 没事 我想先把新工作弄好
a: 嗯，先顾好自己，多肉和烤箱都在等你呢
== 2026-10-28 20:20
u: 搬完家了！！佛山桂城 一室一厅 一个月1600 #live_foshan
a: 一个人住一室一厅，比合租舒服多了吧
u: 多肉全带过来了 结果有两盆根烂了😢
a: 把发黑的根剪掉，晾两三天等伤口干了，再种回干土里，先别浇水 #rot_fix
== 2026-11-04 09:50
u: 在新医院上了第一个夜班 还是睡不着😵
a: 新环境加夜班，头几周都会这样
u: 我妈又给我介绍了一个～说在佛山做外贸的
a: 这次想见吗？
u: 先微信聊着吧 不着急～
== 2026-11-09 21:00
u: 今天烤了蛋挞！一次成功😆
a: 蛋挞比戚风友好多了哈哈，表面烤出焦斑就能出炉
u: 又入了一盆龟背竹 放客厅
a: 龟背竹喜欢散射光，别直晒，叶子常擦擦灰就很好看
u: 新科室护士长人挺好的～
""", [
    ("我现在住在哪个城市", ["live_foshan"], "update", ["live_haizhu"]),
    ("我跟陈宇现在还处着吗", ["breakup"], "update", ["together"]),
    ("刚开始跟你聊那会，下夜班睡不着你让我怎么弄", ["night_sleep"], "paraphrase", []),
    ("备考那会你帮我排的复习安排是啥", ["study_plan"], "paraphrase", []),
    ("考编要考哪几门", ["exam_subjects"], "paraphrase", []),
    ("头一回跟相亲对象见面，你建议怎么约", ["date_format"], "paraphrase", []),
    ("相亲第一次见完面我觉得对方怎么样", ["date_good"], "paraphrase", []),
    ("我那几盆肉肉夏天该怎么养，你说过", ["succulent_care"], "paraphrase", []),
    ("我当时一共买了几盆小植物", ["succulents"], "paraphrase", []),
    ("第一回做蛋糕失败，我是漏了哪一步", ["chiffon_why"], "paraphrase", []),
    ("刚考完笔试那会，你让我面试先准备啥、怎么练", ["interview_prep"], "paraphrase", []),
    ("回答考官问题你让我按什么顺序讲", ["interview_answer"], "paraphrase", []),
    ("搬家后根坏掉的那两盆你说怎么救", ["rot_fix"], "paraphrase", []),
    ("陈宇是做什么的", ["date_chenyu"], "lexical", []),
    ("戚风为什么会塌，你说的原因是啥", ["chiffon_tips"], "lexical", []),
    ("褪黑素你说能不能吃、怎么吃", ["melatonin"], "lexical", []),
    ("进面的时候我笔试排第几", ["rank_3"], "lexical", []),
    ("陈宇是哪天跟我表白的", ["confess"], "temporal", []),
    ("考编笔试是什么时候考完的", ["written_done"], "temporal", []),
    ("新单位是哪天开始上班", ["start_date"], "temporal", []),
    ("搬到佛山以后房租一个月比在广州时少多少", ["live_haizhu", "live_foshan"], "multi_hop", []),
])


conv("zh", "cz11", "u_wanglaoshi", "王老师", """
== 2026-02-24 21:10
u: 明天开学，这学期带毕业班，心里没底。
a: 毕业班最累就这半年，您也要顾着自己。
u: 新房也刚交付，装修预算打算控制在十八万。 #budget_18
a: 最好再留一成当机动钱，装修增项几乎躲不掉。 #reserve_tip
u: 朋友介绍了一家"匠心家装"，下周去谈。 #company_jiangxin
a: 签之前把报价单逐项看清，尤其写着"按实际发生计算"的几项。 #contract_tip
== 2026-03-03 21:30
u: 今天发现班上一男一女在传纸条，内容挺亲密的。 #notes_found
a: 这个年纪挺常见的。您打算怎么处理？
u: 女生最近成绩下滑得厉害，我有点着急。
a: 先分别单独找他们聊，别在班上点名，更别当众念纸条，这个年纪最要面子。 #talk_separately
u: 我也不想闹大，明天课后先找女生聊聊。
== 2026-03-08 20:40
u: 下周一中考百日誓师，让我代表班主任发言，我不想讲空话。 #pledge_speech
a: 可以讲三块：一个学生的真实故事、一个每天做得到的小目标、一句送给他们的话。 #speech_structure
u: 我想讲去年一个学生每天六点在走廊背古诗的事。 #speech_story
a: 这个故事有画面感。结尾可以落在"一百天也是一天一天过的"。
== 2026-03-15 21:00
u: 那个女生的妈妈今天冲到学校来了，她看到了女儿的聊天记录。 #mom_came
u: 她一进办公室就嚷着要让男生转班。
a: 先让她把火发完，再拿成绩、作业这些具体的事说，别提"早恋"两个字。 #parent_talk
u: 她女儿从年级八十多名掉到了一百五十名左右。 #rank_drop
a: 可以约她带上孩子三个人谈，让孩子自己说打算，比大人定规矩管用。 #three_way
== 2026-03-22 19:30
u: 说件私事，我报了个成人游泳班，十次课一千六。 #swim_class
a: 好呀！怎么想到学游泳了？
u: 一直怕水，小时候在老家河里呛过一次。 #fear_water
a: 先别急着学动作，在浅水区练憋气，把脸埋进水里慢慢吐泡泡。 #bubble_tip
u: 教练让我扶着池边练，可我一埋头就心慌。
a: 先只埋到鼻子，心里数三下就抬头，每次多数一下。 #count_tip
== 2026-04-02 21:20
u: 我爸左眼模糊一年多了，今天在扬州查出白内障，要做手术。 #dad_cataract
a: 这手术现在很成熟。叔叔多大年纪了？
u: 七十三了。 #dad_age
u: 医生让我们选晶体，单焦点和多焦点，价钱差了一万多。 #lens_choice
a: 多焦点远近都方便，但夜里看灯可能有光圈。问问医生单焦点配老花镜够不够，别被推着选贵的。 #lens_advice
== 2026-04-12 20:50
u: 装修气死我了，那家一开工就加钱，光水电改造就多报了两万。 #jiangxin_add
a: 刚开工就这样，不如趁早止损。
u: 已经解约了，换了"木禾装饰"，这次签全包。 #company_muhe
a: 全包省心，记得把主材品牌写进合同。 #muhe_contract
u: 全包贵一些，总预算提到了二十二万。 #budget_22
== 2026-04-20 21:40
u: 我爸前天做完手术，选的单焦点，今天揭了纱布，说亮堂多了。 #dad_surgery_done
a: 太好了！术后这一个月很关键。
u: 医生开了三种眼药水，我怕他记混。还有什么要当心的？
a: 每瓶贴大字标签，再做张时间表贴冰箱上，滴一次打个勾。 #eyedrop_table
a: 另外别揉眼，洗脸洗头别进水，睡觉戴护眼罩，一个月内别提重物。 #postop_care
== 2026-04-28 21:00
u: 一模成绩出来了，我们班语文平均分全年级第二。 #mock1
u: 那个女生也回到了年级一百名以内。 #girl_recover
u: 两个孩子自己说好了，中考前只做同学，有话考完再说。 #kids_agree
a: 自己定的，比大人逼的管用。
== 2026-05-03 20:30
u: 今天终于敢松开池边了，教练托着腰让我漂了一会儿。 #float_first
a: 这是很大的一步！感觉怎么样？
u: 一开始腿往下沉，一放松反而浮起来了。
a: 对，越紧张越沉。下次试试抱膝漂浮，找找浮起来的感觉。 #float_tip
== 2026-05-12 21:15
u: 离中考一个月了，好几个孩子说晚上睡不着。 #sleepless
a: 可以开次班会，让他们把担心匿名写纸条投进箱子，您挑几条统一回应。 #stress_meeting
u: 这个好，匿名他们才肯说真话。
u: 装修又超了，加了中央空调，算下来要二十五万。 #budget_25
a: 一次装好也省事，软装以后慢慢添。
== 2026-05-24 20:40
u: 好消息，我今天蛙泳游了二十五米，中间没停！ #swim_25m
a: 太棒了！这进步可不是一点点。
u: 就是换气还不行，一抬头就呛。
a: "低头吐、抬头吸"：脸在水里就把气吐完，抬头只管张嘴吸。 #breath_tip
== 2026-06-07 21:00
u: 周五开最后一次班会，之后孩子们回家待考。
a: 最后一次少讲道理，把准考证、文具、进场时间再过一遍。 #last_meeting
u: 我想给每个孩子写张小卡片，写一句只给他的话。 #cards
u: 还有，我爸今天去复查，左眼视力到零点八了。 #dad_recheck
== 2026-06-18 19:40
u: 中考今天下午考完了，送完最后一场，我在校门口站了好久。 #exam_over
a: 辛苦了王老师，这三年总算交卷了。
u: 孩子们出来都来抱我，那个女生还哭了。
a: 您陪他们走完了最难的一段。
== 2026-07-02 20:30
u: 又有家长打电话，说孩子暑假天天打游戏，问我怎么办。
a: 建议家长和孩子一起定暑假作息表，把游戏时间写进去，比硬禁强。
u: 装修那边说油漆工下周进场。
a: 刷完漆最好多通风几个月再住。
== 2026-07-14 21:00
u: 我爸说右眼也开始有点模糊，医生说可以明年再做。
a: 有了左眼的经验，叔叔应该不怕了。
u: 游泳馆开了自由泳进阶班，我又报了。
a: 自由泳是侧头换气，和蛙泳不一样，刚开始会有点别扭。
""", [
    ("装修现在总共打算花多少钱", ["budget_25"], "update", ["budget_18", "budget_22"]),
    ("新房现在是哪家公司在给我做", ["company_muhe"], "update", ["company_jiangxin"]),
    ("跟装修公司签合同前你提醒过我留意什么", ["contract_tip", "muhe_contract"], "paraphrase", []),
    ("发现班里两个孩子走得近，你建议我先怎么处理", ["talk_separately"], "paraphrase", []),
    ("倒计时一百天那次上台讲话，你建议我分哪几块讲", ["speech_structure"], "paraphrase", []),
    ("那个妈妈跑来学校闹，你教我怎么跟她沟通", ["parent_talk", "three_way"], "paraphrase", []),
    ("我为啥从小就不敢下水", ["fear_water"], "paraphrase", []),
    ("脸一进水就慌的时候你让我怎么练", ["bubble_tip", "count_tip"], "paraphrase", []),
    ("我爸今年多大岁数", ["dad_age"], "paraphrase", []),
    ("给我爸挑人工晶状体那会儿你是怎么建议的", ["lens_advice"], "paraphrase", []),
    ("我爸做完眼睛以后生活上要避开哪些事", ["postop_care"], "paraphrase", []),
    ("考前学生焦虑睡不好，你出了什么主意", ["stress_meeting"], "paraphrase", []),
    ("早恋那两个孩子后来自己约定了什么", ["kids_agree"], "paraphrase", []),
    ("游泳时一吸气就呛，你当时怎么教我的", ["breath_tip"], "paraphrase", []),
    ("单焦点和多焦点两种价钱差多少", ["lens_choice"], "lexical", []),
    ("一模我们班语文平均分排第几", ["mock1"], "lexical", []),
    ("我爸复查时左眼视力恢复到多少", ["dad_recheck"], "lexical", []),
    ("第一家装修公司水电改造多报了多少", ["jiangxin_add"], "lexical", []),
    ("我爸的眼睛手术是哪天做的", ["dad_surgery_done"], "temporal", []),
    ("我哪天第一次不扶边在水里漂起来的", ["float_first"], "temporal", []),
    ("学生们是哪天考完中考的", ["exam_over"], "temporal", []),
    ("从报名学游泳到能一口气游完一个池子，我用了多久", ["swim_class", "swim_25m"], "multi_hop", []),
])

conv("zh", "cz12", "u_ahao", "阿豪", """
== 2026-03-06 23:40
u: 电竞社报了王者高校赛 我打野 #esports_jungle
a: nb！什么时候开打？
u: 3.21小组赛 #group_date
a: 还有两周，每天约队友打几把五排磨合一下
u: 队长也这么说hhh
== 2026-03-10 22:15
u: 破防了 今天一称182斤 #weight_182
a: 身高多少呀？
u: 178
a: 别急着饿肚子，晚饭换成鸡胸肉加青菜，奶茶可乐先停，每天走八千步 #diet_plan
u: 可乐也要戒？？我的命啊
a: 先换成零度的，过渡一下 #zero_cola
== 2026-03-16 01:20
u: 室友又吼我了 bhys
u: 他考研 11点就睡 我打rank键盘噼里啪啦 #roommate_conflict
a: 那他确实难受。换个静音点的轴，十二点后戴耳机别开麦 #quiet_keyboard
u: 我青轴 确实吵hhh #blue_switch
== 2026-03-21 21:30
u: 小组赛赢了!!! 2:0 #group_win
a: 666！你打得咋样？
u: 两把mvp yyds #mvp_two
u: 下轮打隔壁学校 听说很猛
a: 找他们以前的比赛录像看看，重点看爱拿哪几个英雄，BP提前想好 #scout_tip
== 2026-03-29 22:40
u: 开始投暑期实习了 后端java和测开 投了二十多家 #apply_20
a: 简历项目要写清楚你负责哪块，最好带数据，比如接口从多少毫秒降到多少 #resume_tip
u: 我就一个课设图书管理系统 蚌埠住了
a: 课设也能写，把用到的redis缓存和登录鉴权写具体 #course_proj
== 2026-04-04 23:00
u: 半决赛输了 破防了 #semi_lose
a: 抱抱，输在哪了？
u: 被抢了三条龙 #three_dragons
a: 约大家一起复盘，把每条龙前的视野和站位截图出来对一下 #replay_tip
== 2026-04-14 22:10
u: 室友两天没理我了 冷战
a: 键盘换了吗？
u: 还没 有点舍不得
a: 一个键盘换宿舍和平，值。再主动一点，明早帮他带个早饭 #breakfast_peace
u: 行吧 给他带个肉包
== 2026-04-26 20:30
u: 拿到offer了!! 星城电商 测开 日薪150 #offer_changsha
a: 恭喜！第一个offer，面试问了啥？
u: hashmap mysql索引 还有手写sql #interview_q
a: 都是高频题。后面还有面试的话，把redis和线程池再过一遍 #interview_prep
u: ok 女朋友说我是打工人了xswl
== 2026-05-06 22:40
u: 今天称了 176 绝绝子 #weight_176
a: 一个多月掉六斤，速度很健康
u: 零度可乐yyds
a: 再加点力量训练，不然容易平台期 #strength_tip
u: 还有 换了个红轴 室友终于理我了 #switch_red
== 2026-05-18 23:10
u: 女朋友6.8生日 送啥啊 救命 #gf_birthday
a: 预算多少？她平时喜欢什么？
u: 500以内 她爱拍照 #gift_budget
a: 送个拍立得，再配本相册，把你们以前的合照洗出来贴进去 #instax_idea
u: 卧槽 这个好
a: 再手写一张卡片，比礼物本身还戳人 #card_tip
== 2026-05-27 22:00
u: 大变化 杭州一家中厂给了后端offer 日薪300 #offer_hz
a: nb！那长沙那个呢？
u: 纠结 去杭州要租房
a: 算笔账：日薪翻倍，房租两千以内还是多赚，而且后端更对口 #offer_calc
== 2026-06-08 23:30
u: 礼物送了 她哭了 呜呜 #gift_given
a: 戳中了！最后送的啥？
u: 拍立得mini12 粉的 加相册 #instax_pink
u: 卡片写了三遍 tql我
== 2026-06-20 21:00
u: 定了 去杭州 下周一入职 #hz_decided
a: 冲！房子找好了吗？
u: 跟同学合租 一人一千五 #rent_1500
a: 挺划算。第一周多问多记，先把项目代码跑起来 #first_week
== 2026-07-12 22:30
u: 实习两周了 天天crud 累麻了
a: 刚开始都这样，能看懂业务就是进步
u: 刚称 171 #weight_171
a: 又掉五斤，实习也没松劲
== 2026-07-26 21:40
u: 同事拉我打公司王者赛 输了 对面有个前职业
a: 输给前职业不丢人
u: 室友暑假留校 问我旧键盘卖不卖他hhh
a: 冤家变买家了
== 2026-08-04 22:00
u: 女朋友说七夕想要条手链
a: 选条简单的银链，刻上你们在一起的日子
u: 钱包又要破防
a: 实习工资正好派上用场
""", [
    ("我暑假最后去哪实习了", ["hz_decided"], "update", ["offer_changsha"]),
    ("我现在体重多少", ["weight_171"], "update", ["weight_182", "weight_176"]),
    ("半夜打游戏吵到室友，你给我出的主意", ["quiet_keyboard"], "paraphrase", []),
    ("跟室友闹僵不说话那阵，你让我怎么破冰", ["breakfast_peace"], "paraphrase", []),
    ("刚开始瘦身你让我怎么吃", ["diet_plan", "zero_cola"], "paraphrase", []),
    ("碰上很强的对手，你让我赛前做什么准备", ["scout_tip"], "paraphrase", []),
    ("比赛输了以后你建议怎么回头分析", ["replay_tip"], "paraphrase", []),
    ("简历上没啥像样项目，你当时怎么说", ["resume_tip", "course_proj"], "paraphrase", []),
    ("两份实习纠结的时候你帮我怎么掂量的", ["offer_calc"], "paraphrase", []),
    ("对象过生日你给我出的点子", ["instax_idea", "card_tip"], "paraphrase", []),
    ("我和室友当初为啥闹矛盾", ["roommate_conflict"], "paraphrase", []),
    ("最后送出去的那份礼物具体是啥", ["instax_pink"], "paraphrase", []),
    ("再有面试的话你让我补哪些知识点", ["interview_prep"], "paraphrase", []),
    ("星城电商那个岗一天给多少", ["offer_changsha"], "lexical", []),
    ("半决赛被对面抢了几条龙", ["three_dragons"], "lexical", []),
    ("杭州合租每人每月多少钱", ["rent_1500"], "lexical", []),
    ("小组赛我拿了几个mvp", ["mvp_two"], "lexical", []),
    ("电竞社小组赛是哪天打的", ["group_date", "group_win"], "temporal", []),
    ("女朋友生日是几号", ["gf_birthday", "gift_given"], "temporal", []),
    ("我啥时候拿到第一个实习offer的", ["offer_changsha"], "temporal", []),
    ("长沙和杭州两个offer一天差多少钱", ["offer_changsha", "offer_hz"], "multi_hop", []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"companion_{lang}")
