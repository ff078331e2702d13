#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Generate bench/data/long_en.json and long_zh.json: long one-to-one companion chats.

All dialogue and question text in this file is original, written for the chatmem
project (same licence as the project). Nothing is copied from an existing dataset.

Usage:
    python3 bench/data/make_long.py     # writes long_en.json, long_zh.json

The format of ``make_companion.py`` (one user, one session per day, ``#label``s,
questions with their types), but each conversation is three times as long: 32-36
days over four to six months, about 200 messages, 4-5 threads of the user's life that
come back again and again, 30 questions. They imitate the held-out histories of issue 12
(a companion used most days for weeks): the same knee, landlord or recipe on many
days, and a question must find the right one among them. Written blind (the writers
never ran chatmem): le01–le04 and lz01–lz04 in stop 24, le05–le08 and lz05–lz08 in stop 29.
"""
from _sets import build_set, write_set
from make_companion import build_conv

SETS = {"en": [], "zh": []}


def conv(lang, cid, user_id, user_name, days, questions):
    SETS[lang].append((cid, user_id, user_name, days, questions))


def build(lang):
    return build_set(SETS[lang], lang, build_conv, f"long_{lang}_")


# ---------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------
conv("en", "le01", "u_ruth", "Ruth", """
== 2026-01-14 20:40
u: hi. first time trying one of these. I'm Ruth, 41, ICU nurse in Leeds
u: we're on nights every other week so my body clock is a total mess #rota_old
a: Hi Ruth, nice to meet you. Alternating weeks of nights in intensive care is brutal. What's the worst bit?
u: sleeping after. finished three nights on Monday and got about four hours yesterday #sleep_4h
a: Four hours after a run of nights is rough. What's the room like when you try to sleep in the day?
u: thin curtains, the bin lorry at 11, and my son crashes in from college at 4
a: Sort the room first: a proper blackout blind (or foil on the glass), an eye mask, foam earplugs, and keep it cool, about 17 or 18 degrees #sleep_room_tips
u: foil on the window, the neighbours will think I'm growing something dodgy
a: Ha, a cheap blind from a DIY shop does the same job with less gossip
== 2026-01-17 11:05
u: day off and I've done something mad
u: signed up for a half marathon in May. I've only ever done parkrun #signed_up
a: That's not mad, it's brilliant! Which one?
u: the Wharfedale Half, Sunday 17th May #race_wharfedale
a: Four months from parkrun to 13.1 is very doable. How many runs a week can you fit round shifts?
u: three if I'm lucky
a: Then keep it simple: two short easy runs in the week and one long one on a day off, adding about a mile to the long run each week and cutting back every fourth week #training_plan
u: and if the weekend is nights?
a: Move the long run to your first full day off, never the morning you come off a night
== 2026-01-20 16:30
u: can I tell you something I haven't really told anyone
a: Of course.
u: Dad fell in his bathroom at New Year. he was on the floor two hours before his neighbour heard him shouting #dad_fall
a: Oh Ruth, that must have been so frightening for both of you. How is he now?
u: bruised but ok. he's 79. the social worker thinks he should look at sheltered housing
u: he says he's not leaving the bungalow till they carry him out in a box
a: A very common first reaction. Instead of arguing, ask what matters most to him, his garden, his routines, his independence, and look for places that keep those. A no-strings visit takes the pressure off #dad_talk_advice
u: that's a better plan than shouting at each other
== 2026-01-23 19:15
u: Josh had his first driving lesson today. 17 and suddenly thinks he's Lewis Hamilton
a: Ha! How did it go?
u: his instructor Denise says he's a natural but brakes like he's angry at the pedal #denise
a: Smooth braking comes with miles. Will you take him out between lessons?
u: that's the plan, in my Corsa. anything I need to sort first?
a: Yes, he must be insured on your car. A learner driver policy is often cheaper than adding him to yours, and if he bumps it your no-claims stays safe #learner_insurance
u: good shout, I'll look tonight
== 2026-01-27 15:10
u: woke at 1 again after nights. lay there till 3 then gave up
a: So annoying. Did you have a coffee late in the shift?
u: about 5am, we had two admissions
a: Caffeine takes five or six hours to lose half its kick, so a 5am coffee is still working at 11. Try to make your last one before 3am and switch to water or decaf #caffeine_cutoff
u: 3am is exactly when I need it though
a: Then a small one at 2, and a walk round the unit at 4 instead
u: the blind arrived btw. game changer
u: Josh says my room is like a cave now
== 2026-01-31 10:40
u: first proper long run! 5 miles along the canal, slow but no walking #long_5
a: Five miles without stopping is a great start. How are the legs?
u: fine, but my old trainers are done. my toes are battered
a: Worth getting fitted at a running shop. They'll watch you run and find a shoe with room in the toe box
u: money's tight, every spare quid goes in the van fund
a: A van fund? Tell me more!
u: I want a little camper. £5,800 saved so far, aiming for £12k by the summer #van_fund_jan
u: weekends in the Dales after a week of nights, that's the dream
== 2026-02-04 21:00
u: took Dad to see a sheltered housing place in Horsforth today. Beech Court #beech_court
a: How did he find it?
u: grumpy in the car, then he saw the garden and the noticeboard with the bowls team
u: and he got on with the warden, Gordon. turns out he was a postman for 30 years like Dad #gordon
a: That shared history can make a big difference. Is there a waiting list?
u: a first floor flat is coming free in March, number 14 #flat14
u: he said he'd "think about it" which from Dad is nearly a yes
== 2026-02-08 16:45
u: awful sleep again. next door have put scaffolding up for a loft conversion
a: Oh no. What hours are they working?
u: from 8. drilling right through the wall by my head
a: Is there another room you could use after nights?
u: only Josh's and it smells of Lynx and socks
a: Then try pulling your bed to the far wall, play brown noise through a speaker, and ask the builder for a rough list of the loud days so you can plan your nights around them #builders_tips
u: I'll ask him, he seems nice enough
== 2026-02-12 19:30
u: Josh's mock results came in. C in chemistry #chem_mock
a: How's he taking it?
u: badly. his Newcastle offer for environmental science is ABB and it has to include a B in chemistry #newcastle_offer
a: C to B between mocks and the summer is a very common jump with focused work. The others?
u: A in geography, B in maths
a: That's a solid base. Chemistry past papers topic by topic, marked by himself, could close the gap
== 2026-02-15 11:20
u: 7 miles today!! new shoes made a massive difference
a: Seven! That's real progress. What did you end up with?
u: cushioned Brooks in a hideous orange, £70 in the sale #shoes
a: Hideous orange at £70 is a win
u: van fund had a good month too, extra bank shifts, £7,300 now
a: £1,500 in a month, you're flying
== 2026-02-19 15:30
u: slept 9 till 3 after my second night, best in ages
a: That's great! What changed?
u: brown noise, and the builders had a day off haha
a: Take the win. Did you eat before bed?
u: toast and a banana
a: Good choice. A big fry-up on the way home is what tends to wake people up mid-afternoon
== 2026-02-24 18:10
u: Josh passed his theory test this afternoon! 48 out of 50 #theory_passed
a: Brilliant, tell him well done! And the hazard perception bit?
u: passed that too. he's insufferable
a: He's earned a bit of insufferable. Has Denise said when he'll be ready for the real thing?
u: she reckons late April, so we've booked Tuesday 28th April #test_apr28
a: That gives him lots of practice time
== 2026-02-28 20:30
u: Dad's gone quiet about Beech Court, I think he's getting cold feet
a: That's normal when a move starts feeling real. What's worrying him?
u: the stairs up to 14, and leaving his roses #flat14_stairs
a: Both fair. Could you ask Gordon if a ground floor flat might come up, and whether residents can keep pots in the shared garden?
u: good idea. he'd settle if he had some soil to fuss over
== 2026-03-04 14:20
u: disaster. sharp twang in my left calf at mile 8 on my long run this morning #calf_strain
u: had to limp the whole way home
a: Oh no, Ruth. Can you put weight on it now?
u: yes but it's tight and sore when I push off
a: For the first two days: rest it, ice 15 minutes a few times a day, don't stretch it hard, and walk gently as far as pain allows. If you still can't walk normally after 48 hours, get it looked at #calf_first_aid
u: I tell patients this every week, but it helps to hear it
u: ten weeks to the race. typical
== 2026-03-07 12:00
u: saw a physio today, Anjali. grade 1 strain in the inner part of the calf #physio_anjali
a: Grade 1 is the mildest, that's good news. What's the plan?
u: no running for two weeks, then walk-run
u: and calf raises on both legs, 3 sets of 10 twice a day #calf_raises_10
a: Easy to do while the kettle boils. Did she say anything about May?
u: I can still do it if I'm sensible but to forget about a time
a: What were you hoping for?
u: under 2:15. now it's just get round in one piece #goal_215
== 2026-03-11 17:40
u: Gordon rang! a ground floor flat came free, number 6, and Dad's swapped to that one #flat6
a: That's such good news! Any outdoor space?
u: it opens onto the courtyard, he can have a planter by his door
a: Room for a rose or two then
u: he moves in at the end of the month. the bungalow is 50 years of stuff
a: Go room by room, smallest first, with three piles: comes with him, family, charity. Measure the new flat and only take furniture that fits #packing_plan
== 2026-03-15 10:30
u: clearing Dad's loft. found his little brass camping stove from the 80s and he says have it for the van #dad_stove
u: he used to take me and mum to the Dales with it
a: Then it's more than a stove. Get it checked before you trust it with gas though
u: also found mum's wedding dress. had a bit of a cry
a: Of course you did. Her things don't all need deciding this week
== 2026-03-19 21:15
u: nights start tomorrow and I'm dreading it after this week
a: What's made it so rotten?
u: Dad's boxes, my calf, Josh sulking about chemistry
a: That's a lot at once. Before your first night, try a 90 minute nap in the afternoon. It takes the edge off the 4am slump #pre_night_nap
u: I never nap, I just drink coffee
a: Try it once. Alarm set, room dark
== 2026-03-23 16:00
u: Josh had a meltdown last night. says he's going to fail everything
a: That's hard to watch. How are you both today?
u: calmer. I don't know how to help, I did chemistry 25 years ago
a: You don't need to teach it. Help him build a weekly timetable with short blocks and proper breaks, keep his phone out of the room while he works, and ask what he got done rather than testing him #revision_help
u: the phone thing will start a war
a: Let him pick where it goes. A charging spot in the kitchen often works
== 2026-03-28 19:45
u: Dad's in. moved today, Josh carried everything and Gordon had the kettle on #dad_moved
a: What a day! How's your dad?
u: exhausted. sat in his chair by the window and said "it's not bad this" #dad_not_bad
a: From him that sounds like high praise
u: it is. I'm shattered
== 2026-04-02 15:20
u: first run back! 20 minutes of walk-run and the calf was fine
a: Brilliant! Any tightness afterwards?
u: a bit stiff on the stairs
a: Normal. Keep the next few flat and easy, and don't add distance and pace in the same week
u: Anjali has moved me on to single leg raises off a step, 3 sets of 15 #calf_raises_15
a: Progress! That's what gets the calf ready for long runs again
== 2026-04-06 12:10
u: went to look at a van in Harrogate! 2016 Ford Transit Custom, already converted, mustard yellow #van_transit
a: Ooh! What's the conversion like?
u: pop top, little kitchen, rock and roll bed. he wants £12,950 #van_asking
u: what should I check before I get too excited?
a: Look under the sills and arches for rust, press round the windows and roof for damp, ask for gas and electric certificates for the conversion, and check when the cambelt was last done #van_checklist
u: he says the cambelt was done at 90k, it's on 98k now
a: Good, get that on paper
== 2026-04-09 20:00
u: the MOT came back with advisories. corroded rear brake pipes and two tyres near the limit #mot_advisory
a: Not a deal breaker, but it's real money. Have you made an offer?
u: not yet. I'm rubbish at haggling
a: Get a quote for the work, then offer the asking price minus that, politely, and be ready to walk away. Having the money ready to transfer helps #haggle_advice
u: garage said about £650 for both
a: Then something around £12,300 is fair
== 2026-04-12 18:30
u: I BOUGHT A VAN. he took £12,200 #van_bought
a: RUTH! Congratulations! How does it feel?
u: terrifying, I've never driven anything that big
a: Take it round an empty car park first and get used to the mirrors
u: Josh has christened her Marigold #marigold
a: Marigold the mustard van, perfect
== 2026-04-16 14:40
u: news from work. the new unit rota starts in May, nights only one week in five #rota_new
a: That's a big change! Will it help?
u: with sleep and long runs, hopefully
a: Fewer switches means more settled weeks for your body clock. Keep your sleep tricks for the night week
u: and the DVSA cancelled Josh's test. examiner shortage. new date is 16th June #test_jun16
a: Frustrating, and right in exam season
u: at least it's after his last exam
== 2026-04-19 11:00
u: 9 miles today and the calf held up! first time past 8 since the strain #long_9
a: That's a huge milestone. What did you eat on the way?
u: nothing, just water. got a bit wobbly at the end
a: For anything over an hour, take something every 30 to 40 minutes: a gel, jelly babies or a couple of dates. Practise it on long runs so race day isn't the first time #fuel_advice
u: jelly babies it is, there's a tub in the staff room
== 2026-04-24 16:20
u: drove Marigold on my own for the first time. out to Otley and back #first_drive
a: How was it?
u: sweaty hands, but I didn't hit anything
a: That's the bar for a first solo drive
u: Dad's polished up his old stove for her
u: he's more excited than I am
== 2026-04-29 20:30
u: booked our first trip! three nights at a farm site near Malham, bank holiday weekend #malham_booked
a: How exciting! Who's going?
u: Josh says he'd rather die than share a van with his mum
a: Fair enough at 17
u: I might ask Dad
== 2026-05-03 12:30
u: 11 miles. the longest I'm doing before the race #long_11
a: Amazing, Ruth. Calf ok?
u: a bit tight after, did my raises
a: Good. Now taper: cut your weekly running by about a third each week, keep a few faster minutes in the short runs, and nothing new on race day, no new shoes, no new food #taper_advice
u: what about the night before?
a: Pasta or rice for tea, not a huge plate, kit laid out, early to bed even if you don't sleep much
== 2026-05-06 17:00
u: Dad said yes to the trip! he's insisting on making the morning tea #dad_joins
a: That's lovely. Where will he sleep?
u: I'll take the roof bed, he gets the rock and roll
a: Very gallant
u: Josh's exams start Monday. he's living on toast
a: Keep some easy meals in so he isn't just grazing, and lots of water
== 2026-05-12 15:00
u: first nights week on the new rota done and I feel human
a: That's wonderful to hear! Ready for Sunday?
u: nervous. what should I eat that morning?
a: Something you've had before long runs, 2 to 3 hours before the start: porridge with a banana or toast with honey. A small coffee is fine if that's normal for you #race_breakfast
u: porridge, and jelly babies in my pocket
a: And start slower than feels right, the first three miles should feel too easy
== 2026-05-17 18:30
u: I DID IT. 2:26:40, and the calf didn't make a peep #race_result
a: RUTH! That's fantastic! How do you feel?
u: wrecked and so so happy
u: Josh and Dad were at mile 12 with a sign saying "run faster mum I want my tea" #sign
a: That's a classic. Well earned tea tonight
== 2026-05-27 19:00
u: back from the van trip!
a: Welcome home! How did Marigold do?
u: no problems, apart from me stalling on a hill in Settle
a: Every van has a hill story
u: Dad said it was the best weekend he's had since mum died #dad_best_weekend
a: That's everything, Ruth
== 2026-06-04 21:00
u: Josh finished his last exam today. came out grinning
a: What a relief for you both! How does he think chemistry went?
u: "fine". which could mean anything
a: Results day is in August, enjoy the summer till then
u: Denise has him doing mock tests every lesson now
u: I'm eyeing an autumn 10k. don't let me sign up for a full marathon
a: Noted. I'll remind you about that calf
""", [
    ("what number is Dad's flat now", ["flat6"], "update", ["flat14", "flat14_stairs"]),
    ("when is Josh's driving test now?", ["test_jun16"], "update", ["test_apr28"]),
    ("How often am I doing night shifts these days?", ["rota_new"], "update", ["rota_old"]),
    ("which calf exercise is the physio having me do at the moment",
     ["calf_raises_15"], "update", ["calf_raises_10"]),
    ("When did I hurt my leg running?", ["calf_strain"], "temporal", []),
    ("what day did Dad actually move into his new place", ["dad_moved"], "temporal", []),
    ("When did Josh get through his theory?", ["theory_passed"], "temporal", []),
    ("how far off my original target was my finishing time in the end",
     ["goal_215", "race_result"], "multi_hop", []),
    ("What did Josh get in his chemistry mock, and what does he need in it for uni?",
     ["chem_mock", "newcastle_offer"], "multi_hop", []),
    ("why did Dad take to Gordon", ["gordon"], "lexical", []),
    ("What did Anjali say was wrong with my leg?", ["physio_anjali"], "lexical", []),
    ("what did Denise say about Josh's driving at the start", ["denise"], "lexical", []),
    ("Who came up with the name Marigold?", ["marigold"], "lexical", []),
    ("what's the sheltered housing place in Horsforth called", ["beech_court"], "lexical", []),
    ("what did you first suggest for my bedroom so I could sleep in the day after nights?",
     ["sleep_room_tips"], "paraphrase", []),
    ("what were your ideas for coping with the building work next door",
     ["builders_tips"], "paraphrase", []),
    ("What running schedule did you give me when I first entered the race?",
     ["training_plan"], "paraphrase", []),
    ("what did you tell me to do in the first couple of days after the injury",
     ["calf_first_aid"], "paraphrase", []),
    ("How did you suggest I handle Dad when he flat out refused to move?",
     ["dad_talk_advice"], "paraphrase", []),
    ("what did you say to inspect on a second hand camper", ["van_checklist"],
     "paraphrase", []),
    ("how can I help Josh with studying without nagging him", ["revision_help"],
     "paraphrase", []),
    ("What did you say I should be eating during long runs?", ["fuel_advice"],
     "paraphrase", []),
    ("why is Dad moving in the first place, what happened to him", ["dad_fall"],
     "paraphrase", []),
    ("How much did I pay for the van in the end?", ["van_bought"], "paraphrase", []),
    ("where did I book us to stay for the first van holiday", ["malham_booked"], "paraphrase", []),
    ("how did Dad feel about the trip in the van afterwards?", ["dad_best_weekend"], "paraphrase", []),
    ("which trainers did I buy and what did they cost", ["shoes"], "paraphrase", []),
    ("What did Dad hand over to me when we cleared out his attic?", ["dad_stove"],
     "paraphrase", []),
    ("how did Dad react on his first evening in the new flat", ["dad_not_bad"],
     "paraphrase", []),
    ("Where did I head the very first time I took the camper out without anyone?", ["first_drive"],
     "paraphrase", []),
])


conv("en", "le02", "u_felipe", "Felipe", """
== 2026-03-03 21:40
u: hey. quick vent: a publisher still hasn't paid me and I'm eating toast for dinner
a: Ugh, that's stressful. How late is the payment?
u: Lumen Press, 1,800 euros for a book cover and twelve spot illustrations. it was due February 15 #lumen_owed
u: I haven't even chased them, I hate sounding desperate
a: It's not desperate, it's admin. Keep it short: invoice number, amount, original due date, and ask them to confirm a payment date this week #reminder_email
u: Nadia says the same. she's in Toronto, 5 hours behind me
a: Long distance! How did you two meet?
u: comics festival in Angoulême two years ago. she bought my zine, then she bought me a coffee #met_nadia
== 2026-03-05 19:55
u: new rule: max 40 euros a week on food until Lumen pays #budget_40
a: Doable with dry staples. What's your kitchen like?
u: one pot, one pan and a knife that can't cut tomatoes. I live alone in a tiny flat in Bonfim, Porto, there's no space anyway #live_porto
a: Then start with a lentil soup: onion, carrot, garlic, a cup of red lentils, a tin of tomatoes, water, cumin. 25 minutes, four portions for about 3 euros #lentil_soup
u: four portions for 3 euros?? ok I'm in
a: Freeze two so it's not four days in a row
u: my freezer is a drawer of ice but ok
== 2026-03-08 10:20
u: my cat Mingau threw up twice this morning. on the rug of course
a: Poor Mingau, and poor rug. Is he eating normally?
u: yes, he's actually chubby. the vet weighed him at 6.3 kg in January #cat_weight_63
a: If he's bright and eating, it's often hairballs or eating too fast. A slow-feeder bowl helps with gulping #slow_feeder
u: he does inhale his food
a: If it happens more than once a week or he stops eating, take him in. A blood test is worth doing anyway
u: he's asleep on my drawings now like nothing happened
== 2026-03-10 22:10
u: big talk with Nadia tonight
u: we decided I'm moving to Toronto this summer #move_decision
a: Felipe, that's huge! How are you feeling?
u: excited. and terrified of the paperwork. it'll be a work permit, Nadia found a consultant who does them
a: Your clients are mostly online, right? That part can travel with you. Make a shared checklist so the paperwork isn't only in your head #shared_checklist
u: she already made a spreadsheet. she's a nurse, she lives in spreadsheets #nadia_job
a: Ha, the perfect partner for a visa process
== 2026-03-13 18:30
u: started a sourdough starter today. flour and water in a jar, his name is Gaspar #starter_born
a: Welcome, Gaspar! What flour did you use?
u: half rye half white, the rye was on sale
a: Rye is great for getting it going. Each day keep a spoonful, discard the rest, then feed equal weights of starter, flour and water, like 20 g each #feed_ratio
u: every day? he's a second pet
a: Pretty much. Keep him warm, give him a week or two
u: on the fridge then. Mingau can't reach it
== 2026-03-16 20:05
u: Lumen replied to my reminder. "accounts is on it". then nothing
u: it's a whole month late now
a: That's a classic holding answer. Now email the art director and accounts together: restate the amount, give a firm date like March 27, and ask who exactly is handling it #second_reminder
u: ok, sending it now
a: Good luck. Tell me what they say
u: also I need to raise my prices. I charge 35 an hour, which is a joke #rate_35
a: It's low. Let's fix it after this payment, one fight at a time
== 2026-03-19 17:45
u: took Mingau to the vet, he threw up again on Tuesday. they did bloodwork
a: How is he? What did they find?
u: his creatinine is 1.9, the vet said borderline, maybe early kidney stuff #creatinine
u: recheck in three months, more water, and he has to lose weight
a: Borderline is worth watching, not panicking over. Try a cat fountain, lots of cats drink more from moving water. Wet food adds water too #water_fountain
u: a fountain is 30 euros, I'll get one when Lumen pays
== 2026-03-22 13:10
u: the lentil soup was fine but kind of boring by day three
a: Fair. Did you add anything at the end?
u: salt
a: Fry the cumin in the oil first, then finish each bowl with a squeeze of lemon and a pinch of smoked paprika #soup_fix
u: smoked paprika I have, I'm Portuguese
a: Then for something different: egg fried rice with yesterday's rice, frozen peas and soy sauce. Under 2 euros #fried_rice
u: cold rice I always have
== 2026-03-26 08:50
u: Gaspar has grey liquid on top and smells like nail polish remover. is he dead
a: Not dead, hungry! That liquid is called hooch, it appears when the starter has eaten all its food #hooch
u: so what do I do
a: Pour it off, then feed him twice a day, 12 hours apart, for a few days until he doubles within 6-8 hours #hooch_fix
u: this jar has more demands than my cat
a: And fewer vet bills
== 2026-03-30 23:15
u: Nadia is upset with me. I missed our Sunday call because I was finishing a rush job for a magazine #fight_call
a: Oof. Did you get to talk afterwards?
u: briefly. she says she feels like she's fitting around my deadlines
a: That's fair and fixable. Pick one call slot that's sacred, say Sunday 8pm your time, put it in both calendars, and if a deadline hits you still call for ten minutes #call_slot
u: that's 3pm for her, works with her shifts
u: I'll call her tomorrow before she goes to work
a: Fingers crossed, Felipe
== 2026-04-03 16:00
u: new client!! Kettle Studio, a small board game company in Lisbon
a: Congratulations! What's the project?
u: a card game about lighthouse keepers. 40 cards, 2,200 euros total #kettle_job
a: Lovely. With new clients, ask for 50% before you start and the rest on delivery, and get the terms in writing #deposit_advice
u: after Lumen, yes. 1,100 before I draw a single wave
u: first sketches due in two weeks
a: Enjoy it, that sounds like a fun one to draw
== 2026-04-07 19:30
u: went to Lisbon today for my biometrics appointment. fingerprints and a photo where I look arrested #biometrics
a: Nobody looks good in those. Was it quick?
u: 20 minutes there, 6 hours of trains in total
u: lunch was a 3 euro bifana. within budget
a: Disciplined! Now you wait
u: the consultant says 6 to 10 weeks
== 2026-04-10 21:00
u: baked my first loaf with Gaspar. it's flat like a frisbee #flat_loaf
a: A classic first loaf! How long did the dough rise before shaping?
u: like 3 hours? the recipe said 4 to 6 but I was hungry
a: That's probably it. Let the dough rise until it's about 50% bigger and jiggly, however long that takes, and use bread flour, not the cheap all-purpose #loaf_fix
u: the cheap flour was the whole point haha
a: Then at least give it time, time is free
u: tastes good though. flat but good
== 2026-04-14 11:25
u: Lumen paid half! 900 euros arrived this morning #lumen_half
a: Progress! Did they say when the rest is coming?
u: "in May". that's it
a: Ask for an actual date, not a month, and get it in an email. Friendly but specific #lumen_date
u: done. the art director says May 15. he seems embarrassed tbh
u: Kettle paid their deposit in a day btw
== 2026-04-18 15:10
u: the airline wants the cat in a soft carrier under the seat for the whole flight. he screams in his carrier for the 10 minutes to the vet
a: Start practising now. Leave the carrier open in the living room with a blanket and treats inside, so it's furniture, not the vet box. Later close it for a few minutes while he eats #carrier_training
u: he already sniffed it. progress
a: Slow is fine, you have a couple of months
u: Nadia says she already cleared a shelf for him
a: A cat shelf before a human shelf. Priorities
== 2026-04-23 20:40
u: budget week again. what can I batch cook that isn't lentils
a: Black bean chili: onion, garlic, two tins of black beans, a tin of tomatoes, cumin, paprika, a teaspoon of cocoa. Simmer 30 minutes, five portions #chili
u: cocoa in chili??
a: Just a teaspoon. It makes it deeper, not chocolatey. Serve with rice or on toast
u: beans are simmering. cocoa is in
u: Kettle loved my first sketches btw, especially the cat I snuck into one card
== 2026-04-28 22:00
u: Nadia and I talked logistics. at first I'll live in her studio in Leslieville, then we find a bigger place together #plan_leslieville
a: Sounds sensible. How big is the studio?
u: 40 m2. plus a cat. plus a starter
a: Cosy! Worth agreeing before you land how you'll split rent and groceries, both while you're at hers and once you rent together #split_costs
u: she says no rent at first. I'd feel weird
a: Then offer something concrete, like covering groceries and half the utilities
u: I'll bring it up Sunday at 8, our sacred call lol
== 2026-05-04 09:10
u: IT'S APPROVED. the work permit came through this morning #permit_approved
a: FELIPE! Congratulations! How are you feeling?
u: I cried in the kitchen. Mingau unimpressed
u: Nadia screamed down the phone at 4am her time, she was on nights
u: we booked my flight for June 14, Porto to Toronto via Lisbon #flight_june14
a: A real date! And Mingau's ticket?
u: booked him too, 160 euros for him to ride in the cabin. more than my own meal budget for a month lol #pet_fee
a: Worth it to have him by your feet
== 2026-05-09 17:20
u: selling everything that won't fit in two suitcases. the drafting table went today to an architecture student, she carried it down four floors herself #sold_table
a: She earned it. What's left?
u: the bike, and 200 comics I will NOT sell
a: Comics can go by sea mail. Slow but cheap
u: told my mum properly today. she cried, then asked if Nadia can cook #mom_reaction
u: she's sad but she's already planning a visit for Christmas #mom_visit
a: A very mum reaction. And a visit to look forward to
== 2026-05-13 20:30
u: problem: Gaspar can't come on the plane right? a jar of goo through customs
a: Wet starter across borders is a hassle. Dry some instead: spread a thin layer on baking paper, let it dry 2-3 days, crumble the flakes into a zip bag #dry_starter
u: and he wakes up again?
a: Yes, mix the flakes with a little water and flour and feed daily. It can take 3-5 days to get lively
u: spreading him on paper now. crime scene vibes
a: A very small, very floury crime
== 2026-05-18 14:00
u: LUMEN PAID THE REST. 900 euros, three days after they promised #lumen_paid
a: Finally! The full 1,800 is in. How does it feel?
u: like I can buy the cat fountain and real flour
a: Want to write proper terms now, so this doesn't repeat?
u: yes please
a: Put three lines on every quote: payment due 14 days after invoice, 2% interest per month after that, and final high-res files only after full payment #payment_terms
u: files only after payment. Lumen would have paid in a week lol
== 2026-05-24 12:40
u: the airline moved my flight. now it's June 21, same route #flight_june21
a: Annoying. Does it mess anything up?
u: my lease ends June 15. six nights with nowhere to sleep
u: ok solved, I'll stay at my mum's in Braga with Mingau. she's thrilled
a: A week of being fed by your mum. Good way to leave
== 2026-05-30 19:15
u: eating through the pantry before I go. I have pasta, half a jar of capers, tinned sardines, one lemon
a: That's a real dinner: pasta with sardines, capers, garlic and lemon zest, topped with breadcrumbs fried in the sardine oil #pantry_pasta
u: breadcrumbs from the frisbee loaf. full circle
u: Mingau news: 5.8 kg at the vet today, down from 6.3 #cat_weight_58
a: Well done both of you! Is he using the fountain?
u: he drinks from it like it's a bar
== 2026-06-08 22:30
u: farewell dinner at our tasca tonight. full of sardines and feelings
a: A good send-off. Any speeches?
u: Rui did, badly. I cried anyway
u: oh and the vet signed Mingau's health certificate, rabies vaccine is up to date. he's officially allowed into Canada #vet_certificate
a: Keep those papers in your hand luggage
u: all in one folder. Nadia's spreadsheet insisted
a: That spreadsheet deserves a thank-you card
== 2026-06-22 15:00
u: I'm in Toronto!! landed yesterday evening
a: Welcome to Canada! How was the flight? And Mingau?
u: he slept the whole way under the seat, not one meow. the Lisbon-Toronto part was 8 hours #cat_flight
a: All that practice paid off. How's he settling in?
u: living under the bed. I'm living here too now, Nadia's studio in Leslieville. tiny but I'm so happy #live_leslieville
u: she got me a pastel de nata from a bakery on Dundas. it was ok. I didn't tell her
a: A kind lie for a kind gesture
== 2026-06-27 18:00
u: 7 dollars for a cauliflower?? Toronto why
a: It's a shock. Do you two have a food budget?
u: 120 dollars a week for the two of us. I pay it since I'm not paying rent #budget_120
a: Fair deal. Shop the discount grocers, buy dried beans and rice in bulk, and plan meals around what's on sale that week #toronto_grocery_tips
u: Nadia eats a lot after her long shifts, I cook for two and it's gone
u: at least the freezer here is real. luxury
== 2026-07-02 10:30
u: Gaspar is ALIVE. I rehydrated the flakes on Saturday and today he doubled #gaspar_revived
a: Welcome back, Gaspar! The dried flakes made it
u: nobody at customs asked about the zip bag of beige flakes, thankfully
u: I'm feeding him Canadian bread flour, it's way stronger. he loves it
a: Strong flour should help your loaves too
u: Canada Day fireworks last night. Mingau lived in the closet
a: Poor guy. A covered hiding spot helps on nights like that
== 2026-07-07 14:20
u: met an art director from a Toronto food magazine today. they want monthly illustrations #magazine_client
a: A local regular! Did you talk money?
u: I quoted 65 dollars an hour, my new rate. she didn't even blink #rate_65
a: Then it was the right number. Well done
u: question: do I need to charge tax here? Nadia mentioned HST
a: You only have to register for GST/HST once you earn over 30,000 dollars in four consecutive quarters. Below that it's optional. Keep records from day one #hst
u: nowhere near that yet. records though, ok
== 2026-07-12 21:10
u: the studio is getting small. we bumped into each other 40 times today and snapped at each other twice
a: Two people working from one room is hard. Looking at places?
u: seeing a one-bedroom in Roncesvalles in two days
a: At the viewing ask what's included in the rent, how heating works in winter, and get pets allowed in writing. Check the water pressure and look for pests #viewing_checklist
u: pets in writing, yes. Mingau is non negotiable
a: Also ask how long the last tenants stayed. Fast turnover can tell you a lot about a landlord #viewing_turnover
u: Nadia is making a spreadsheet, of course
== 2026-07-18 16:45
u: we got it!! signed the lease for the Roncesvalles one-bedroom, keys on August 1 #lease_signed
a: Amazing! Pets allowed?
u: in writing, clause 14. rent is 2,400 and we split it half and half #rent_split
a: Clean and fair. Is there a spot for you to draw?
u: a corner by the big window. amazing light
a: Mingau will fight you for that window
== 2026-07-24 11:00
u: first Toronto vet visit for Mingau. Dr. Okafor, very calm, he actually liked her
a: Good start. Did they recheck the kidneys?
u: yes. Dr. Okafor says his kidney values are stable, no change since Porto #kidney_stable
a: Great news. Stable is what you want
u: and he's 5.4 kg now!! #cat_weight_54
u: the bill was 280 dollars though. ouch
a: Maybe look at pet insurance now
== 2026-08-03 19:30
u: we're in! first night in our own place in Roncesvalles, on a mattress on the floor #live_roncesvalles
a: Your first home together! How's Mingau?
u: he checked every corner, then sat in the window like he owns the street
u: Gaspar's on the new counter. I throw away so much discard though, feels wasteful
a: Make discard crackers: 200 g discard, 50 g olive oil, flour until firm, roll thin, salt and rosemary on top, bake at 180 °C for about 25 minutes #discard_crackers
u: there's a rosemary bush in the yard, perfect
== 2026-08-10 13:15
u: the crackers are a hit. Nadia ate half the tray before I could take a photo #crackers_hit
a: Best review possible. Double batch next time
u: and Kettle Studio wants an expansion, 20 more cards #kettle_expansion
a: Repeat clients are the best. Same deposit?
u: half upfront, they didn't even ask why
a: That's what a good client looks like
== 2026-08-18 20:00
u: Nadia's parents are coming for dinner this weekend. first time at our place. help
a: Exciting! Anything they don't eat?
u: her dad doesn't eat pork. and we're still on a budget
a: A big pot of chicken and chickpea stew, Portuguese style, with smoked paprika instead of chouriço. Rice on the side and your sourdough. Cheap and feeds six #dinner_stew
u: and dessert?
a: Arroz doce, rice pudding with lemon peel and cinnamon. Costs almost nothing and tells them where you're from #arroz_doce
u: my mum's recipe, I'll call her tomorrow
u: can't believe in March I was eating toast in Porto waiting for Lumen to pay
""", [
    ("which part of town am I living in these days?", ["live_roncesvalles", "lease_signed"],
     "update", ["live_leslieville", "plan_leslieville", "live_porto"]),
    ("what's my hourly rate at the moment", ["rate_65"], "update", ["rate_35"]),
    ("How much are we spending on food per week now?", ["budget_120"], "update", ["budget_40"]),
    ("how heavy is Mingau now", ["cat_weight_54"], "update", ["cat_weight_63", "cat_weight_58"]),
    ("What was the snack you taught me for using up leftover starter, and what did Nadia think of it?",
     ["discard_crackers", "crackers_hit"], "multi_hop", []),
    ("how much did it cost to bring my cat on the plane, and how did he handle the trip?",
     ["pet_fee", "cat_flight"], "multi_hop", []),
    ("When did I get the green light on my Canada papers?", ["permit_approved"], "temporal", []),
    ("when did the publisher finally send the rest of what they owed me", ["lumen_paid"],
     "temporal", []),
    ("When did I first try baking bread with my starter?", ["flat_loaf"], "temporal", []),
    ("What was Mingau's creatinine at his first blood test?", ["creatinine"], "lexical", []),
    ("what's the Kettle Studio game about?", ["kettle_job"], "lexical", []),
    ("Do I have to register for HST as a freelancer?", ["hst"], "lexical", []),
    ("where did I have to go for my biometrics", ["biometrics"], "lexical", []),
    ("What did Dr. Okafor say about Mingau's kidneys?", ["kidney_stable"], "lexical", []),
    ("how did you tell me to word my first chase-up to the publisher", ["reminder_email"],
     "paraphrase", []),
    ("What did you suggest once the publisher had been dodging payment for a month?",
     ["second_reminder"], "paraphrase", []),
    ("what was that super cheap soup you gave me when I was broke in Porto", ["lentil_soup"],
     "paraphrase", []),
    ("How did you say to make that soup taste less dull?", ["soup_fix"], "paraphrase", []),
    ("my starter once had a weird layer of liquid and smelled like solvent, what did you tell me to do",
     ["hooch", "hooch_fix"], "paraphrase", []),
    ("what was your trick for taking my starter on the plane?", ["dry_starter"], "paraphrase", []),
    ("What did you suggest so Mingau wouldn't freak out in his travel bag?", ["carrier_training"],
     "paraphrase", []),
    ("what did you suggest after Nadia got upset that I skipped our call", ["call_slot"],
     "paraphrase", []),
    ("What did you tell me to find out when we went to see that one-bedroom?",
     ["viewing_checklist", "viewing_turnover"], "paraphrase", []),
    ("what did you say about getting money from new clients before I start drawing",
     ["deposit_advice"], "paraphrase", []),
    ("How did you suggest getting Mingau to stay better hydrated?", ["water_fountain"],
     "paraphrase", []),
    ("what main dish did you suggest for Nadia's parents' visit", ["dinner_stew"],
     "paraphrase", []),
    ("Where did Nadia and I first run into each other?", ["met_nadia"], "paraphrase", []),
    ("what does Nadia do for work", ["nadia_job"], "paraphrase", []),
    ("Who ended up buying my old drawing desk?", ["sold_table"], "paraphrase", []),
    ("how did my mum react when I told her I was leaving", ["mom_reaction", "mom_visit"],
     "paraphrase", []),
])


conv("en", "le03", "u_marcus", "Marcus", """
== 2025-09-23 21:40
u: hey. my mate said these things help, so here I am
a: Hi Marcus, glad you came. What's on your mind?
u: me and Kerry split up over the summer. Im kipping on my brother Dean's sofa in Fishponds for now #dean_sofa
a: That's a lot at once. How are you doing?
u: not great. had ACL surgery on my knee in august, 6 weeks ago, so cant even run to clear my head #acl_op
a: A breakup and a rebuilt knee at the same time, no wonder it feels heavy. Are the kids with Kerry?
u: yeah Ellie is 9 and Finn is 6, they stay in the house in Horfield #kids_ages
u: I have them every other weekend, sat morning to sun teatime, plus wednesday tea after school. they sleep at Kerry's cos theres no room at Dean's #sched_v1
a: That's a reasonable start while you're between places. We can go through any of it whenever you need
== 2025-09-27 14:10
u: GOOD NEWS for once. got the keys to an allotment today!! been on the waiting list nearly 2 years #allotment_keys
a: That's brilliant! Where is it?
u: Eastville, plot 14. 10 mins drive from Dean's #plot14
u: its completely wild tho, brambles taller than me
a: Common on a neglected plot. Don't do it all at once with that knee. Cut the brambles to ankle height, dig out the root crowns a bit at a time and cover each cleared patch with cardboard over winter #bramble_advice
u: cardboard I can get loads of from school
a: Perfect, PE cupboards get endless deliveries
== 2025-10-01 20:55
u: had the kids for tea. Finn cried when I dropped them back, held onto my leg at the door and Kerry had to peel him off #finn_cried
a: That's so hard. How were you after?
u: sat in the car for 20 mins
a: Completely understandable. Keep the parting short and the same every time, a little ritual like a special handshake, and always tell him when the next time is: "see you Saturday" #goodbye_ritual
u: we used to do a fist bump thing before school
a: Bring that back. Familiar is good at 6
== 2025-10-05 19:30
u: knee is like a balloon tonight. spent 3 hrs at the allotment yesterday kneeling and pulling roots. stupid
a: Ah, that'll do it. Is it hot or just puffy?
u: puffy and stiff, not hot
a: Then rest it tonight: ice in a tea towel for 15-20 minutes every couple of hours, leg up above your heart, compression sleeve if you have one. If it gets hot or your calf hurts, ring the clinic #ice_advice
u: physio will tell me off on tuesday
a: Better you tell her first. And at the plot use a kneeling pad or a low stool and stop every half hour
== 2025-10-09 21:15
u: random one. I want to learn spanish
a: Love that. What's brought it on?
u: taking the kids to Seville next summer, my half of the hols. want to at least order food without pointing #seville_plan
u: did french at school and remember nothing
a: A realistic plan: 15-20 minutes a day on an app for vocab, plus a short podcast where you repeat phrases out loud. Survival phrases first: ordering, directions, numbers, "can you speak slower" #spanish_plan
u: already on duolingo, 4 day streak lol
a: Then you've started! Just add the speaking bit
== 2025-10-12 18:00
u: my sister Claire rang from Leeds, mums 70 on 14th march. Claire wants a massive party, mum says she doesnt want a fuss #mum_70
a: Classic. What does your mum actually enjoy?
u: family, a sunday roast and Motown. and she cries at everything #mum_likes
a: Then maybe a middle way: not a surprise, but a proper afternoon with family and her old friends, good food and her music. Ask her who she'd want there so it feels like hers #party_middle
u: mum'd hate a surprise tbh
a: Ha. Then that's your argument for Claire
== 2025-10-16 22:00
u: knackered. teaching PE when you cant run is weird
a: I can imagine. How are you managing the lessons?
u: shouting from the side. year 8s taking the mick
u: and every time a kid goes up for a header I flinch. thats how I did mine, five a side with the staff team in may, landed funny #knee_cause
a: A few things might help: pick a couple of reliable students as demonstrators, teach from a fixed spot with a stool, and run station lessons where groups rotate with task cards #pe_lessons
u: stations could work for the fitness unit
u: head of dept said I can swap my after school football club for table tennis till spring lol #table_tennis
a: Good deal for your knee, honestly
== 2025-10-19 16:45
u: back at the plot with Gaz from school, cleared about half. under the brambles its all bindweed, white roots everywhere
u: Gaz says borrow his rotavator, done in a day #gaz_rotavator
a: Hold off. Rotavating bindweed chops the roots into hundreds of bits and every bit can grow into a new plant. Fork out what you can by hand and keep the ground covered, it weakens in a season or two #no_rotavator
u: gutting. a day vs two years
a: Sorry! You'll still have beds in the covered bits by spring
== 2025-10-24 20:30
u: been looking at flats. Deans sofa is wrecking my back and the kids need somewhere to sleep at mine #flat_search
u: budget about 1100 a month, bristol is mental
a: It really is. What do you need most?
u: 2 beds for the kids. near-ish horfield for school
a: Worth widening the area and checking the drive time at school-run hours rather than the distance. And ask about the landlord's rules on pets and putting things on walls, kids will want posters up #flat_tips
u: saw one in Bedminster today, 2 bed, 1150. bit over #bedminster_viewing
a: Only 50 over. Landlords sometimes come down a bit if you offer a longer contract
== 2025-10-29 19:45
u: half term so had the kids at the plot all afternoon. Finn found a frog and named it Gary after Gaz. Gaz is honored #frog_gary
a: The highest honour there is. Did Ellie enjoy it?
u: she wants her own little bed for strawberries #ellie_strawberries
u: bloke on the next plot says garlic goes in now??
a: Yes, autumn's ideal, garlic needs a cold spell to split into cloves. Push each clove in pointy end up, 2-3 cm deep and 15 cm apart, somewhere sunny. Buy bulbs from a garden centre, not the supermarket #garlic_advice
u: its the only bit thats clear anyway lol
a: Then the garlic bed picks itself
== 2025-11-03 21:20
u: party update, had a video call with Claire and Dean. we booked the function room upstairs at the Red Lion in Westbury, saturday 14 march 2pm #venue_redlion
u: about 40 people. mum agreed as long as nobody makes a speech about her #no_speech
a: Good compromise. Any idea what to get her?
u: no idea, she says she has everything
a: What about a memory book: ask family and her old friends to send one photo and a short memory each, then put them together in a printed photo book. Start collecting now, people are slow #photo_book
u: love that. Claire can chase people
a: Perfect division of labour then
== 2025-11-07 18:50
u: signed for the Bedminster flat!! #flat_signed
u: landlord knocked it down to 1120 if I sign for a year #rent_1120
a: Well negotiated! When do you get the keys?
u: move in on the 15th. Dean is gutted lol
a: Ha, poor Dean. What about the kids' room?
u: Finn wants bunks, Ellie says shes too old
a: Maybe a normal bed for Ellie and a cabin bed for Finn, and let each of them choose their own bedding so the room feels theirs #kids_room
== 2025-11-11 21:35
u: physio today. Priti says Im ahead of schedule #priti_ahead
u: 13 weeks. 20 mins bike and light leg press now #bike_legpress
a: That's great progress. How does it feel?
u: clicks on stairs tho. she says normal if no pain
a: Clicking without pain or swelling is common after an ACL reconstruction. Keep doing the boring strength work, that's what protects the graft later #clicking
u: asked when I can run. she said maybe 4-5 months after the op if my strength tests are ok #run_timeline
a: So maybe early new year. Something to aim for
== 2025-11-16 20:10
u: moved into the Bedminster flat yesterday. Dean and Gaz carried everything, I was banned from lifting #moved_in
u: kids stayed over last night, first time theyve slept at mine. Finn came into my bed at 3am, said the flat makes noises #first_sleepover
a: New places sound odd at night. How is he today?
u: clingy. Ellie's fine, already put posters up
a: For Finn: bring something from his room at Kerry's, like a teddy or his pillow, add a small nightlight, and keep bedtime the same as at his mum's, same story, same order #finn_settle
u: he's got a toy dinosaur he won't sleep without. I'll ask Kerry if it can travel
a: Good idea, one thing the same in both houses helps
== 2025-11-20 22:10
u: first spanish evening class tonight! community centre in Southville, thursdays 7 till 9 #class_thursday
a: Exciting! How was it?
u: teacher Alberto is great but talks sooo fast
u: and whats the difference between ser and estar, my brain hurts
a: Rough rule: ser for what something is, who you are, where you're from, your job. Estar for states and locations, how you feel or where something is right now. "Soy profesor" but "estoy cansado" #ser_estar
u: estoy muy cansado then. night
a: ¡Perfecto! Buenas noches, Marcus
== 2025-11-25 21:00
u: me and Kerry had a row on the doorstep sunday, in front of the kids. cos I was 20 mins late with traffic from bedminster #handover_row
a: Rough for everyone. How did the kids take it?
u: Ellie went quiet all evening
a: A few things can take the heat out: swap over at school or somewhere neutral, keep it short and friendly, and put the practical stuff in a shared calendar app. If you're late, text early #handover_tips
u: an app might stop the "you never told me" stuff. gonna suggest it. and say sorry to Ellie
a: Both good moves. Saying sorry to her matters more than who was right
== 2025-11-30 15:30
u: built compost bays out of pallets at the plot, got them free from the school kitchen #compost_pallets
a: Nice recycling. How many bays?
u: three, like the books say
u: and put broad beans in. Len on plot 15 gave me the seeds, hes about 80 and still digs every day #len_80
a: Legend. Autumn-sown broad beans are tough, but mice love digging them up, so cover the bed with fleece or netting. You should get an early crop around May or June #mice_fleece
== 2025-12-04 21:45
u: first mediation session today #mediation1
u: better than I thought. the mediator was really calm, didnt let us talk over each other
a: That's a good sign. Did you agree anything?
u: not yet. christmas mostly, and me wanting the kids overnight more now Ive got the flat. next session is in january
a: Before then, write down the schedule you'd actually like and why, thinking about the kids' week rather than counting hours. Walking in with a concrete proposal helps a lot #mediation_prep
u: I want wednesdays overnight so I can do a school run
a: Good, that's about the kids. Write it down
== 2025-12-09 20:20
u: Ellie turned 10 on sunday!!
u: we got her two guinea pigs for her birthday, she named them Salt and Pepper #guinea_pigs
a: She must be over the moon! From both of you?
u: yeah me and Kerry went halves. first thing we've done together in months
a: That's a really nice thing to pull off for her
u: Finn is jealous, wants a snake now
a: A snake might be a harder sell to Kerry
== 2025-12-14 19:00
u: need easy teas for the kids, sick of pasta pesto
a: Fair! One they can help make: wrap pizzas. Tortilla wrap, tomato purée, grated cheese and whatever toppings they like, 8 minutes in a hot oven. They build their own, so less moaning #wrap_pizza
u: ha Finn would put sweetcorn on everything
a: Then he gets the sweetcorn one
u: knee did 30 mins on the bike today no problem btw
a: That's a big step up from last month
== 2025-12-21 18:30
u: christmas is sorted. kids wake up at Kerry's christmas morning, I get them from 2pm christmas day till boxing day evening #xmas_split
u: next year we swap
a: Sounds fair. How do you feel about the morning?
u: dreading it tbh. first xmas morning without them
a: Completely understandable. Could you plan something for the morning so it isn't empty? A walk, the plot, breakfast with Dean #xmas_morning
u: Dean says come for a fry up
a: Noise and a fry up, that's a solid plan
== 2025-12-27 17:40
u: survived christmas. teh fry up helped and the kids loved it at mine, Finn built his dinosaur lego in about an hour
u: Salt and Pepper are staying at Kerry's full time, my lease says no pets #pigs_at_kerrys
a: Makes sense. Did Ellie mind?
u: wanted them every weekend. we said maybe hols
a: Sounds like a fair compromise
== 2026-01-04 20:00
u: happy new year. seed catalogue and a beer tonight
a: Best kind of evening. What are you thinking?
u: spuds, onions, beans, courgettes, Ellie's strawberries. too much?
a: Not for a full plot, but split it into four beds and move each group round every year: potatoes, beans and peas, onions with the garlic, squash or cabbages. Stops diseases building up #crop_rotation
u: Len said the same but with more swearing
a: Then Len and I agree
u: also thinking of getting a tutor for spanish. the class is good but I never actually get to talk
a: Half an hour a week with an online tutor would give you exactly that. Look for one who does conversation, not grammar drills #tutor_advice
== 2026-01-09 21:10
u: I RAN
u: Priti did the hop tests, I passed, so 5 mins jogging on the treadmill at the gym today #first_jog
a: Marcus, that's huge! How did it feel?
u: like a baby giraffe. no pain though
a: All those boring exercises paid off. Any plan?
u: plan is 1 min jog 1 min walk x5, 3 times a week, no hills till march #run_plan
a: Stick to it even when it feels too easy
== 2026-01-14 21:30
u: second mediation done. we agreed a proper schedule #mediation_done
u: every other weekend from friday after school till I drop them at school monday, plus every wednesday overnight #sched_v2
a: Big step! And you got your school runs
u: relieved. Kerry seemed relieved too
a: Maybe put it straight into the shared calendar so everyone, kids included, can see whose day it is
u: Ellie wants it on both fridges
a: Even better, kids like knowing what's next
== 2026-01-19 20:40
u: party problem. the Red Lion function room is up a steep flight of stairs and Aunt Val is in a wheelchair since her fall, mums hip isnt great either #stairs_problem
a: Ah. Is there a room downstairs?
u: no, downstairs is just the pub
a: Then it's worth moving. Look for somewhere step-free with an accessible toilet: cricket or rugby club halls, church halls, community centres. Ask about a kitchen and bringing your own music #venue_search
u: Claire is fuming, she paid the deposit
a: Ask the Red Lion to refund it given the reason, pubs often will
== 2026-01-25 19:15
u: first lesson with my spanish tutor tonight. Lucía, online, shes from Valencia #lucia
u: sundays 6pm, 45 mins, £18 a go #lucia_price
a: How was it?
u: terrifying. all in spanish. understood more than I thought tho
a: That's the best sign. Between lessons, write down three things you wanted to say but couldn't and bring them next time. That builds exactly the language you need #lucia_tip
u: she said seville in july is like an oven lol
a: She's right, it often tops 40 degrees
== 2026-01-31 17:00
u: venue sorted! mums party is moving to Westbury cricket club, the pavilion is all one level with a ramp #venue_cricket
u: same date and time, and cheaper
a: Brilliant. Did you get the deposit back?
u: yep full refund. Claire is calm again
u: and Claire's mate Bex makes cakes, she's doing mums #cake_bex
a: A homemade cake for a 70th, lovely. Ask your mum her favourite casually, as if it's for something else
== 2026-02-06 21:00
u: knee swelled up again. felt great so I did 20 mins straight on the treadmill instead of the intervals. idiot #overdid_run
a: The classic mistake. Is it just puffy?
u: yeah no real pain, just fat and stiff
a: Ice and elevate tonight. Then tell Priti and drop back a stage in the plan until it's stayed settled for a couple of days. Swelling the next day is your knee saying the load was too much #swelling_step_back
u: Priti is gonna kill me
a: She's seen it a hundred times
== 2026-02-12 20:30
u: change of plan for the summer, we're going to Valencia instead of Seville #valencia
u: Lucía talked me into it. beach and no 40 degrees
a: Good call with kids that age. Booked yet?
u: flights booked, 27th july for 10 days #flights_booked
u: Ellie is learning the numbers with me, shes faster than me already #ellie_numbers
a: Kids soak it up. Make it a game
== 2026-02-18 19:50
u: half term, kids at the plot all morning. we've got Charlotte seed potatoes sprouting on my windowsill #chitting
a: Nice first crop. Keep them in egg boxes, eyes facing up, somewhere cool and light
u: Len gave us a rhubarb crown from his plot #rhubarb
u: whats the deal with it
a: Plant it in a sunny corner where it can stay for years, with plenty of compost, crown at soil level. The hard part: pick nothing this first year and only a few stalks next year #rhubarb_advice
u: Finn's already planning crumble lol
a: Gently. Maybe promise him shop rhubarb for now
== 2026-02-26 21:40
u: mums photo book is nearly done, Claire got 31 memories in #book_31
u: her old netball team sent one, made me cry
a: That'll be special. Found out the cake yet?
u: coffee and walnut, obviously. three tiers #cake_flavour
u: and now mum wants me to say a few words on the day. the woman who banned speeches #speech_request
a: Of course she does! Keep it short: two minutes, one funny story, one thing she taught you, then raise a glass. Write it on a card, don't wing it #speech_tips
u: funny story is easy. she once drove to Cornwall with the handbrake on
a: That's your opener sorted
== 2026-03-07 18:10
u: week till mums party. got the kids this weekend, theyre making her a card with a 70 out of pasta shells
a: She'll keep that forever. How are you doing?
u: good actually. me and Kerry had a coffee after drop off on monday, first time we've just talked #kerry_coffee
a: That's a big change from November
u: and Priti says I can jog outside from next week, flat routes only #outside_jog
a: The harbourside would be perfect for that
== 2026-03-15 12:30
u: mums party was amazing. she cried at the photo book within about 10 seconds #mum_cried
a: Of course she did! How did your speech go?
u: handbrake story got the biggest laugh
u: Finn danced to Motown pushing Aunt Val's wheelchair. Ellie said feliz cumpleaños in her best accent #feliz
a: That's perfect, Marcus
u: six months ago I was on a sofa with a bad leg. feels like a different life
a: It really does. You've handled a lot of hard things well this year
""", [
    ("where am I living these days?", ["flat_signed", "moved_in"], "update",
     ["dean_sofa", "flat_search"]),
    ("what's the current deal for when the kids are with me", ["sched_v2"], "update",
     ["sched_v1"]),
    ("Where is mum's 70th happening now?", ["venue_cricket"], "update", ["venue_redlion"]),
    ("which city are we heading to on holiday this summer", ["valencia"], "update",
     ["seville_plan"]),
    ("when did I finally get my allotment?", ["allotment_keys"], "temporal", []),
    ("When did I first manage a jog after the operation", ["first_jog"], "temporal", []),
    ("when was the first meeting with the mediator?", ["mediation1"], "temporal", []),
    ("what did Finn call the frog", ["frog_gary"], "lexical", []),
    ("remind me when to use ser and when estar", ["ser_estar"], "lexical", []),
    ("how much does a session with Lucía cost?", ["lucia_price"], "lexical", []),
    ("what should I do with the rhubarb crown Len gave me", ["rhubarb_advice"], "lexical", []),
    ("why did you say not to use the rotavator?", ["no_rotavator"], "lexical", []),
    ("Who's baking mum's birthday cake and what flavour is it?", ["cake_bex", "cake_flavour"],
     "multi_hop", []),
    ("where do the pets we got Ellie for her birthday live", ["guinea_pigs", "pigs_at_kerrys"],
     "multi_hop", []),
    ("what did you suggest when Finn got upset about me leaving after tea", ["goodbye_ritual"],
     "paraphrase", []),
    ("what did you say about all the thorny stuff on the plot when I first got it", ["bramble_advice"],
     "paraphrase", []),
    ("How was I meant to plant the garlic?", ["garlic_advice"], "paraphrase", []),
    ("how did you tell me to treat my leg when it blew up after all that kneeling on the plot",
     ["ice_advice"], "paraphrase", []),
    ("what was your plan for me starting Spanish from scratch", ["spanish_plan"],
     "paraphrase", []),
    ("How did you say I could run my PE classes while I couldn't demo anything?",
     ["pe_lessons"], "paraphrase", []),
    ("what gift idea did you come up with for mum", ["photo_book"], "paraphrase", []),
    ("how did you say Kerry and I could stop fighting when we swap the kids over",
     ["handover_tips"], "paraphrase", []),
    ("What did you suggest to help my youngest sleep at my place?", ["finn_settle"],
     "paraphrase", []),
    ("what was that easy tea the kids can make themselves", ["wrap_pizza"], "paraphrase", []),
    ("what did you say when I pushed it too far on the treadmill", ["swelling_step_back"],
     "paraphrase", []),
    ("how did I wreck my knee in the first place?", ["knee_cause"], "paraphrase", []),
    ("what sort of things does mum love", ["mum_likes"], "paraphrase", []),
    ("how did we divide up Christmas with the kids?", ["xmas_split"], "paraphrase", []),
    ("what rent did I end up paying for the flat", ["rent_1120"], "paraphrase", []),
    ("why did we have to change where mum's do is?", ["stairs_problem"], "paraphrase", []),
])


conv("en", "le04", "u_gwen", "Gwen", """
== 2026-04-02 21:05
u: Evening! Long day. The old oven played up AGAIN, the back deck wouldn't get hot
u: Burnt four loaves of bara brith trying to make up for it, I could have cried! #bara_brith
a: Oh no, what a start. How old is the oven?
u: Twenty two years! It came with the shop, it's older than some of my customers haha
a: That's a good innings for a deck oven. Is someone coming to look at it?
u: Engineer's booked for Saturday. Fingers crossed it's something silly
a: Fingers crossed for you!
== 2026-04-04 17:40
u: Well, the engineer's been. Bad news I'm afraid
u: Thermostat and two elements are gone and they don't make the parts anymore. Not worth patching, he says, I need a new oven!! #oven_dead
a: Oh Gwen, I'm sorry. Did he give you any idea of cost?
u: £16,500 for a new three-deck, fitted. I nearly fell off my stool
a: Don't sign anything yet. Get at least two more quotes, ask about ex-display or refurbished ovens, and compare a bank loan with asset finance before deciding #oven_advice
u: Refurbished, I hadn't even thought of that!
a: Bakeries close and upgrade all the time, good used ovens do come up
u: Right, I'll ring round Monday. We'll manage on the front deck till then
== 2026-04-07 20:15
u: More fun news, the nurse rang. HbA1c is 44, which apparently means I'm prediabetic! #hba1c_44
u: I run a BAKERY! I taste everything all day long!!
a: That's a lot to take in. Prediabetes can often be reversed with small, steady changes
a: Some easy starts: stop tasting every batch yourself (pick someone else to do it), don't skip lunch, and walk for 15-20 minutes after your main meal #prediab_tips
u: Bethan can be chief taster, she'll love that!
a: Perfect delegation. When will they test you again?
u: July sometime. She wants me to lose a bit of weight too
a: Three months is plenty of time to see a difference
== 2026-04-09 19:30
u: Rhys finally handed his notice in today! 38 years at the council, highways department. Last day 30 June!! #rhys_retire_june
a: What a milestone! How is he feeling?
u: Like a kid on the last day of term
u: He's looking at campervans on his phone every night
a: And how do you feel about having him home all day?
u: Bit nervous! He'll be in the shop reorganising my shelves, I know him
a: Maybe give him a proper job there, like deliveries, so he's helping not hovering
u: Ooh the cafe orders! He could do the drop offs
== 2026-04-12 14:20
u: I'M GOING TO BE A NANA!!!
u: Carys told us at Sunday lunch, a little card signed "Baby, due 20th September". I screamed so loud next door came round #carys_due
a: Gwen, congratulations!! Your first grandchild?
u: First one! Rhys had to go and "check something in the garage" for ten minutes haha
a: That's lovely. How is Carys feeling?
u: Sick as a dog every morning, poor thing
a: Ginger and small, frequent snacks help a lot of people with that
== 2026-04-15 21:40
u: Guess who's got the solo at the summer concert!
u: Delyth, our conductor, wants me to sing the first verse of Myfanwy on my own
a: That's wonderful! A big vote of confidence
u: I haven't sung alone since the school eisteddfod! Terrified but I said yes
a: When's the concert?
u: Saturday 11th July, at the chapel in Canton
a: Loads of time to prepare. Record yourself once a week so you can hear it improving
u: Ugh, I hate my own voice! But fine
== 2026-04-18 16:50
u: Been to the bank. They'll look at a business loan of £15,000 over 5 years, about 8.9% #loan_apply
u: I've got £1,500 saved for the rest
a: That's a solid start. Can I suggest a few questions before you sign?
u: Please! I always come out of the bank feeling stupid
a: Ask if it's secured on your house, what the fees are for paying it off early, whether there's a repayment holiday at the start, and the total you'll repay #bank_questions
u: Writing that on the back of a paper bag now
a: A baker's notepad!
== 2026-04-21 20:05
u: Awful day. Bethan handed her notice in this morning #bethan_notice
u: Six years she's been with me! Her partner's got a job in Bristol so they're moving #bethan_reason
a: Oh Gwen, that's hard. You two sound close
u: She's like a second daughter. And she does all the early sourdough
a: When's her last day?
u: Friday 29th May. Five weeks to find someone
a: Could she help write the job description? She knows the job best
u: Good idea, she's already offered to train whoever we get
== 2026-04-24 14:30
u: Quiet afternoon. Question! I have toast and jam at 5am and I'm starving by ten
a: Classic sugar crash. Want a breakfast that keeps you full longer?
u: Yes please, but no eggs at 5 in the morning!
a: Overnight oats then: oats, plain yogurt, grated apple and cinnamon in a jar the night before. No sugar needed, the apple sweetens it #oats_recipe
u: In a jam jar! I've got hundreds!
u: Weighed myself too, 13 stone 2. Target is 12 and a half by Christmas
a: Realistic. About a pound a fortnight gets you there
== 2026-04-28 19:50
u: Bethan and I wrote the job advert tonight over a glass of wine
u: Assistant baker, 5am starts, four days a week, £12.75 an hour #ad_wage
a: Sounds clear. Did you mention the training?
u: Yes! Where do I put it though? Last time I hired was 2020
a: Shop window, the local Facebook group and Indeed. And call the catering college
u: The college! Carys went there, I'll ring them
== 2026-05-02 17:10
u: Oven news! A bakery in Swansea is closing and selling their two-year-old deck oven, refurbished and fitted for £8,800 #refurb_quote
u: Half the price!!
a: Great find. A few checks before you commit?
u: Go on
a: Get a warranty in writing, ask for the service records, and measure your back door, deck ovens are wider than you think #refurb_check
u: Ha! Rhys is already out there with the tape measure
a: Good man. And ask who does the installation and the gas safety certificate #refurb_gas
u: Their engineer does it all, I'll get that in writing too
== 2026-05-05 21:55
u: Choir was a disaster. My voice cracked on the high note in front of everyone
a: Oh no. Were you warmed up?
u: Not really, I rushed in straight from the shop
a: That'll do it. Ten minutes first: humming, lip trills up and down your range, then gentle sirens on "ng" #vocal_warmup
u: Lip trills? Like a horse?
a: Exactly like a horse! Daft but it relaxes everything
u: Delyth said the same, just less kindly haha
== 2026-05-08 15:20
u: Lunch with Carys today, she's past the sickness thank goodness
a: Oh good. How's she doing otherwise?
u: Blooming! And I've started a little lemon cardigan, since we don't know if it's a boy or a girl yet #knit_cardigan
a: Lemon is a lovely choice
u: Rhys keeps sending me campervan adverts. I keep saying, pension first!
a: A chat for when the retirement date gets closer
== 2026-05-11 20:30
u: Twelve applications! Down to three for interviews
a: Good response. Who's on the list?
u: Tomasz, 28, four years at a Polish bakery in Newport, gorgeous rye in his photos
u: Kieran, 19, just out of the catering college. And Siân, 45, retraining after a bank job
a: A nice range. Could you do short paid trials as well as talking?
u: How do you mean?
a: Give each of them two hours on a real morning: shaping, the oven, a customer or two. Watch how they cope under pressure and whether they clean as they go #trial_shift_advice
u: Clever! Bethan can watch the shaping, she's fussier than me
== 2026-05-14 19:15
u: Trials done and I've offered the job to Tomasz! He said yes straight away
a: Brilliant! What made him stand out?
u: His shaping is better than mine. And he tidied the bench without being asked
a: Exactly what a trial shows. When does he start?
u: Tuesday 26th May, so he gets a week with Bethan
u: Felt awful ringing Kieran, he was so keen. I said I'd keep his number
a: That's kind, you might well need him later
== 2026-05-18 18:00
u: Decision made, we're going for the second-hand oven! It's spotless
u: So I went back to the bank and I only need £9,000 now instead of the full amount #loan_9000
a: That's a big saving, well done. Same term?
u: Same five years, same rate. Fitting's booked for early June
a: Not long to wait then!
== 2026-05-22 13:40
u: Five pounds down!! Walking along the Taff every evening after I close
a: Fantastic! How do you feel?
u: Less puffed on the stairs. But lunch is my weak spot, I grab a sausage roll off the counter
a: What about a big pot of soup on Sunday for the week? Red lentils, carrot, onion, cumin and a tin of tomatoes. Filling and cheap #lentil_soup
u: I do love a soup. Rhys will moan it's got no meat
a: He can add ham to his bowl
== 2026-05-29 21:10
u: Bethan's last day today. I'm in bits
u: We shut at 2 and had a little party in the shop. I made her a three-tier lemon drizzle and the regulars brought cards #bethan_lastday
a: What a lovely send-off. Did she like the cake?
u: She cried into it! Then she handed Tomasz her sourdough starter
u: The starter's called Dai. Don't ask haha
a: Long live Dai!
== 2026-06-04 19:45
u: THE NEW OVEN IS IN!! Went in yesterday, first bake this morning #oven_installed
a: Hooray! How did it go?
u: Even heat on all three decks, every loaf the same colour, I nearly cried again
a: That's the dream. How's Tomasz getting on with it?
u: He calls it "the lady". Rhys kept the old one's door as a souvenir, don't ask
a: A 22-year-old door deserves a retirement too
== 2026-06-08 20:20
u: I could scream. Rhys's boss asked him to stay till the end of October to train his replacement, and the soft lump said yes! #rhys_retire_oct
a: Oh dear. How do you feel about it?
u: Cross! We'd planned a trip in July. But it's more money for the campervan I suppose
a: A fair silver lining. Could you still get away for a long weekend?
u: Maybe. Carys will be huge by then though
== 2026-06-12 18:30
u: It's a GIRL!! #girl_news
u: Dan gave me the sealed envelope from the scan so I could bake the reveal cake. Didn't peek once! Pink sponge inside #its_a_girl
a: A granddaughter! Congratulations, Nana Gwen. What willpower
u: Rhys says he's building her a dolls house. She's not even born!
a: He'll have time for it once he's retired
== 2026-06-17 21:30
u: Three weeks to the concert and I'm singing Myfanwy in my sleep
a: That's your brain rehearsing. How are rehearsals going?
u: Better since the horse noises! But I get the shakes as soon as I step out front
a: Try this: breathe out slowly for longer than you breathe in, plant both feet, and find one friendly face in the audience to sing to #stage_nerves
u: Rhys will be in the front row, I'll sing to him
a: Unless he makes you laugh
u: He will! I'll pick Delyth's mam instead
== 2026-06-21 17:25
u: First loan statement came. £186 a month for five years #loan_repay
u: Ouch! But the gas bill's already down
a: New ovens are far more efficient. Have you worked out the saving?
u: Tomasz reckons forty quid a month
a: So the oven is partly paying for itself
== 2026-06-26 20:40
u: Confession. Two Welsh cakes straight off the griddle and a slice of Tomasz's apple cake
a: No judgement. Hunger or habit?
u: Habit! The 3 o'clock slump, the smell gets me every time
a: Keep something ready for 3pm: a handful of almonds, oatcakes with cheese, or yogurt with berries. Eating first makes the cakes less tempting #snack_3pm
u: Cheese and oatcakes I can do. I'll keep them in the office
u: Oh and Tomasz wants to try a dark rye loaf on Saturdays. I said go on then
a: Let's see how Cardiff takes to rye!
== 2026-07-01 19:05
u: The rye sold out by 10 on Saturday!
a: Fantastic, Tomasz is a real find
u: Saturdays are mad now, so I've taken on Kieran, the lad from the college. Saturday mornings on the till and the trays #kieran_saturday
a: Lovely that you kept his number. How's he settling in?
u: Bit shy, but the old ladies adore him already
== 2026-07-07 12:30
u: Four days to go and my throat is scratchy! Of all the weeks!!
a: Oh no. A cold, or overuse?
u: Shouting over the mixer, and extra rehearsals
a: Rest it as much as you can: no shouting, no whispering either (it strains more than you'd think), lots of water, and steam from a bowl of hot water twice a day #scratchy_throat
u: No whispering? I had no idea!
a: Honey in warm water is soothing too, just not too much with your sugar levels #throat_honey
== 2026-07-12 10:15
u: Well!! The concert last night
u: I didn't crack once! The whole chapel went silent and then they clapped before the choir even came in. Rhys was crying in the front row #concert_done
a: Gwen, that's amazing! How did it feel?
u: Like flying! I looked at Delyth's mam like you said and it worked
a: I'm so proud of you. Did anyone record it?
u: Carys filmed it, I've watched it nine times already
== 2026-07-20 16:45
u: Retest results!!! HbA1c is 39, the nurse says that's back in the normal range #hba1c_39
u: And 9 pounds down altogether, that was my Christmas target!
a: Brilliant, Gwen. All those oats and evening walks paid off
u: She'll check again in a year
a: What do you think made the biggest difference?
u: Not tasting everything. And the soup, I'm on my eighth pot
== 2026-07-28 20:55
u: Carys and Dan have picked a name, or so they say. Elin!
a: Elin is lovely. A family name?
u: Dan's gran. But Carys keeps changing her mind
u: And Rhys has found a campervan! 2015 VW, two owners, £26,000. His lump sum will cover it #campervan
a: Exciting! Have you seen it?
u: Saturday in Bridgend. I'll check for rust, he'll check the cup holders
== 2026-08-06 21:00
u: We bought the van!! Blue and white, and Rhys has named her Blodwen
a: Ha, Blodwen! Where's her first trip?
u: Pembrokeshire once he's finished work. St Davids, first weekend of November #camper_trip
a: Wild but beautiful in November
u: Flask of soup and two blankets, we'll be fine
== 2026-08-12 19:10
u: I'm taking a whole week off at the end of August! First in three years
u: Tomasz will run the bakery with Kieran. I'm nervous!
a: He sounds ready. A few things that might help you relax
a: Leave the supplier numbers and a what-if list (oven trouble, someone off sick), cap the special orders that week, and agree one check-in call a day #week_off_tips
u: One call a day, that'll be hard haha
a: You'll manage. Where are you going?
u: Only my sister's in Aberystwyth but it's a break!
== 2026-08-31 18:20
u: Back at work and the place is still standing! Tomasz even added a seeded loaf
a: Welcome back! How was Aberystwyth?
u: Lovely, walked the prom every day. Rang Tomasz once a day like a good girl
a: Impressive restraint
u: And Delyth's planning Christmas already. She wants me to sing the solo in O Holy Night at the carol concert! #xmas_solo
a: Two solos in one year! You've caught the bug
u: Don't tell her but I was hoping she'd ask
== 2026-09-09 06:40
u: SHE'S HERE!!! Mali Rhiannon, born at 2.10 this morning, 7lb 3oz. Not Elin after all, they changed their minds at the last minute! #baby_born
a: Congratulations, Nana Gwen! Mali is beautiful. How are they both?
u: Both well, Carys exhausted but glowing
a: Have you held her yet?
u: Going in at visiting time. Tomasz is opening up for me, bless him
== 2026-09-18 20:10
u: Nana duty every afternoon this week, shattered but so happy
a: How are Carys and Mali doing?
u: Mali's feeding well, Carys is worn out. I take them soup and a loaf every day
a: Exactly the help new parents need
u: Rhys can't wait to be a full-time grandad
u: He sits in Blodwen on the drive with a cup of tea haha
== 2026-09-29 21:00
u: Tomasz asked for a raise today. Fair enough, he's been running the place half the time
a: How much is he asking for?
u: £14 an hour instead of the £12.75. I said yes, he's worth every penny #tomasz_raise
a: That's fair, and it'll help keep him
u: Loan's fine, the oven's a dream, and Mali smiled at me yesterday. Wind, Carys says. I say smile!
a: Definitely a smile
u: Christmas rehearsals start Thursday. Lip trills at the ready!
""", [
    ("How much am I actually borrowing from the bank for the oven?", ["loan_9000"],
     "update", ["loan_apply"]),
    ("When is Rhys leaving work now?", ["rhys_retire_oct"], "update", ["rhys_retire_june"]),
    ("What's my blood sugar test number at the moment?", ["hba1c_39"], "update",
     ["hba1c_44"]),
    ("what am I paying Tomasz per hour these days", ["tomasz_raise"], "update", ["ad_wage"]),
    ("Where did the replacement oven come from, and what do I pay back each month?",
     ["refurb_quote", "loan_repay"], "multi_hop", []),
    ("How many days before her due date did my granddaughter arrive?",
     ["carys_due", "baby_born"], "multi_hop", []),
    ("When did Bethan tell me she was going?", ["bethan_notice"], "temporal", []),
    ("when was the new oven put in", ["oven_installed"], "temporal", []),
    ("When did we find out Carys was having a girl?", ["girl_news", "its_a_girl"], "temporal", []),
    ("What happened to the bara brith the day the oven went wrong?", ["bara_brith"],
     "lexical", []),
    ("how much did Rhys say the VW cost", ["campervan"], "lexical", []),
    ("What's Mali's middle name?", ["baby_born"], "lexical", []),
    ("What does Kieran do for me?", ["kieran_saturday"], "lexical", []),
    ("where in Pembrokeshire are we taking the van, and when", ["camper_trip"],
     "lexical", []),
    ("What did you tell me to do before paying for the first oven I was quoted?",
     ["oven_advice"], "paraphrase", []),
    ("what were your first tips after the nurse told me about my blood sugar",
     ["prediab_tips"], "paraphrase", []),
    ("What did you say I should ask the bank before signing?", ["bank_questions"],
     "paraphrase", []),
    ("what did you suggest I eat first thing instead of toast", ["oats_recipe"],
     "paraphrase", []),
    ("What should I have checked before buying a used oven, according to you?",
     ["refurb_check", "refurb_gas"], "paraphrase", []),
    ("how did you say to get my voice ready after it broke on the top note",
     ["vocal_warmup"], "paraphrase", []),
    ("How did you suggest I pick between the people I interviewed?",
     ["trial_shift_advice"], "paraphrase", []),
    ("what did you suggest making at the weekend for my lunches", ["lentil_soup"],
     "paraphrase", []),
    ("What did you tell me to do when my throat went funny just before the concert?",
     ["scratchy_throat", "throat_honey"], "paraphrase", []),
    ("how did you say to handle the shaking when I stand up to sing on my own",
     ["stage_nerves"], "paraphrase", []),
    ("What did you say I should sort out before going away for a week?",
     ["week_off_tips"], "paraphrase", []),
    ("what did the repair man say was wrong with the old oven", ["oven_dead"],
     "paraphrase", []),
    ("Why is Bethan leaving?", ["bethan_reason"], "paraphrase", []),
    ("how did we say goodbye to Bethan", ["bethan_lastday"], "paraphrase", []),
    ("what was I making for the little one back in the spring?",
     ["knit_cardigan"], "paraphrase", []),
    ("How did my solo go in the end?", ["concert_done"], "paraphrase", []),
])


conv("en", "le05", "u_tom", "Tom", """
== 2026-02-16 19:40
u: Good evening. My daughter set this up for me.
a: Good evening, Tom. I'm glad she did. How are your evenings?
u: Quiet. My wife Margaret died last March, and the house feels very big. #wife_margaret
a: I'm so sorry. That's still very recent. What was she like?
u: She was the organised one. Forty-one years married, and she ran everything except the bus. #married_41
a: The bus?
u: Thirty-four years driving buses in Glasgow.
u: Fiona says the house in Shawlands is too much for one man. #house_shawlands
a: No rush to decide. Many people wait out the first year.
== 2026-02-18 20:05
u: I had beans on toast again tonight. The fourth time this week.
a: Cooking for one can feel pointless. Did Margaret cook?
u: All of it. I can boil an egg and make toast.
a: Then shall we try one simple dish a week?
u: Yes please. Nothing that leaves a mountain of dishes.
a: Try a lentil and bacon soup: fry an onion, a carrot and two rashers of bacon, add a cup of red lentils and a litre of stock, simmer 25 minutes. Four bowls, freeze three. #lentil_soup
u: I can manage that. Margaret made one like it on Sundays.
== 2026-02-21 11:20
u: I made the soup. Not quite hers, but good. #soup_made
a: Well done, Tom. That's a real start.
u: My neighbour Irene says I should get a dog. #irene_dog
u: She walks hers past my window every morning.
a: A dog can give the day some shape. Have you had one before?
u: A collie, when the children were small.
u: But not a puppy. I am sixty-six and my knees know it.
a: Then a retired racing greyhound might suit you. They're calm indoors, sleep most of the day, and rescues always need homes for them. #greyhound_idea
== 2026-02-24 19:15
u: The optician says I have a cataract in my right eye. #cataract_found
a: That's very common. Is it bothering you?
u: Headlights at night are the worst. Every one has a halo.
a: Classic cataract glare. Best not to drive at night.
u: I gave up the car last autumn. I take the bus.
u: I still watch how the drivers take the corners.
a: Old habits.
== 2026-02-27 18:30
u: My right eye operation is on the 26th of March. #right_eye_date
a: That's quicker than many people wait. How do you feel?
u: Nervous. I do not like being awake for it.
a: Most people find it much easier than they feared. Numbing drops, you just see light and colours, and it's over in about twenty minutes. #surgery_reassure
u: Fiona will take me and bring me home.
== 2026-03-02 20:10
u: The fourteenth of March is getting close. That is the day Margaret died. #anniversary_date
a: The run-up is often the hardest part. How are you sleeping?
u: Badly. I keep thinking about how the day should go.
a: Some people plan something quiet: a visit to a place you shared, a meal she liked, an hour with people who knew her. Others keep it very simple. There's no right way. #anniv_ideas
u: We walked in the Botanic Gardens every spring.
u: She loved the Kibble Palace.
a: That sounds gentle. Alone, or with family?
u: Fiona wants to come. Graham cannot, he lives in Calgary.
== 2026-03-05 19:45
u: Graham phoned. His son Callum is getting married in Canada. #callum_wedding
a: Lovely news! Where will it be?
u: In Canmore, near Calgary, on the 8th of August. The bride is Nadia. #wedding_canmore
a: That will be beautiful. Are you thinking of going?
u: I would like to. I have never flown further than Tenerife.
a: Doable, in steps: passport, flights, insurance, clothes.
u: My passport runs out in May. I will apply this week. #passport_may
== 2026-03-09 11:00
u: Irene took me to a greyhound rescue near Kilmarnock.
a: How did it go? Did any dog catch your eye?
u: A black one called Jet. Four years old, retired from racing. #jet_meet
u: He leaned against my leg the whole time.
a: The lean is a greyhound thing. It's how they show trust.
u: They will visit the house first.
u: My back fence is only four feet high.
a: Greyhounds can clear a low fence if they spot something to chase. Aim for five or six feet, or fix a trellis on top of what you have. #fence_advice
== 2026-03-14 21:30
u: It has been a year today.
a: I've been thinking of you, Tom. How did it go?
u: Fiona and I walked round the Botanic Gardens and sat in the Kibble Palace. #anniv_day
u: Then fish and chips in the car, the way Margaret and I used to at Largs. #anniv_chips
a: What a lovely way to remember her.
u: Lighter in the afternoon. Heavier now that I am home.
a: Evenings often are. Be gentle with yourself tonight.
== 2026-03-18 18:50
u: The home visit went well. Jet comes home on Saturday. #jet_date
a: Wonderful news. Is everything ready for him?
u: I have a bed, two bowls and a lead.
a: He'll need a coat too. Greyhounds have almost no body fat.
u: And a muzzle for the first weeks.
== 2026-03-22 10:15
u: Jet has been home one day. He follows me from room to room. #jet_home
a: Welcome home, Jet! He's working out that you're his person.
u: How much walking does he need?
a: Start with two short walks of about twenty minutes, morning and late afternoon. Greyhounds are sprinters, they don't need long hikes. #walk_plan_first
u: Queens Park is close. We will go at eight and at four. #walk_times_first
== 2026-03-27 17:40
u: The operation was yesterday. Mostly light and colour, as you said. #right_eye_done
a: I'm so glad. How is the eye today?
u: A bit gritty, but the kitchen walls are white now, not yellow.
a: The old lens was tinting everything.
u: Drops four times a day for four weeks. I forget the lunchtime one. #drops_schedule
a: Tie each dose to something you already do, and keep the bottle right next to Jet's lead. You walk him at fixed times, so you'll see it. #drops_tip
u: Good idea. I never forget Jet.
== 2026-04-01 19:20
u: Jet stole a whole packet of sausages off the worktop. #jet_steals
a: Counter-surfing is common in ex-racers. Did he eat them?
u: All eight, raw. He seems fine. #sausages_eight
a: Watch for sickness. For the habit: keep the worktops completely clear for a few weeks so there's nothing to win, and reward him for staying on his bed while you cook. #counter_surf_tip
u: Margaret would have laughed. She always said I left food out.
== 2026-04-06 12:30
u: Fiona says I should eat more fish.
a: A salmon traybake is easy for one. Halve a few new potatoes and roast them 15 minutes, then add the fillet, cherry tomatoes and green beans for another 15 at 200 degrees. #salmon_traybake
u: Potatoes first. I would not have known that.
a: They take longer, so they get a head start.
u: I am keeping these in a notebook now.
a: Maybe one day it can sit next to Margaret's recipe book.
== 2026-04-10 20:00
u: An estate agent valued the house today. About 245,000 pounds. #valuation_245
a: How did it feel, hearing a number?
u: He walked round Margaret's garden like a car park.
a: A valuation commits you to nothing.
u: Fiona thinks I should buy a two-bedroom flat near her in Paisley. #fiona_paisley
u: I do not know myself. Every room here has forty years in it.
a: Then take your time. There's no deadline.
== 2026-04-15 18:40
u: Graham sent me flights to Calgary, changing in Amsterdam.
a: August fares climb from spring, so don't leave it too long.
u: About nine hundred pounds return.
u: He wants me there a week early, on the 1st of August.
a: Allow at least ninety minutes to change in Amsterdam.
== 2026-04-20 19:10
u: My new passport came this morning. Six weeks in all. #passport_came
a: One job off the list.
u: Jet saw the vet today. His teeth need cleaning.
a: Common with ex-racers. Did they book it in?
u: The 5th of May, under anaesthetic. #teeth_date
u: I have written it in my notebook.
== 2026-04-24 20:20
u: I finished the eye drops today.
a: Well done. Is there a follow-up?
u: Next week. They will look at the left eye too.
u: The left one is like a net curtain now.
a: Then you're ready for the second one.
== 2026-04-30 18:15
u: The left eye is booked for the 11th of June. #left_eye_date
a: Good, healed well before Canada.
u: I booked the flights tonight. 920 pounds, via Amsterdam. #flights_booked
u: Graham will meet me at Calgary.
a: That makes it real! What about travel insurance?
u: Fiona is sorting it. I must declare both eye operations.
== 2026-05-06 19:30
u: Jet came back from the vet yesterday, two teeth lighter. #teeth_done
a: Poor Jet. Is he eating?
u: Soft food for a few days. I soaked his kibble in warm water.
a: Exactly right.
u: He still tried to reach the butter on the table.
a: That habit doesn't take days off. How is it otherwise?
u: Better. He lies on his bed while I cook. Most days.
== 2026-05-10 17:00
u: Graham has asked me to say a few words at the wedding dinner. #speech_asked
a: What an honour! How do you feel?
u: Terrified. I talked to passengers, not crowds.
a: Keep it to three or four minutes. Say who you are, tell one story about Callum, a kind word about Nadia, and finish with a toast. #speech_structure
u: At six he rode my bus all day and rang the bell at every stop. #bus_story
a: Perfect. Everyone will picture it.
== 2026-05-15 20:40
u: I found Margaret's reading glasses in my winter coat today. #glasses_found
a: I'm sorry, Tom. Small things like that catch you off guard.
u: I sat in the car outside Morrisons for twenty minutes. #morrisons
a: That's grief, not weakness. Is there someone to talk to?
u: The minister mentioned a bereavement group on Thursday mornings. #group_thursday
a: Worth going once to see. You needn't speak the first time. #group_advice
== 2026-05-21 19:00
u: I went to the bereavement group this morning. Eight of us. #group_first
a: How did it feel?
u: I said little at the group, but a widower called Alec had tea with me after. #alec
a: A good start. Alec may understand things others can't.
u: He has a spaniel. We may walk the dogs together.
== 2026-05-26 18:30
u: Fiona came for dinner. I made chicken and chorizo with rice.
a: Did she like it?
u: Two helpings.
a: The best review there is. Want something new to try?
u: Something for warmer evenings. Not soup.
a: A frittata: fry leftover potatoes and an onion, pour in three beaten eggs with cheese and ham or peas, then finish under the grill. Good cold the next day too. #frittata
u: I think I have all of that in.
== 2026-06-01 19:50
u: It has been warm and Jet struggles on the afternoon walk.
a: Greyhounds overheat easily. Move the walks to the cool ends of the day. #heat_advice
u: Alec goes at half six in the morning. We will join him, and go again at eight at night. #walk_times_new
u: Also, the hospital phoned. The left eye is moved to the 18th of June. #left_eye_moved
a: A week later still leaves plenty of time before your flight.
== 2026-06-06 20:15
u: I have been thinking about the house again.
a: What brought it back?
u: A second agent came. She said 260,000 if I redo the kitchen. #valuation_260
u: If I am honest, I am leaning towards selling in the autumn. #leaning_sell
a: That's a big step. What's pulling you that way?
u: I saw a flat in Paisley on Tuesday. Nice, but no garden at all. #flat_no_garden
a: With Jet, a garden matters more than it did a year ago.
u: That is exactly what I thought, standing in the car park.
== 2026-06-12 18:40
u: What does one wear to a Canadian wedding?
a: A well-fitting navy suit works almost anywhere.
u: My only suit is the funeral one. I will not wear it.
a: Understandable. A happy day deserves something new.
u: Next week I will buy a navy suit on Sauchiehall Street. #suit_navy
== 2026-06-20 16:10
u: The left eye was done on Thursday. Quicker than the first. #left_eye_done
a: Great news. How are you seeing?
u: Both eyes match. I read the paper without glasses today.
u: Same drops, but only three weeks this time.
a: Then the same reminder system should work.
u: Alec is walking Jet this week, until I may bend down. #alec_walks_jet
== 2026-06-25 19:30
u: I practised the speech on Jet. He fell asleep.
a: That just means he's a greyhound. How long is it?
u: Four and a half minutes. I talk slowly.
a: Slow is good. Cut a line rather than speed up.
u: I want to mention Margaret, but not cry.
a: Raise a glass to absent friends and say her name. It's short, everyone will understand, and it's fine if your voice wobbles. #speech_margaret
u: Absent friends. She would like that.
== 2026-07-01 20:00
u: Change of plan. Graham says all the men are wearing kilts. #kilt_plan
a: How lovely. Do you have a family tartan?
u: MacLeod, on my mother's side. I have hired the full kilt outfit from a shop in town. #kilt_hired
a: A MacLeod kilt in the Rockies. You'll be in a lot of photos.
u: I never did buy the navy suit. Just as well.
== 2026-07-03 21:00
u: Partick Thistle's new fixtures are out. I will miss the first home game.
a: For a grandson's wedding, surely that's forgivable.
u: Margaret used to say the Jags were my other family.
a: Did she ever come to a match?
u: Once, in 1989. She brought a book.
== 2026-07-06 19:15
u: I have made a decision about the house.
a: I'm listening.
u: I am staying, for another year at least. Jet needs the garden. #house_stay
a: That sounds thought through. How did Fiona take it?
u: Well. She said her mum would have said the same.
u: I may do up the back bedroom for Callum and Nadia.
a: A lovely idea. They'd feel very welcome.
== 2026-07-12 18:45
u: Jet saw the vet again. A corn on his front left paw. #jet_corn
a: Corns are very common in greyhounds. What did the vet suggest?
u: A softening cream, and grass instead of pavement wherever we can. #corn_treatment
a: Queens Park has plenty of grass, so that's manageable.
u: Alec found a grass path round the pond. We go that way now.
a: Softer on his paws, and a nice view for you.
== 2026-07-18 19:40
u: Who will look after Jet while I am in Canada?
a: Kennels, a sitter or friends. Some rescues board dogs too.
u: Irene and Alec have offered to share him. Irene in the mornings, Alec in the evenings, and he sleeps at Irene's. #jet_sitters
a: Ideal, he knows them both. Write down his food amounts, the paw cream and the vet's number for them. #jet_notes
u: And that the butter must never be left on the table.
a: Top of the list.
== 2026-07-26 20:30
u: Packed a week early. Margaret always packed at the last minute.
a: Organised to the end. How are you feeling?
u: Case packed, speech in my jacket, passport in the drawer.
u: Nervous, but good. A year ago I could not have imagined this.
a: You've done a lot this year, Tom. A dog, two new eyes, a kitchen you can use, and now the Atlantic.
u: Thank you. You have been good company on the quiet evenings.
a: It's been a pleasure. Safe travels, and give Callum my best.
""", [
    ("What did you tell me to make when I was living on beans on toast?",
     ["lentil_soup"], "paraphrase", []),
    ("How long did the fish dinner you described need in the oven?",
     ["salmon_traybake"], "paraphrase", []),
    ("What was the egg dish you suggested once the weather got warmer?",
     ["frittata"], "paraphrase", []),
    ("What did you advise to break Jet of pinching food in the kitchen?",
     ["counter_surf_tip"], "paraphrase", []),
    ("What trick did you give me for remembering my eye medicine?",
     ["drops_tip"], "paraphrase", []),
    ("What did you suggest I might do to mark a year since Margaret passed?",
     ["anniv_ideas"], "paraphrase", []),
    ("How high did you say the back garden boundary should be before the dog came?",
     ["fence_advice"], "paraphrase", []),
    ("What outline did you give me for my few words at my grandson's wedding dinner?",
     ["speech_structure"], "paraphrase", []),
    ("How did you suggest I bring my wife into the end of my toast?",
     ["speech_margaret"], "paraphrase", []),
    ("What did you say I should leave for the people minding the dog while I travel?",
     ["jet_notes"], "paraphrase", []),
    ("How many years were Margaret and I husband and wife?",
     ["married_41"], "paraphrase", []),
    ("What did Fiona and I eat on the anniversary?",
     ["anniv_chips"], "paraphrase", []),
    ("What did the vet find wrong with Jet's foot in the summer?",
     ["jet_corn"], "paraphrase", []),
    ("What belonging of my wife's did I come across that upset me so much?",
     ["glasses_found"], "paraphrase", []),
    ("Which memory of Callum am I using in my wedding talk?",
     ["bus_story"], "paraphrase", []),
    ("What put me off the flat I viewed near Fiona?",
     ["flat_no_garden"], "paraphrase", []),
    ("How many sausages did Jet get through?",
     ["jet_steals", "sausages_eight"], "lexical", []),
    ("How long did I sit outside Morrisons that day?",
     ["morrisons"], "lexical", []),
    ("What was I going to buy on Sauchiehall Street?",
     ["suit_navy"], "lexical", []),
    ("What is the date of the wedding in Canmore?",
     ["wedding_canmore"], "lexical", []),
    ("Who was with me in the Kibble Palace on the anniversary?",
     ["anniv_day"], "lexical", []),
    ("When did Jet have his teeth seen to?",
     ["teeth_date", "teeth_done"], "temporal", []),
    ("When was the operation on my first eye?",
     ["right_eye_date", "right_eye_done"], "temporal", []),
    ("What day did I first go along to the grief support meeting?",
     ["group_first"], "temporal", []),
    ("What times do Jet and I go out these days?",
     ["walk_times_new"], "update", ["walk_times_first", "walk_plan_first"]),
    ("What am I wearing for Callum's wedding?",
     ["kilt_hired", "kilt_plan"], "update", ["suit_navy"]),
    ("What date did the second cataract operation end up on?",
     ["left_eye_moved", "left_eye_done"], "update", ["left_eye_date"]),
    ("Am I going to sell the house or not?",
     ["house_stay"], "update", ["leaning_sell"]),
    ("Of the two people minding Jet while I am in Canada, which one did I meet at the grief group?",
     ["jet_sitters", "alec"], "multi_hop", []),
    ("Who first told me to get a dog, and what kind did you recommend?",
     ["irene_dog", "greyhound_idea"], "multi_hop", []),
])


conv("en", "le06", "u_aisha", "Aisha", """
== 2026-05-04 21:40
u: my manager gareth just tore my PR apart in the team channel. 14 comments. in PUBLIC 😭
a: Oof, that stings, especially with everyone watching. Were the comments fair on the code itself, or was it more how he said it?
u: some were fair tbh. but the tone 🙄
u: i'm 3 months into my first dev job, everyone saw
a: Fix the fair points quickly and thank him for those. Then in your next 1:1, calmly ask if bigger feedback could come by DM or a quick call first #pr_public_advice
u: ok. less scary than what i was gonna type lol
a: Sleep on it before typing anything. Nothing good gets sent at 10pm while you're angry
== 2026-05-06 22:10
u: boiler's broken AGAIN. cold shower number 3 this week 🥶
a: That's miserable. Is this the house share?
u: yeah fallowfield, 4 of us in a terrace off wilmslow rd #live_old
u: landlord is this guy mr doyle who never picks up
a: Put the repair request in writing with the date and how long it's been broken. Heating and hot water have to be fixed in reasonable time, and a paper trail helps #repair_in_writing
u: and we each paid him a £950 deposit for this 💀 #deposit_amount
a: That's a lot for a house without hot water. Keep the deposit paperwork somewhere safe
== 2026-05-09 18:30
u: just got back from crag yard 🧗‍♀️
u: same yellow v3 for 2 weeks now, arms dead by the top
a: Getting pumped that early often means a cold start. Do 10 minutes of easy climbing on big holds, then a few problems well below your limit, and only then try the project #warmup
u: i usually just jump straight on it lol
a: Classic mistake. And rest 3 or 4 minutes between goes
== 2026-05-12 20:50
u: did the gp thing today. for the adhd
u: she was nice!! referring me through right to choose bc the nhs list here is like 2 years #gp_referral
a: Good she listened. Is focus at work the main struggle?
u: yes. i read the same ticket 6 times and then suddenly it's 4pm
a: Work in 25-minute blocks with a timer you can see, and before each break write down the very next small step, so coming back doesn't start from zero #focus_tips
a: Another thing many people with ADHD swear by is body doubling: working alongside someone, even on a silent video call, so your brain has company #body_doubling
u: omg my friend chloe does that. might steal her lol
== 2026-05-16 11:20
u: amira rang!! (big sister) she wants me as a bridesmaid 🥹
a: Aww, that's lovely! When's the wedding?
u: 12th sept. she and kieran are doing it at a barn near hathersage #wedding_venue
a: The Peak District in September, beautiful
u: never been a bridesmaid, what do i actually do
a: Usually: help with the dress and getting ready on the day, support at the hen do, and keep the bride calm. Ask Amira what she wants from you
u: she said "just be there and don't let mum take over" 😂
== 2026-05-19 21:15
u: ok new goal. japan next april 🌸🇯🇵
a: Cherry blossom season! Any idea what you'd need?
u: like £3k for 2 weeks? flights are the big one
u: i'm on 27k so there's not loads left after rent lol #salary_old
a: How much could you put aside each month?
u: £200 probably. more if i stop buying iced lattes 🙃 #save_200
a: Open a separate pot just for Japan and set a standing order for payday, so the money moves before you can spend it #savings_pot
== 2026-05-22 19:40
u: had my 1:1 with gareth
u: he said i "ask too many questions" and should "figure things out more" #gareth_questions
a: How did that land with you?
u: kinda crushed ngl. isn't asking the point of being junior
a: It is. A middle way: try alone for about 20 minutes, note what you tried, then ask. Save non-urgent questions and ask them together once or twice a day #question_log
u: so like a list
a: Exactly. It also shows him what you solve alone
== 2026-05-27 21:00
u: found MOULD behind my wardrobe 🤢
a: Oh no. Have you told Doyle?
u: he said "open a window" lol
a: That's not a fix. Do you even want to stay?
u: we all want out tbh. contract ends 30 june so we're giving notice #leave_notice
a: Right call. A damp house isn't worth another year
u: jess and sam are moving home so i need a new place 😩
u: maybe with chloe? her lease ends in the summer
== 2026-05-30 17:45
u: SENT THE YELLOW V3 🎉🎉
a: Yesss! After two weeks on it! What made the difference?
u: did your warm up thing and rested properly lol
a: That's what being fresh does. What's next?
u: a pink v3 on the overhang, everyone says it's soft
== 2026-06-03 22:30
u: adhd clinic sent 3 forms 😵 one's for a parent to fill in
a: How do you feel about asking your mum?
u: already did. she said i lost a shoe basically every week and teachers wrote "bright but away with the fairies" on every report #mum_childhood
a: Those are exactly the details assessors look for. Ask her to write them in her own words
u: she's writing an essay lol she's so into it
a: Sweet. Do your forms one section a night
== 2026-06-07 14:10
u: bridesmaid dress fitting today 👗
a: How did it go? What colour did Amira pick?
u: sage green, floaty. £120 and we pay ourselves 🙃 #dress
u: also my cousin leila is planning the hen, she wants a whole weekend away in august #leila_organiser
a: Where's she thinking?
u: edinburgh. 2 nights #hen_edinburgh
a: And per person?
u: £380 😭 before drinks
a: Say it early, before anything's booked. Message Leila privately: you really want to come but it's too much right now. Ask if there's a cheaper option or you could do one night #hen_money_talk
== 2026-06-10 20:20
u: viewing a flat with chloe tmrw!! 2 bed in levenshulme, £1220 so 610 each #viewing_levenshulme
a: Exciting! Want a list of things to check?
u: yes pls, last time i just said yes to everything
a: Run the shower to check heat and pressure, look behind furniture for damp, and ask about average bills, which deposit scheme they use and how fast repairs get done #viewing_questions
u: looking behind furniture 😂 lesson learned
a: Exactly. And check your phone signal in both bedrooms #viewing_signal
== 2026-06-14 16:00
u: 2 weeks in japan, where do i even go 🙈
a: For a first trip: 5 nights in Tokyo with a day trip to Kamakura, 5 in Kyoto with a day in Nara, then 2 nights in Osaka for the food #itinerary
u: osaka for food yes 🍜
u: is the JR pass worth it? everyone online argues about it
a: Since the JR Pass price went up, it often isn't for a route like that. A single Tokyo–Kyoto bullet train ticket plus local fares usually comes out cheaper #jr_pass
a: For local trains get an IC card like Suica, it even works in convenience stores
== 2026-06-18 19:10
u: worst standup of my life
u: the payments page broke in prod last night and gareth said in front of everyone "that was aisha's change" #prod_blame
u: it was NOT my change. my PR wasn't even merged, the git history literally shows it
a: That's really unfair. Reply in writing, calm and factual: a short message to Gareth with the link showing your change wasn't deployed. And keep a private note of these moments with dates #prod_bug_advice
u: should i go to someone above him
a: If it keeps happening, yes. Who's his manager?
u: sunita, head of engineering. she's actually nice
a: Then ask her for a chat about how you're finding things, and whether there's room to grow in another team #sunita_idea
== 2026-06-21 12:30
u: WE GOT THE FLAT 🎉🎉🎉
a: Amazing!! The one you saw with Chloe?
u: yesss keys on 1 july
a: Congrats! Have you given Doyle notice in writing?
u: yep emailed last week
== 2026-06-24 21:45
u: ADHD ASSESSMENT BOOKED 😭 early july, on video
a: That was quick! How are you feeling?
u: scared they'll say i'm just lazy tbh
a: That fear is really common. It's not a test you can fail, they want honest examples from your life
u: should i prepare anything
a: Bring your mum's notes and a list of real examples: missed deadlines, that ticket you read six times, lost keys. It's easy to go blank on a call #assessment_prep
== 2026-06-28 15:20
u: deep cleaning before i move out 🧽
a: Before you hand the keys back, film a slow video of every room and photograph walls, carpet and oven with the date visible #moveout_photos
u: we got an inventory when we moved in, jess has it somewhere
a: Get a copy of it. Together with the video, it's your best evidence if Doyle tries to keep money #moveout_inventory
u: found 3 forks and a hair straightener behind the radiator 😂
== 2026-07-01 22:00
u: first night in the levenshulme flat 🥹 #live_new
u: sitting on the floor eating pizza bc we have no sofa yet
a: Best first meal in a new home. How does it feel?
u: perfect. the shower is HOT. no mould 🙏
a: The bar was low, but it's been cleared. Take the meter readings today if you haven't
== 2026-07-03 18:30
u: had the assessment
u: it's official. adhd, combined type #diagnosis_day
a: Aisha, how are you feeling about it?
u: weirdly relieved?? and kinda sad for kid me
a: Both make sense. Relief that it has a name, and grief for the years you blamed yourself
u: the psychiatrist said we can try meds, a nurse will call to start it #meds_plan
a: Good next step. Write down what you want to ask the nurse, it's easy to forget on the phone
== 2026-07-08 20:40
u: doyle's email just came in 😤
u: he's keeping £400 of my deposit. £250 for "professional carpet cleaning" and £150 repainting for "marks on walls" #landlord_deductions
a: Don't agree to anything yet. Do you have your move-out video and the inventory?
u: yesss both. inventory literally says "minor marks" on my walls
a: Then say you don't accept and ask for invoices. If he won't budge, open a free dispute with the DPS. Blu tack marks after 2 years are usually fair wear and tear, not damage #dispute_advice
u: he never cleaned that carpet once in 2 years btw
a: Mention that too. A landlord can't charge you to make things better than when you moved in
== 2026-07-12 19:00
u: guess who sent her first v4 today 🧗‍♀️🔥 #first_v4
a: No way! Which one?
u: the blue one on the slab. balancey, no crimps, my kind of climb
a: Slab takes patience, that suits you
u: ngl i screamed a bit at the top
a: The whole wall deserved to know
== 2026-07-16 08:05
u: first day on the meds 💊
u: elvanse 30mg. nurse said we'll adjust it over a few weeks #dose_30
a: Exciting! Have you taken it yet?
u: just did
a: Good, mornings are best, a late dose can keep you up at night. Eat a breakfast with some protein before or with it, it can kill your appetite by lunch #meds_morning
u: eggs on toast it is 🍳
== 2026-07-21 21:30
u: HEN UPDATE
u: leila listened!! it's moving to liverpool, 15-16 aug, £220 each now #hen_liverpool
a: So much better! Did you message her like we said?
u: yeah and 3 others couldn't afford edinburgh either 😅
a: So you did everyone a favour by saying it
== 2026-07-25 13:00
u: so i did the sunita chat on thursday
a: How did it go?
u: she said yes!! i'm moving to the platform team under nadia from 3 aug #team_move
a: Aisha, that's brilliant! A fresh start with a new manager
u: gareth's face when sunita told the team 😶
a: Stay polite with him, you'll still bump into him
== 2026-07-30 20:15
u: meds update
u: the 30 is great in the morning but by 2pm it's gone and i crash hard #dose_wears_off
a: That afternoon drop-off is something the nurse can adjust. Have you told her?
u: yeah today. she's bumping me up to 50 from monday #dose_50
a: Good. Keep tracking sleep, appetite and mood so the next check-in has real data
== 2026-08-05 19:30
u: first few days on the new team!!
u: my new manager literally asked "what do you need from me" and i almost cried
a: What a difference! What's the team like?
u: small, 5 of us. we look after the CI pipelines and the internal tools the other devs use #new_team_work
a: Great place to learn how everything fits together
u: paired on a deploy script today and didn't feel stupid once
== 2026-08-09 21:10
u: i think i broke my finger 😭
a: Oh no! What happened?
u: crimpy v4 at crag yard, heard a pop in my ring finger. left hand. it's already swollen #finger_injury
a: Stop climbing for now. Ice it 10 minutes a few times a day, keep it raised, don't test it. If it's still swollen in a few days, see a physio who knows climbers #finger_rest
u: NOOO i was on a roll
a: I know. A couple of weeks off now beats months off later
== 2026-08-17 12:40
u: back from the hen 🥴
a: How was it?! Did Amira have fun?
u: she LOVED it. best moment: amira did bohemian rhapsody at karaoke and a whole other hen party joined in on the high notes #hen_story
u: also leila made us wear sashes with kieran's face on 💀
a: Iconic. Did you stay on budget?
u: mostly lol. 2 cocktails over
== 2026-08-21 18:00
u: physio today for the finger
a: What did they say?
u: mild A2 pulley strain. no climbing 2 more weeks, then H-tape it and only big holds for a month #physio_htape
a: Mild is good news. Anything to do meanwhile?
u: putty exercises
a: Do the putty every day, that's what rebuilds it. And skip crimpy problems until it's fully pain-free
== 2026-08-27 21:20
u: doyle still won't budge on the £400
u: so i opened a dispute with DPS today. uploaded the video, inventory, everything #dispute_filed
a: Good, you did it properly. The adjudicator goes on evidence, and it usually takes a few weeks
u: anyway japan pot just hit £800 ✨
a: Four paydays in a row, well done
== 2026-09-03 20:00
u: ok the 50 was too much
u: not eating till dinner and my heart was racing in meetings
a: That sounds horrible. Did you tell the nurse?
u: yes, she's bringing me down to 40. apparently landing in the middle is common #dose_40
a: Sensible. Keep up the protein breakfast too
u: ok mum 😂
== 2026-09-09 21:30
u: wedding is SATURDAY 😱
u: amira asked me to do a reading in the ceremony 😬
a: That's an honour! What are you reading?
u: a short poem, like 12 lines. but my voice shakes when i'm nervous
a: Read it aloud every day until then, a few times to a real person. On the day, feet flat, paper in both hands, one slow breath before the first line #reading_tips
u: chloe is being my practice audience tonight
== 2026-09-14 19:45
u: wedding recap incoming
u: it was PERFECT. didn't even rain!! i cried in my reading 🥲
a: That sounds beautiful! How did Amira react?
u: she cried first so it was fine lol. kieran's dad danced to every single song
a: Every good wedding has one of those dads
u: also my review with nadia is thursday. she said "come with a number" 😳
a: Then bring one. List what you've shipped since joining, like the deploy script, and check what juniors earn in Manchester. Say your number clearly, then stop talking #pay_prep
== 2026-09-24 18:20
u: PAY RISE 💸
u: nadia got it approved, i'm going up to 31k from october #salary_new
a: Aisha! That's a big jump. Was that your number?
u: i asked for 32, she came back with 31. i'll take it
a: Great outcome, and it shows you did the homework
u: so the japan pot goes up to £350 a month now 🇯🇵 #save_350
a: At that rate you'll have the full £3k before spring
== 2026-10-02 20:10
u: DPS DECIDED 🚨
u: adjudicator said the carpet was just old and the walls were fair wear and tear
u: i get £820 back!!! doyle only keeps a bit for a door scratch that was kinda my fault tbh #deposit_result
a: Yes! The video and the inventory paid off
u: celebrating with a thai takeaway with chloe 🥡
== 2026-10-10 17:30
u: back at crag yard!! first proper session since the finger
a: How did it feel?
u: taped it like the physio said. easy v2s and a v3, no pain 🙏
a: Perfect comeback. Nothing crimpy for a few more weeks
u: also booked flights for japan!! 2 april, manchester to tokyo via helsinki ✈️ #flights_booked
a: Aisha!! It's actually happening
u: 6 months to go. cherry blossom here i come 🌸
""", [
    ("which area of manchester do i live in now", ["live_new"], "update", ["live_old"]),
    ("what dose am i on for my adhd meds at the moment", ["dose_40"], "update",
     ["dose_30", "dose_wears_off", "dose_50"]),
    ("how much am i earning now", ["salary_new"], "update", ["salary_old"]),
    ("where did my sister's hen weekend end up being", ["hen_liverpool"], "update",
     ["hen_edinburgh"]),
    ("when did i find out i have adhd", ["diagnosis_day"], "temporal", []),
    ("when did i get my first ever v4", ["first_v4"], "temporal", []),
    ("what day did i hurt my hand bouldering", ["finger_injury"], "temporal", []),
    ("what did gareth tell me in that 1:1", ["gareth_questions"], "lexical", []),
    ("remind me what the physio said, the H-tape stuff", ["physio_htape"], "lexical", []),
    ("is a JR pass worth it for my trip", ["jr_pass"], "lexical", []),
    ("what did you say about blu tack on the walls, can he charge for that", ["dispute_advice"], "lexical", []),
    ("what was body doubling again", ["body_doubling"], "lexical", []),
    ("so how much of my deposit did the old landlord get to keep in the end",
     ["deposit_amount", "deposit_result"], "multi_hop", []),
    ("who's my manager since i switched teams and what does that team actually do",
     ["team_move", "new_team_work"], "multi_hop", []),
    ("what did you say to do when my manager left loads of harsh review comments where everyone could see",
     ["pr_public_advice"], "paraphrase", []),
    ("how did you tell me to get ready before trying my hardest problem at the wall",
     ["warmup"], "paraphrase", []),
    ("how did you say i should answer gareth when he pinned the outage on me",
     ["prod_bug_advice"], "paraphrase", []),
    ("what did my mum remember about me as a kid", ["mum_childhood"], "paraphrase", []),
    ("what did i say about my outfit for amira's wedding", ["dress"], "paraphrase", []),
    ("how did you suggest i tell my cousin the hen was too pricey for me",
     ["hen_money_talk"], "paraphrase", []),
    ("what did you tell me to look out for when we went to see the new place",
     ["viewing_questions", "viewing_signal"], "paraphrase", []),
    ("which cities did you suggest for my two weeks in japan", ["itinerary"],
     "paraphrase", []),
    ("how did you say i should protect myself when leaving the old house",
     ["moveout_photos", "moveout_inventory"], "paraphrase", []),
    ("what was doyle trying to charge me for", ["landlord_deductions"], "paraphrase", []),
    ("what did you say about what time of day to take my adhd tablets",
     ["meds_morning"], "paraphrase", []),
    ("what did you tell me to do straight after i hurt my hand climbing", ["finger_rest"],
     "paraphrase", []),
    ("how did you suggest i put money aside for the trip", ["savings_pot"], "paraphrase", []),
    ("what was the highlight of the hen do", ["hen_story"], "paraphrase", []),
    ("how did you tell me to keep my voice steady for the poem at the ceremony",
     ["reading_tips"], "paraphrase", []),
    ("how did you help me prepare for asking nadia for more money", ["pay_prep"],
     "paraphrase", []),
])


conv("en", "le07", "u_nkechi", "Nkechi", """
== 2026-09-03 21:40
u: evening. dispensary was two techs down again, so I was the techs
u: also, IVF consultation this afternoon. we start injections with my next cycle, end of the month probably #ivf_start
a: Big step. How are you and Femi feeling?
u: he's calm. I read drug leaflets for a living, so I'm a wreck
u: and I've entered a triathlon. the Dorney Lake sprint in May. 750m swim, 20k bike, 5k run #tri_signup
a: All in this autumn, then! Which bit scares you?
u: the swim. I can do two lengths of front crawl and then I'm basically drowning #swim_2lengths
a: Very common for adults. A block of improver lessons now gives you eight months, which is plenty
== 2026-09-06 10:20
u: builder came round with the kitchen quote. £18,500, six weeks, starting the 21st #kitchen_quote
a: Does that include plumbing and electrics?
u: supposedly. his name is Gary and he calls me darling. I've decided to allow it for now
a: Before he starts: get the timetable in writing, tie each payment to a finished stage, and only a small deposit upfront. Budget 10% extra for surprises #kitchen_contract_tip
u: Gary says paperwork is for people who don't trust each other
a: That's exactly what it's for. A one-page email he replies "agreed" to is enough
== 2026-09-09 20:35
u: bad call with my brother. Mum got lost walking back from the market on Saturday
a: Oh Nkechi. Is she safe?
u: yes, a neighbour found her. Chidi took her to a neurologist in Lagos today. they're saying Alzheimer's #mum_diagnosis
a: I'm so sorry. That's a lot, from this far away
u: they've started her on donepezil, 5mg at night #donepezil_5
a: You know the drug better than I do. The thing families miss is vivid dreams; if she gets them, the morning is usually fine too
u: I do know. doesn't help when it's your own mum
a: No, it doesn't. Would a call at a fixed time help, something she can look forward to?
u: Sunday mornings. she always liked those
== 2026-09-12 08:10
u: first adult swim lesson done. humbling
a: Well done for going. What did the coach say?
u: that I hold my breath underwater like I'm hiding from something #hold_breath
a: Classic. Hum or blow bubbles out through your nose the whole time your face is in, so when you turn you only need to breathe in #exhale_tip
u: bubbles. at 38. fine
a: Everyone you'll overtake in May started with bubbles
u: the 8am class is all retired men who swim like otters
== 2026-09-16 21:15
u: the lead pharmacist post finally went up. surgery and critical care, band 8a. closes 9 October #job_advert
a: The one you've been waiting for! Applying?
u: obviously. my manager Helen sent me the link twice
a: Good sign. Go through the person spec line by line and give one real example for each point. Shortlisters literally tick boxes #statement_tip
u: very NHS
a: Very. Write each example as STAR: situation, task, action, result. Stops you rambling #star
u: I never ramble. I dispense
== 2026-09-21 19:50
u: baseline scan fine. stims start tomorrow, Gonal-f 225 units every evening #stims_225
a: Here we go. Do you have a plan for the injections?
u: I've counselled hundreds of patients on pens. never stuck one in myself
a: Same time every evening, pen out of the fridge half an hour before, alternate sides of your tummy each night. Ice for ten seconds first if you bruise #injection_tips
u: also Gary's start has moved to the 28th. "supplier thing" #gary_delay1
a: Has he at least replied to your email?
u: with a thumbs up. I'm counting it
== 2026-09-26 20:25
u: stims day five. I feel like an overfilled hot water bottle
a: Bloating is normal at this stage. How was the scan?
u: eight follicles growing. nurse seemed pleased #follicles8
a: That's encouraging. Plenty of fluids, something salty and some protein help with the bloating
u: second pen tomorrow. the stop-ovulating-early one
a: Two pens a night. You're basically a pharmacy now
== 2026-09-29 18:40
u: Gary has ripped out the entire kitchen. there's a hole where my life was
a: Demolition always looks apocalyptic
u: worse. rotten joists under where the sink was. another £1,200 and a week #joists
a: Annoying, but rotten joists are a real find, not a scam. Get the extra cost and time in writing before he does it #variation_writing
u: we're living off a microwave and a kettle in the living room
a: A slow cooker would stretch that a long way
u: Femi's mother would be appalled
== 2026-10-02 14:05
u: egg collection this morning. on the sofa with a hot water bottle #egg_collection
a: How are you feeling? How did it go?
u: sore. nine #egg_nine
a: Nine is a good number. When do you hear more?
u: embryologist rings tomorrow
a: Rest today. No heroics, no work emails
u: already checked them twice
== 2026-10-07 21:05
u: transfer done. one blastocyst in, three frozen. best news in weeks #transfer_frozen3
a: That's wonderful. How are you feeling?
u: like I'm carrying a very small, very expensive egg
a: In a way you are. When's the test?
u: the 18th. progesterone pessaries twice a day till then. glamorous #pessaries
a: The two weeks after transfer are the hardest. Plan one small nice thing for every evening, and ration symptom googling to zero #tww_plan
u: zero is ambitious
a: Ten minutes then. With a timer
== 2026-10-09 22:20
u: application submitted. 52 minutes before the deadline #job_submitted
a: Cutting it fine, but done! Happy with it?
u: Helen read it and said "very you". not sure that's a compliment
a: From a manager who pushed you to apply, it probably is
== 2026-10-13 19:10
u: Chidi says Mum left the gas on twice last week. he can't cover it with his job
a: That's frightening. Is he thinking about help at home?
u: a carer, yes. he wants my view because I'm "the medical one"
a: Phone the references yourselves, do a paid trial week, and write Mum's routine and the tasks on one sheet. A weekly video call with the carer and Mum keeps you in the loop #carer_advice
u: and the gas?
a: A timer cut-off valve on the cooker, or an electric hob that switches itself off. A local engineer can fit either #gas_valve
u: sent him both. also did ten lengths of front crawl tonight without stopping #swim_10lengths
a: Ten! From two in September. The bubbles are working
== 2026-10-18 09:40
u: negative. tested this morning #bfn
a: Oh Nkechi. I'm so sorry
u: I knew. I think I've known since Thursday
a: Knowing doesn't make it hurt less. Is Femi with you?
u: he's making eggs. neither of us has mentioned the irony
a: Be gentle with yourselves today
u: clinic says stop the pessaries, follow-up in a couple of weeks #stop_pessaries
== 2026-10-22 20:45
u: Gary update. new total £20,300 and finished "mid November" instead of end of October #kitchen_20300
a: Nearly £2,000 over. What else is in it?
u: the Belfast sink I wanted needs a special base unit. another £380. mentioned it today #belfast_sink
a: Ask him for an itemised list: original quote, each extra, and why. And only pay for stages that are finished #itemised
u: he says the list is "in his head"
a: Then it can come out of his head and into an email
== 2026-10-27 21:35
u: shortlisted! interview on 12 November #shortlisted
a: Brilliant! Is there a presentation?
u: ten minutes on reducing omitted doses on the wards. then the panel
a: Good topic for you. Do you have your own data?
u: loads. I audited it last year and nobody read it #omitted_audit
a: Now a panel will. Anything else this week?
u: Chidi found a carer. she started Monday
a: What's she like?
u: Blessing. 28, trained care assistant. Mum calls her "that girl", affectionately #blessing_hired
== 2026-11-01 11:10
u: follow-up with Dr Mensah. she thinks we were just unlucky, the embryo looked good #mensah_unlucky
a: Hard to hear and reassuring at once. Anything else?
u: my lining was on the thin side, 7mm. for the frozen one they'll build it up with oestrogen tablets first #lining_7mm
a: Sounds sensible. Do you know when?
u: next cycle. early December maybe
a: A few weeks to breathe, then
== 2026-11-05 20:05
u: joined the tri club's Thursday swim. coach says my legs sink like anchors #legs_sink
a: Very common. Kick from the hips not the knees, keep it small, and look at the bottom of the pool, not ahead. Your hips will come up #legs_sink_tip
u: I was looking at the clock. it felt relevant
u: also bought a road bike. second hand, £350 off a man in Walthamstow #bike_bought
a: Nice! Has anyone checked it fits you?
u: the seller was my height. that's a fit, right
a: Get the saddle height set at a bike shop at least
== 2026-11-09 21:50
u: presentation prep. 14 slides for ten minutes. Helen says that's a crime
a: Helen's right. Aim for six or seven: the problem, your audit numbers, three changes, how you'd measure them, a one-line close #presentation_structure
u: three changes. I had eleven
a: Keep the three that need a lead's authority. Save the rest for questions
u: cutting slides is harder than cutting out a kitchen, apparently
== 2026-11-12 18:15
u: interview done
a: How did it go?
u: presentation went well. I fumbled the one about managing a colleague who isn't pulling their weight #interview_fumble
a: Everyone finds that one hard. What did you say?
u: something about "supportive conversations". I sounded like a leaflet
a: You were probably more concrete than you remember. When do they decide?
u: end of next week
== 2026-11-17 12:35
u: got it. they rang during my lunch #job_offer
a: NKECHI! Congratulations!
u: I'm eating a meal deal in a stairwell grinning like an idiot
a: Best meal deal of your life. Salary? Start date?
u: HR to follow. Helen says I should ask for a higher point on the band
a: She's right. Ask for the point that matches your years of experience, with evidence. Worst case they say no #salary_point
== 2026-11-22 10:10
u: units arrived. they're sage green. I ordered navy #wrong_units
a: Oh no. Who placed the order?
u: Gary. says the supplier messed up. two more weeks
a: If he ordered them, fixing it with the supplier is his problem, not your cost. Ask him to forward the order confirmation
u: sage green is the colour of scrubs. I'm not coming home to work
a: Fair grounds to refuse them
== 2026-11-27 20:35
u: decision made. we're pushing the frozen transfer to January #fet_postponed
a: What tipped it?
u: it would land right when I'm in Lagos with Mum. not doing progesterone in 34 degrees with a suitcase #fet_reason
a: Makes sense. Mum first, transfer with a clear head
u: Dr Mensah was fine with it. the embryos aren't going anywhere
a: The most patient members of the family
u: ha. true
== 2026-12-03 21:05
u: Chidi says the neurologist has put Mum up to 10mg #donepezil_10
a: How is she taking the increase?
u: nauseous. refusing breakfast
a: Nausea is usually worst in the first couple of weeks on a higher dose. A small snack with the tablet at bedtime often helps #nausea_tip
u: it's already at night. I'll tell Chidi about the snack
u: flights booked. ten days, back just before Christmas. Femi's staying to guard the kitchen from Gary
a: Ten days with Mum. That will matter to both of you
== 2026-12-08 19:20
u: Gary says he's "basically done". final invoice £22,800 #kitchen_22800
a: £4,300 over the quote. Does it match what you agreed?
u: joists, sink unit, extra plastering, and "sundries" £900. I asked what sundries are. he said "you know"
a: You don't. Ask for them itemised before paying that part. And keep back 5% until every snag is fixed, say 30 days #retention
u: the tap isn't in. a drawer doesn't close. the extractor hums
u: navy units are in though. Femi made toast. we both got a bit emotional
== 2026-12-12 16:05
u: landed in Lagos this morning. forgot how loud everything is #lagos_arrived
a: You made it! How's Mum?
u: she knew me at the door. then asked me twice at lunch when I was coming
a: Joy and grief in the same afternoon. That's a lot
u: Blessing is lovely with her. and she's leaving at the end of the month. getting married, moving to Abuja #blessing_leaving
a: Just as Mum's settled. Does Chidi have anyone in mind?
u: no. that's my job this week apparently
== 2026-12-16 21:40
u: saw three carers today with Chidi. we chose Mrs Okon, a retired midwife. she'll live in #new_carer
a: A retired midwife sounds like a steady pair of hands. How did Mum take to her?
u: criticised her headscarf, then held her hand for an hour
u: evenings are the worst. around six she gets restless, says people are taking her things #mum_evenings
a: That's often called sundowning. Lights on before it gets dark, a quiet familiar late afternoon, her music, and no tea or coffee after lunch #sundowning
u: she'll fight me on the tea. she's Nigerian, not a monster
a: Decaf then. Don't tell her
u: deal
== 2026-12-23 22:05
u: back in London. Mum cried at the airport, forgot why, then cried again
a: That sounds unbearably hard. How are you?
u: wrung out. Femi collected me. the kitchen has a tap now
a: Small mercies. Did Mrs Okon settle in?
u: moved in on the 20th. already reorganised Mum's pill box, which I respect professionally #okon_moved
a: High praise from a pharmacist
== 2027-01-04 19:05
u: happy new year. back at work. cruel
a: Happy new year! Any news from HR?
u: start date 1 February. and they gave me the higher pay point #job_start
a: Well done for asking!
u: frozen cycle has started too. oestrogen tablets, 2mg three times a day #oestrogen_tabs
a: Back on the schedule. When's the lining scan?
u: the 14th
== 2027-01-09 10:35
u: coach wants me breathing to both sides. I can only breathe right. on the left I swallow half the pool #bilateral
a: Try the catch-up drill: one arm waits out in front until the other finishes its stroke and touches it. It slows you down enough to turn your head on the weak side #catchup_drill
u: I look like a very confused windmill
a: That means it's working. Four lengths of it at the start of every session
u: it's nine degrees outside and I'm planning a lake swim in May. who am I
== 2027-01-14 20:05
u: lining scan. 8.5mm. Dr Mensah actually smiled #lining_85
a: A big improvement. When's the transfer?
u: the 20th. thaw at 9, transfer at 11 #fet_date
a: Next week then. How's Mum?
u: good week. Mrs Okon has her doing puzzles after breakfast. she told Chidi she has "a new sister" #okon_puzzles
a: That's lovely to hear
== 2027-01-20 14:10
u: transfer done. embryo survived the thaw. two still in the freezer #fet_done
a: Good news on every count. How are you feeling?
u: calmer than last time. using your October plan again #tww_again
a: Good. What's on tonight?
u: Femi's jollof and a terrible film
== 2027-01-25 21:05
u: crack in the new worktop next to the sink. Gary's not answering #worktop_crack
a: Have you still got the 5% back?
u: yes. £1,140 sitting there smugly
a: Then you have leverage. One clear email: the photo, the fix you want, 14 days to do it, and the money gets released when it's done #worktop_email
u: he'll reply with a thumbs up and nothing else
a: That still counts as a written acknowledgement
u: trying not to think about Friday. test day
== 2027-01-29 07:35
u: positive. faint but positive #bfp
a: Oh Nkechi. That's wonderful
u: telling nobody yet. bloods on Monday
a: Very sensible. How's Femi?
u: cried into his cereal. I'm cautiously optimistic, which for me is hysterical joy
a: Let yourself have today, whatever Monday says
u: trying
== 2027-02-02 20:35
u: bloods are good. early scan on the 17th #bloods_good
a: Great news! And your first days as lead?
u: two days in. four meetings, one insulin crisis, nobody died #first_days
a: Sounds like a lead's week. Still swimming?
u: did the full 750m tonight. 30 lengths, no stopping #swim_30lengths
a: The whole race swim! From two lengths in September
u: the otters clapped
""", [
    ("what did you tell me to sort out with the builder before he began", ["kitchen_contract_tip"],
     "paraphrase", []),
    ("what did you tell me to do about holding my breath when I swim",
     ["exhale_tip"], "paraphrase", []),
    ("what were your tips for doing the fertility jabs on myself", ["injection_tips"],
     "paraphrase", []),
    ("what did Gary find when he pulled the old kitchen out", ["joists"], "paraphrase", []),
    ("what did you suggest to get me through the waiting after the first embryo went in",
     ["tww_plan"], "paraphrase", []),
    ("what did you say Chidi should check when hiring someone to help Mum",
     ["carer_advice"], "paraphrase", []),
    ("how many eggs did the clinic retrieve in the first round", ["egg_nine"],
     "paraphrase", []),
    ("what did you say to fix my legs dropping when I swim", ["legs_sink_tip"],
     "paraphrase", []),
    ("how did you tell me to lay out my talk for the interview panel",
     ["presentation_structure"], "paraphrase", []),
    ("which interview question did I think I handled badly", ["interview_fumble"],
     "paraphrase", []),
    ("what did you say about holding on to part of Gary's final payment", ["retention"],
     "paraphrase", []),
    ("what did you suggest for Mum getting worked up late in the day", ["sundowning"],
     "paraphrase", []),
    ("why did we delay the frozen embryo transfer", ["fet_reason"], "paraphrase", []),
    ("what did you suggest for Mum feeling sick after her tablets went up", ["nausea_tip"],
     "paraphrase", []),
    ("what did you tell me to do about the damaged counter top", ["worktop_email"],
     "paraphrase", []),
    ("what did the consultant think went wrong with our first go", ["mensah_unlucky", "lining_7mm"],
     "paraphrase", []),
    ("what are the distances for each leg of the Dorney race", ["tri_signup"], "lexical", []),
    ("how much extra did the Belfast sink add", ["belfast_sink"], "lexical", []),
    ("where is Blessing moving to", ["blessing_leaving"], "lexical", []),
    ("remind me how the catch-up drill works", ["catchup_drill"], "lexical", []),
    ("what does STAR stand for again", ["star"], "lexical", []),
    ("when did they take my eggs out", ["egg_collection"], "temporal", []),
    ("what day did I get to Lagos", ["lagos_arrived"], "temporal", []),
    ("when did I hear the promotion was mine", ["job_offer"], "temporal", []),
    ("what's the kitchen costing us in total now", ["kitchen_22800"], "update",
     ["kitchen_quote", "kitchen_20300"]),
    ("what strength is Mum's dementia medicine now", ["donepezil_10"], "update",
     ["donepezil_5"]),
    ("how far can I swim front crawl without a break these days", ["swim_30lengths"],
     "update", ["swim_2lengths", "swim_10lengths"]),
    ("who's looking after Mum at home now", ["new_carer", "okon_moved", "okon_puzzles"], "update",
     ["blessing_hired"]),
    ("what did my lining measure the first time round, and at the scan before the second transfer",
     ["lining_7mm", "lining_85"], "multi_hop", []),
    ("what did you tell me to ask HR for, and did I get it", ["salary_point", "job_start"],
     "multi_hop", []),
])


conv("en", "le08", "u_jake", "Jake", """
== 2026-09-24 21:40
u: hey. moved into halls on sunday and its been a lot
a: Hey Jake! That's a huge week. How are you finding it so far?
u: idk tbh kind of homesick already
u: im from norwich never lived away from home before. doing mech eng #from_norwich
a: Mechanical engineering, nice. Missing home in the first week is really normal, even for people who look like they're loving it
u: flatmates r ok i guess. theres 6 of us, callum is really loud, ade seems sound
a: A few things that help: keep your door propped open when you're in, say yes to one thing each day even if it's small, and set fixed times to call home instead of checking your phone all evening #homesick_tips
u: door open thing is smart. my gf ellie is still in norwich so thats hard too
a: Long distance in first year is tough but really common. Have you two made a plan for when you'll next see each other?
== 2026-09-27 19:10
u: loan came in today. 2950 but the halls rent takes 1800 of it straight away
a: So roughly £1,150 has to last you until the January payment, about 15 weeks
u: when u say it like that its scary
a: Move the rent money out first so you never see it. Then give yourself a weekly limit of around £70 for food and going out, and keep £100 aside for emergencies and trains home #budget_plan
u: ok 70 a week. i can do that #budget_70
u: freshers is gonna destroy it lol
a: Take cash out before a night out and leave the card at home, it's the easiest way to stop a £20 night becoming £60
== 2026-09-30 22:15
u: got a trial shift at a pub near uni, the old forge. tomorrow 6 till 11
u: kinda bricking it
a: Congrats! Get there ten minutes early, ask someone to show you the till before it gets busy, and if you don't know something say "let me check" instead of guessing #trial_tips
u: the manager is called dawn. she was proper scary in the interview
a: Strict managers usually just want people who turn up on time and don't need telling twice. You can do that
== 2026-10-02 23:50
u: got the job!!!
a: Jake, that's brilliant! How did the trial go?
u: dropped one glass but dawn said i was quick
u: im on thursday and saturday nights #shifts_thu_sat
a: Two nights is a good amount alongside a full engineering timetable. What's the pay like?
u: 10.85 an hour plus tips #pay_1085
u: oh and dawn said no phones behind the bar ever. she checks #dawn_phones
a: Then leave it in your locker or your coat. Easier than being caught once
== 2026-10-05 21:00
u: bought a guitar today
a: No way! Electric or acoustic?
u: acoustic. a yamaha off marketplace
a: Nice! What did it set you back?
u: 60 quid, the guy threw in a tuner #guitar_bought
u: learning off youtube. got G C and D so far but my fingertips are dead
a: That's the worst bit and it passes. Play 15 to 20 minutes twice a day instead of one long session, press just behind the fret rather than on it, and the hard skin builds up in two or three weeks #sore_fingers
u: callum already banged on the wall lol
== 2026-10-09 08:30
u: mum rang. grandad had a stroke last night #grandad_stroke
a: Oh Jake, I'm so sorry. Is he in hospital?
u: hes in the norfolk and norwich. right side is weak and his speech is all messed up #grandad_ward
u: idk if i should go home
a: Ask your mum what would actually help this week. He may be very sleepy for the first days. If you do go, email your personal tutor today so the missed lectures are on record #go_home_advice
u: ok ill ring mum back. prob getting the train tonight
a: That sounds right. Take care of yourself on the journey, and message me any time
== 2026-10-12 20:30
u: back in sheff
a: How was it? How is your grandad?
u: he cant really talk yet. but he squeezed my hand when i sat with him
a: That squeeze matters. He knew you were there
u: saw ellie too. nice but way too short and the train was 48 quid return. ouch
a: Get a 16-25 Railcard: it's about £30 a year and takes a third off most train fares, so it pays for itself in two trips home #railcard
u: didnt even know that was a thing
== 2026-10-15 17:20
u: callum has left a pan of beans in the sink for 5 days
u: the whole kitchen stinks
a: Gross. Rather than calling him out alone, suggest a quick flat meeting and a washing-up rota in the group chat, so it's about everyone and not an attack on him #dishes_advice
u: sophie said shed back me up
u: ade made jollof for the whole flat tho which was elite #ade_jollof
a: Ade sounds like a keeper. Maybe bring it up at the meeting while everyone's in a good mood from the food
== 2026-10-18 13:05
u: dawn had a go at me last night
a: Oh no, what happened?
u: i poured a pint with a massive head on it and she made me redo it in front of the customer
u: and she said if im late again im off the rota. i was 4 mins late
a: Embarrassing, but fixable. Be there 10 minutes early every shift and ask her once, at a quiet moment, how she likes pints poured. Strict managers soften when they see you learn
u: ok. still hate her a bit
== 2026-10-23 22:55
u: ellie is annoyed at me
a: What's going on?
u: says i never text back when im out with the flat. but im not ignoring her i just forget
a: Agree what you each expect. A quick "out with the flat, will ring tomorrow" takes ten seconds, and one fixed evening for a proper call means nobody is left waiting all week #ellie_texting_advice
u: yeah we just talked. sundays are gonna be our call night #sunday_calls
a: That's a good outcome from a hard conversation
== 2026-10-28 19:45
u: grandad got moved to a rehab unit today. like 10 mins from nans house #grandad_rehab
a: That's a good sign, it means the hospital thinks he's ready to work on getting better
u: mum says i should video call him but idk what to say when he cant talk back
a: Keep questions short and ones he can answer with a nod or a yes. Give him time, and don't finish his sentences for him. You can also show him things, the flat, the view, your guitar #grandad_call_tips
u: i could play him something. he used to play the harmonica at every family party #grandad_harmonica
a: He'd probably love that, even if it's just G, C and D
== 2026-11-01 12:10
u: checked my bank. i am not ok
a: Uh oh. How bad is it?
u: spent 310 in 2 weeks
u: the 85 quid on tickets for that warehouse rave didnt help #ticket_85
a: It happens in first term, and it's fixable. Take what's left, divide it by the weeks until January, and that's your new limit. Don't count bar money in it, treat that as extra #budget_55_advice
u: did the maths. its 55 a week from now on, bar money goes straight into savings #budget_55
a: Good plan. Set up a separate savings pot in your banking app so you can't spend it by accident
== 2026-11-04 18:30
u: i need food that isnt pasta and pesto
a: Egg fried rice: rice cooked the day before, two eggs, a handful of frozen peas, soy sauce and a spring onion. Under a pound a portion and ten minutes in a frying pan #egg_fried_rice
u: i have like half a bag of rice so thats perfect
u: oh and callum washed up today. the rota actually worked #rota_worked
a: Ha, a miracle. The flat meeting paid off
== 2026-11-08 16:40
u: the F chord is impossible
u: my finger just doesnt press all the strings down
a: Everyone gets stuck on F. Roll your first finger slightly onto its bony side, keep your thumb low behind the neck, and start with the small F on only four strings before trying the full barre #f_chord_tip
u: the guy in the video makes it look so easy
a: He's had ten years. Give it a few weeks of a couple of minutes a day
== 2026-11-13 00:20
u: had a guy kick off at the bar tonight
a: Are you ok?
u: yeah. he was wasted and threw a glass. dawn sorted him out in like 30 seconds. she was actually kind of class
a: Sounds like she's good in a crisis, even if she's hard work the rest of the time
u: and she said i can run the till on my own now #till_alone
a: That's trust. Nice one
== 2026-11-15 21:15
u: ellie is coming up to sheff on the 27th for the weekend, first time shes seeing the flat #ellie_visit_date
a: Exciting! Any plans for what you'll do?
u: idk. shes not into clubs
a: The bus out to the Peak District takes under an hour, and a walk up onto the edges with a flask is a proper day out that costs almost nothing
u: also her bday is 12 dec. wanna learn yellow by coldplay for her, its kind of our song #song_choice
a: Lovely idea. Yellow is in B, which is all barre chords, so cheat: put a capo on the 4th fret and play it with G, D and C shapes, the ones you already know #capo_tip
u: wait thats genius
== 2026-11-19 20:05
u: GRANDAD SAID MY NAME on the video call today. slowly but he said jake #grandad_name
a: Jake, that's amazing! How did everyone react?
u: nan cried. i nearly did
u: the physio says his right arm is coming back slower than his leg tho #physio_arm
a: That's common after a stroke, legs often recover first. Every small step counts
== 2026-11-22 14:30
u: got my first maths coursework back. 48. mechanics is fine its the maths thats killing me #maths_48
a: 48 is a pass, and first-year maths is a shock for most people. Does your uni have a maths support drop-in?
u: think so. sophie does maths she said shed go through the problem sheets with me
a: Take her up on it, and go to the drop-in with the questions you're both stuck on
== 2026-11-24 23:10
u: cant sleep. fire alarm went off at 3 last night bc someone made toast and i keep thinking about all the stuff i have to do
a: That's a rough combo. Want to dump it all here?
u: ellie visit, maths sheet, 2 shifts, yellow, and i miss home
a: Write that list on paper, pick one thing for tomorrow morning and leave the rest until after. Your brain lets go more easily when it's written down
u: ok. night
== 2026-11-29 18:40
u: ellie went back this afternoon. best weekend since i got here honestly #ellie_went_back
a: So glad! What did you get up to?
u: took her out to the peaks on the bus. she loved it #ellie_visit_peaks
u: the flat were all nice to her, ade cooked again. feel kind of empty now shes gone
a: That slump after a visit is normal. What helps most is having the next date pinned down
u: im home for xmas from the 16th anyway #xmas_home_date
a: Under three weeks then
== 2026-12-03 17:00
u: need to ask dawn for xmas off but shes already stressing about december
a: Ask her in person, early, and at a quiet moment, not in the middle of a rush. Offer to pick up extra shifts before you go, and then send her a text with the dates so it's in writing #ask_dawn_advice
u: ok ill ask her before my shift tonight
a: Good luck. You've been on time for weeks, that helps
== 2026-12-06 15:20
u: dawn said yes to xmas off as long as i do 2 extra shifts next week #xmas_off_yes
a: Told you! Fair deal
u: also played yellow all the way through without stopping for the first time #yellow_full
a: Jake!! That's a real milestone. Six days to go until her birthday too
u: the changes are still a bit slow but ye
== 2026-12-10 21:30
u: exams are 11th to 22nd jan and ill be home for most of the revision time #exam_dates
a: Then plan it now. Start with the module you feel least sure about, do past papers rather than re-reading notes, two 50 minute blocks every morning, and use guitar as your break #revision_plan
u: nan will feed me at least
a: And tell your family your study hours so they give you space
== 2026-12-13 10:15
u: played yellow for ellie on facetime yesterday before my shift. she cried lol. good crying #ellie_cried
u: messed up the bridge but she didnt care
a: That's so lovely. Nobody cares about the bridge when someone learned a song for them
u: also got her a necklace with a tiny train on it. bc of all the trains #necklace_gift
a: Perfect gift for a long distance couple
== 2026-12-19 19:30
u: been home a few days. went to see grandad at the unit today
a: How was he in person?
u: hes walking with a frame now #grandad_frame
u: played him the guitar and he tapped along with his good hand
a: That's a lovely picture. Music often gets through when words are hard
u: they might let him home in the new year
== 2026-12-27 20:45
u: grandad was allowed home for christmas day but he had to go back to the unit after #grandad_xmas
a: Still, Christmas at home must have meant a lot to him
u: he ate a tiny bit of turkey and fell asleep in his chair during the kings speech lol
u: nan gave me 50 quid
a: Maybe put half in the savings pot and keep half for the new term
u: ye fair. revision has been ok. did 2 maths papers
== 2027-01-05 13:00
u: grandad is home for good as of today!!! #grandad_home
a: That's the best news, Jake!
u: they put a rail in the bathroom and moved his bed downstairs. nan is stressed but happy
a: Carers need looking after too. Maybe offer to sit with him for a few hours so she can get out
u: already did. going back to sheff on the 9th
== 2027-01-13 22:05
u: first exam done. maths. think it went ok??
a: Sounds promising. How did the past papers prepare you?
u: the revision plan thing actually helped. half the questions were like the papers
u: callum got food poisoning from his own chicken lol
a: Poor Callum. Undercooked chicken is no joke, maybe a meat thermometer for the flat
== 2027-01-16 18:20
u: need a cheap food thing i can make once and eat all week while revising
a: Big pot of lentil chilli: an onion, two tins of tomatoes, a tin of kidney beans, red lentils, chilli powder and cumin. Makes five portions and freezes well
u: do lentils need soaking
a: Red ones don't, they cook straight in the sauce in about 25 minutes
u: ok doing it tomorrow
== 2027-01-22 16:00
u: LAST EXAM DONE
a: Congratulations! How do you feel?
u: dead. but free. back at the bar on sunday, dawn sent the new rota
u: im on fridays and sundays now instead #shifts_fri_sun
a: Will that clash with your calls with Ellie?
u: nah i finish at 9 so i can still ring her after
== 2027-01-27 19:40
u: second loan payment came in
a: Nice timing. How did you do with money last term?
u: mostly stuck to the budget after the rave disaster and saved 240 from the bar #saved_240
a: That's really good for a first term. What's the savings for?
u: want to go to norwich more and maybe a trip with ellie in summer
a: Having a goal makes it much easier not to dip into it
== 2027-02-01 21:20
u: started learning fingerpicking
a: Fun! How is it going?
u: my thumb keeps doing its own thing
a: Give your thumb the bottom three strings and your first three fingers one string each. Use a metronome at a slow 60 and only speed up when it's clean #fingerpicking_tip
u: 60 is so slow
a: Slow is how it gets fast
== 2027-02-05 23:35
u: DAWN GAVE ME A PAY RISE
a: What?! Tell me everything
u: 11.50 an hour from next week #pay_1150
u: she said im the only one who hasnt been late since october
a: That's huge, Jake. From nearly off the rota to the reliable one
u: still scared of her tho
== 2027-02-09 17:10
u: nan sent a video, grandad walked to the end of the road today with just a stick #grandad_stick
a: From a frame to a stick, that's real progress
u: his speech is like 70 percent back. he told me to get a haircut lol
a: Sounds like he's back to being a grandad
== 2027-02-12 20:00
u: got exam results. passed everything. maths was 58 #results
a: Well done! Up from 48 on that first coursework
u: also sorting a house for next year
a: Who are you going in with?
u: ade and sophie. not callum #house_next_year
u: havent told callum yet its awkward
a: Tell him soon and in person, before he hears it from someone else. Keep it simple: you three wanted a smaller house, nothing personal
== 2027-02-16 22:30
u: back from norwich. swapped my sunday shift w someone so i could stay
a: How was Valentine's?
u: took ellie to the pizza place we went on our first date
u: and she saw grandad. he called her the girl with the train necklace
a: That's adorable. He's clearly paying attention
u: honestly i feel way less homesick than in september #less_homesick
a: You've built a whole life here since then, the job, the flat, the guitar. That's a lot in five months
u: ye. cheers for listening to all my moaning
""", [
    ("which nights am i working at the pub these days", ["shifts_fri_sun"], "update",
     ["shifts_thu_sat"]),
    ("how much do i get an hour at the bar now", ["pay_1150"], "update", ["pay_1085"]),
    ("whats my weekly spending limit at the moment", ["budget_55"], "update", ["budget_70"]),
    ("where is grandad staying now", ["grandad_home"], "update",
     ["grandad_ward", "grandad_rehab", "grandad_xmas"]),
    ("what did u tell me to do in my first week when i was missing home", ["homesick_tips"],
     "paraphrase", []),
    ("how did u say to deal with my fingers hurting from practising", ["sore_fingers"],
     "paraphrase", []),
    ("what tips did u give me before my first go working at the pub", ["trial_tips"],
     "paraphrase", []),
    ("how did u say i should talk to grandad on video when he couldnt speak",
     ["grandad_call_tips"], "paraphrase", []),
    ("whats that cheap thing u said to cook with leftover rice", ["egg_fried_rice"],
     "paraphrase", []),
    ("what was ur advice for that chord where one finger has to hold every string",
     ["f_chord_tip"], "paraphrase", []),
    ("how did u say i should ask my boss for time off over the holidays", ["ask_dawn_advice"],
     "paraphrase", []),
    ("what was the study plan u gave me for january", ["revision_plan"], "paraphrase", []),
    ("what did u say when ellie was upset i wasnt replying to her", ["ellie_texting_advice"],
     "paraphrase", []),
    ("how much did i pay for my guitar", ["guitar_bought"], "paraphrase", []),
    ("which evening did me and ellie agree to ring each other", ["sunday_calls"],
     "paraphrase", []),
    ("which module was i struggling with in first term", ["maths_48"], "paraphrase", []),
    ("what was the first thing grandad managed to say to me after the stroke",
     ["grandad_name"], "paraphrase", []),
    ("where did i take ellie when she came up to see me", ["ellie_visit_peaks"],
     "paraphrase", []),
    ("what did i buy my girlfriend for her birthday", ["necklace_gift"], "paraphrase", []),
    ("who am i living with in second year", ["house_next_year"], "paraphrase", []),
    ("what did u tell me about getting a railcard", ["railcard"], "lexical", []),
    ("what did i blow 85 quid on", ["ticket_85"], "lexical", []),
    ("whats dawns rule about phones", ["dawn_phones"], "lexical", []),
    ("who in the flat made jollof", ["ade_jollof"], "lexical", []),
    ("what did i say about grandad and the harmonica", ["grandad_harmonica"], "lexical", []),
    ("when did grandad have his stroke", ["grandad_stroke"], "temporal", []),
    ("when did i first manage to play ellies song start to finish", ["yellow_full"],
     "temporal", []),
    ("when was ellie coming up to visit me in sheffield", ["ellie_visit_date", "ellie_went_back"], "temporal", []),
    ("the song i learned for ellies birthday, what chords did u tell me to play it with",
     ["song_choice", "capo_tip"], "multi_hop", []),
    ("when callum kept leaving his dirty pan, what did u suggest and did it work in the end",
     ["dishes_advice", "rota_worked"], "multi_hop", []),
])


# ---------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------
conv("zh", "lz01", "u_xiaofeng", "小峰", """
== 2026-09-02 22:40
u: 今天跑了52单，腿都不是自己的了
u: 刚到家，洗完澡还想学会儿
a: 跑完一天还学习，挺拼的。学到哪了？
u: 在跟B站一个免费的Java课，刚学到循环 #java_start
a: 循环是基础里最要紧的一块，多敲几遍比光看视频有用
u: 我想明年能转行，不想一辈子送外卖
a: 二十六岁转行完全来得及，关键是每天都学一点
== 2026-09-04 15:10
u: 午高峰跑完了，在商场楼下歇会儿
u: 问你个事，我一天里啥时候学比较好
a: 你几点到几点跑单？
u: 十点半到一点半，下午五点到八点半 #work_hours
a: 那下午两点半到四点半学新内容，晚上十点后只做半小时练习，十一点半前睡 #study_schedule
u: 下午那段我一般在跑零散单
a: 先试一周，算算少跑两小时差多少钱再定
== 2026-09-06 23:20
u: 跟小雯吵架了
a: 怎么了？想说说吗？
u: 她说我一天就回几句消息
u: 她在合肥一家奶茶店上班，也挺累的 #gf_hefei
u: 可我跑单时真没法看手机
a: 可以约个固定时间，比如每晚十点半视频十五分钟 #fixed_call
a: 再加上开工前发一句“出门了”，收工发一句“到家了”，花不了几秒 #msg_tip
u: 行，我跟她商量下
== 2026-09-09 22:50
u: 我爸打电话说腰又疼了，地都下不了
a: 疼了多久了？
u: 半个多月，这回腿也麻，一直贴膏药
a: 腿麻可能压到神经了，光贴膏药不行，最好去县医院拍个核磁 #mri_advice
u: 他舍不得钱，说玉米还没收
a: 早查反而省钱，拖重了花得更多
u: 我让我姐劝劝他
== 2026-09-12 14:40
u: 算了下网贷，还欠3万6 #debt_36
a: 一共几笔？每月还多少？
u: 两笔，借呗和一个叫速借的app，每月加起来2800
a: 速借年化多少你看过吗？
u: 快24%了
a: 那就先集中还速借，借呗按时还最低，千万别借新的还旧的 #debt_plan
u: 当时买电动车和手机借的，越滚越多
== 2026-09-15 23:05
u: 我爸去县医院拍片了，腰椎间盘突出
a: 医生怎么说？
u: L4L5压迫神经，说保守治疗效果不大，建议做手术 #dad_surgery_suggest
a: 手术前最好再去市里大医院看一次，多听一个意见
u: 我姐说带他去阜阳市人民医院
u: 手术得多少钱啊，心里没底
a: 先问清费用和新农合能报多少，别自己吓自己
== 2026-09-18 22:30
u: 照你说的，下午学了两小时
a: 感觉怎么样？
u: 少跑了六七单，少挣六十来块
a: 一周就是三四百，你觉得值吗？
u: 值，比晚上学得进去
u: 今天学到面向对象，类和对象绕得我头晕
a: 拿外卖想：“订单”是个类，你手上每一单是它的对象，都有地址、金额、状态 #oop_example
u: 这么一说懂了点
== 2026-09-22 21:55
u: 我在杭州住城中村合租，一个单间750一个月 #rent_750
u: 房东钱姐今天又来收电费，一块五一度
a: 比民用电贵不少，合同里写了吗？
u: 没合同，口头说的
a: 问问同楼的人，都是这个价就一起去跟她谈
u: 隔壁大哥也是一块五
== 2026-09-26 23:10
u: 小雯说国庆想来杭州找我
a: 好事呀！你们多久没见了？
u: 快四个月了
a: 那得好好安排。国庆你请假吗？
u: 请两天，其他时间跑半天
a: 去西湖最好一大早去，国庆下午人多到走不动 #xihu_tip
== 2026-10-03 22:15
u: 今天带小雯去西湖了，六点就出门
a: 早起值了吧？
u: 断桥九点以后就挤不动了
a: 你们躲过了最挤的时候
u: 她说我瘦了，还晒黑了
== 2026-10-08 15:00
u: 小雯昨天回合肥了，走的时候哭了
u: 她说不想再异地了，想来杭州工作
a: 你自己怎么想？
u: 想，但我那单间两个人挤不下
a: 不急，让她先在合肥投杭州的工作，定了再一起找房
== 2026-10-12 22:40
u: 爸在阜阳住院了，定了15号手术 #surgery_date
a: 什么手术？
u: 微创的，说恢复比开刀快
a: 那挺好。你回去吗？
u: 请了三天假，明天坐车回
== 2026-10-15 19:30
u: 手术做完了，三个多小时 #surgery_done
a: 太好了！叔叔怎么样？
u: 麻药过了说腿不麻了，就是伤口疼
a: 腿不麻说明神经松开了，是好消息
u: 我在走廊守了一天，没吃饭
== 2026-10-18 21:20
u: 回杭州了，爸还得住几天
a: 出院后的注意事项医生交代了吗？
u: 说要戴腰围，别的我没记清
a: 一般是：腰围戴三个月，别弯腰搬重物，起床先侧身再用手撑起来，一个月后听医生的再练小燕飞 #rehab_tips
u: 我截图发我姐
== 2026-10-22 22:50
u: 爸出院了，结账一共4万7 #surgery_total
u: 新农合报了一半多，自己还得掏2万1
a: 这笔钱怎么分的？
u: 我姐出1万3，剩下8000我出 #my_share
a: 你还在还网贷，这8000从哪来？
u: 存了三千，剩下的多跑半个月
a: 这个月还款要是紧，打官方客服问能不能延期，别找网上那种代理协商，很多是骗子
== 2026-10-27 23:00
u: 速借客服说可以延一个月，利息照算
a: 至少不逾期，先缓口气
u: 这周每天跑到十一点
u: 小雯又说我不回消息了
a: 十点半的视频还在打吗？
u: 断了好几天
a: 跟她说清楚这个月为啥忙，说好月底恢复，她心里就有底
== 2026-11-02 15:20
u: 今天送餐遇到个程序员顾客，聊了两句
a: 他说什么了？
u: 他说自学Java找后端实习太难，学历卡得紧 #java_hard
a: 后端确实更看学历。他推荐别的方向了吗？
u: 他说前端上手快，做的东西看得见，能放作品集 #frontend_reason
u: 我想先学HTML和CSS试试
a: 给自己一个月把HTML、CSS、JS过一遍，再上Vue
== 2026-11-06 22:35
u: 决定了，以后主攻前端，Java先放一放 #dir_frontend
a: 好，定了就别老换了
u: 买了个Vue课，199 #vue_course
u: 这个月本来就紧，是不是冲动了
a: 一套系统课199不算冲动，别的先别买了
== 2026-11-10 23:30
u: 今天大雨，路滑摔了一跤
a: 啊！伤到哪了？
u: 膝盖擦破了，餐洒了赔了38
a: 伤口先用碘伏消毒，这几天别沾水，红肿流脓就去医院 #wound_care
u: 站长说雨天单价高让多跑
== 2026-11-14 22:10
u: 我爸才一个月就要下地了
a: 还没到复查呢，太早了
u: 他说小麦要种，不能误了
a: 跟他算笔账：再伤一次又是几万块，你和姐还得请假回去。播种请人或者租机器，一天才几百 #persuade_dad
u: 我姐说村里有人帮播，一亩五十
== 2026-11-18 23:05
u: 热水器坏了三天了，洗不了澡
a: 跟钱姐说了吗？
u: 说了，她说过几天找人修，一直拖
a: 给她发微信，写清哪天坏的、影响什么、希望哪天前修好，留个文字记录 #heater_advice
u: 先去澡堂洗了，十五块一次 #bathhouse
a: 小票留着，回头跟她商量从房租里扣
== 2026-11-22 21:40
u: 爸今天复查，医生说恢复得不错
a: 太好了！腰围还要戴吗？
u: 戴到一月，可以开始练小燕飞了
u: 跟你说，我这边也有进展
u: HTML和CSS过完了，照着外卖软件首页仿了个页面 #clone_page
u: 就是手机上打开全乱了
a: 那是没做适配，学一下flex布局和媒体查询 #responsive_tip
== 2026-11-28 22:55
u: 这个月跑了9200
a: 这么多！雨天和晚上多跑的吧
u: 还完这个月的，网贷还剩2万7 #debt_27
a: 比九月少了快一万，不错
u: 延期那个月也补上了
u: 热水器终于修好了，钱姐从房租里扣了45
== 2026-12-03 22:20
u: 小雯在杭州找到工作了！
a: 太棒了！什么工作？
u: 商场化妆品专柜，底薪四千加提成 #gf_job_cosmetic
a: 她什么时候过来？
u: 十二月中旬，得赶紧找房
a: 找房看清合同，水电按民用价，入住时拍照留底
u: 这次一定签合同
== 2026-12-07 16:00
u: 看了三套，有套一室一厅2300
a: 离你们上班远吗？
u: 下沙那边，离她商场地铁三站
u: 是中介的房，要押一付三
a: 押一付三得先拿出九千多，钱够吗？ #deposit_3
u: 小雯说她多出点
a: 说好这次她多出，以后你慢慢补上，讲清楚不伤感情
== 2026-12-10 22:30
u: 新房签了，砍到2200，我跟小雯一人一半，电费也按民用价 #rent_new
u: 跟钱姐说月底搬，她说押金要扣300
a: 理由呢？
u: 说墙上有印子，得重新刷 #deposit_reason
a: 你入住时拍照了吗？
u: 没拍
a: 跟她说你一直按时交租，修热水器也配合，一个小印子扣300太多，请她按实际算
== 2026-12-16 21:15
u: 小雯今天到杭州了，我去车站接的 #gf_arrive
a: 终于不用异地了！
u: 东西都搬到新家了，累瘫
u: 有个小厨房，她说以后给我做饭
a: 跑单回来有热饭吃了
u: 钱姐最后扣了100，算了
a: 从300谈到100，可以了
== 2026-12-20 15:30
u: Vue学了一半，想做个自己的项目
a: 有想法了吗？
u: 做个骑手记账的网页，记每天跑多少单挣多少
u: 从哪开始做？
a: 先做最小的：加一条记录、列表显示、按月算总收入，图表和登录以后再加 #project_mvp
u: 好，今晚就开工
== 2026-12-25 22:45
u: 圣诞节小雯店里忙到十点
u: 买了个小蛋糕等她下班一起吃
a: 很暖心。她上班适应吗？
u: 说站一天脚疼，但比奶茶店挣得多
a: 给她买双软底鞋或者厚鞋垫，站柜台会舒服很多
== 2027-01-03 23:00
u: 记账网页部署上线了！ #project_deployed
u: 站里三个骑手已经在用了
a: 有真实用户，简历上很加分
u: 是不是该写简历了
a: 对，一页就够，项目放最前面，写清解决什么问题、用了什么技术、几个人在用 #resume_tips
u: 跑外卖那段要写吗
a: 要写，一句带过，说明你能吃苦、会安排时间 #resume_rider
== 2027-01-08 22:20
u: 投了二十几份实习，回了两家
u: 一家做餐饮点单小程序的，约我周一面试 #interview1_company
a: 跟你的项目很对口，多讲记账网页
u: 另一家电商的让我先做笔试
a: 面试前把Vue生命周期、组件通信过一遍
u: 速借还清了！就剩借呗1万9 #debt_19
a: 太棒了，最贵的那笔没了
== 2027-01-11 19:50
u: 面完了，感觉不太行
a: 怎么了？
u: 问了闭包和原型链，我答得乱七八糟 #interview_q
a: 闭包和原型链是高频题，每个写三个小例子，边写边讲给自己听 #closure_tip
u: 面试官倒是说我项目挺有意思
a: 说明方向对，基础补上就行
== 2027-01-15 22:30
u: 电商那家笔试过了，明天二面
u: 每天写例子，现在能讲清楚了
a: 二面多半问项目，想想做网页时最难的问题怎么解决的
u: 最难的是按月统计，数据一多就卡
a: 就讲这个，怎么发现的、怎么改的
== 2027-01-19 21:00
u: 拿到offer了！！！
a: 恭喜小峰！！哪家？
u: 电商那家，前端实习，一个月3500
a: 从跑单到写代码，你做到了
u: 年后2月20号入职
u: 就是比跑单挣得少，有点慌
a: 周末再跑点单补上，网贷照计划还，转正后就好了
== 2027-01-24 22:10
u: 买了2月3号回老家的票，带小雯一起
a: 第一次见家长？
u: 对，有点紧张
a: 给叔叔带个好点的护腰靠垫，他一定高兴
u: 我爸现在能干点轻活了，天天念叨我找对象
a: 这回正好让他放心
""", [
    ("我一般哪几个时段在外面送单", ["work_hours"], "paraphrase", []),
    ("你帮我排的一天里什么时候看课、什么时候做题", ["study_schedule"], "paraphrase", []),
    ("小雯嫌我消息回得少，你给我们出的日常联系办法是啥", ["fixed_call", "msg_tip"], "paraphrase", []),
    ("我爸腿发麻那会儿你说该让他去查什么", ["mri_advice"], "paraphrase", []),
    ("欠的几笔钱你让我优先对付哪一笔", ["debt_plan"], "paraphrase", []),
    ("编程里那个绕人的概念，你拿送餐给我打的比方是啥", ["oop_example"], "paraphrase", []),
    ("国庆带小雯去景点你说几点去人少", ["xihu_tip"], "paraphrase", []),
    ("老爸开完刀回家养着，你说过哪些要当心的", ["rehab_tips"], "paraphrase", []),
    ("雨天摔车那次腿上的口子你让我怎么处理", ["wound_care"], "paraphrase", []),
    ("我爸刚好点就急着干农活，你让我怎么劝", ["persuade_dad"], "paraphrase", []),
    ("热水器一直没人来修，你让我怎么催房东", ["heater_advice"], "paraphrase", []),
    ("我仿的那个页面在手机上乱了，你说要补什么", ["responsive_tip"], "paraphrase", []),
    ("做那个记收入的网页，你说先做哪几样功能", ["project_mvp"], "paraphrase", []),
    ("找实习的履历怎么写，你给过哪些建议", ["resume_tips", "resume_rider"], "paraphrase", []),
    ("那个当程序员的顾客跟我说了啥", ["java_hard", "frontend_reason"], "paraphrase", []),
    ("搬走时旧房东凭什么要扣我押金", ["deposit_reason"], "paraphrase", []),
    ("我爸L4L5那个毛病，县医院的医生建议怎么治", ["dad_surgery_suggest"], "lexical", []),
    ("那个Vue课花了多少钱", ["vue_course"], "lexical", []),
    ("热水器坏了我去澡堂洗一次多少钱", ["bathhouse"], "lexical", []),
    ("闭包那块你让我怎么练", ["closure_tip"], "lexical", []),
    ("看房那会儿押一付三算下来要先拿出多少", ["deposit_3"], "lexical", []),
    ("我爸是哪天做的手术", ["surgery_date", "surgery_done"], "temporal", []),
    ("小雯是哪天正式来杭州跟我一起住的", ["gf_arrive"], "temporal", []),
    ("我那个记账网页是什么时候上线的", ["project_deployed"], "temporal", []),
    ("我现在每月房租多少", ["rent_new"], "update", ["rent_750"]),
    ("网贷现在还剩多少没还", ["debt_19"], "update", ["debt_36", "debt_27"]),
    ("我现在主要学的是哪个方向", ["dir_frontend"], "update", ["java_start"]),
    ("小雯现在干什么工作", ["gf_job_cosmetic"], "update", ["gf_hefei"]),
    ("爸那次手术医院总共收了多少，我自己拿了多少", ["surgery_total", "my_share"], "multi_hop", []),
    ("第一次面试那家公司是做什么的，我哪几个问题没答好", ["interview1_company", "interview_q"],
     "multi_hop", []),
])


conv("zh", "lz02", "u_zhanglaoshi", "张老师", """
== 2026-03-15 09:20
u: 小助手你好，孙子刚帮我装好的这个
a: 张老师您好！以后想聊啥都可以来找我
u: 我退休三年了，原来在中学教语文 #retired_teacher
a: 教了一辈子书，现在总算能歇歇。平时都忙些什么？
u: 主要是接送孙子，小名豆豆，今年上一年级 #doudou_grade1
a: 一年级正是可爱的时候。学校离家远吗？
u: 走路十五分钟，下午三点半放学 #pickup_330
a: 一天来回两趟，也算锻炼了
u: 以后有空就来跟你唠唠
== 2026-03-18 20:05
u: 今天去老年大学报了手机摄影班，每周三上午上课 #photo_class
a: 这个好！您用的什么手机？
u: 儿子换下来的旧手机，拍照还凑合
a: 入门够用了。先拿眼镜布把镜头擦干净，很多照片发虚是镜头上有手印 #lens_clean
u: 难怪我拍的都灰蒙蒙的
u: 擦了一下，真的清楚多了！
== 2026-03-22 08:40
u: 早上社区免费量血压，高压152，低压96 #bp_152
a: 这个数偏高了。以前量过吗？
u: 去年体检还是130多
a: 这周去社区医院挂个号，让医生判断要不要吃药，先别自己去药店买 #bp_see_doctor
u: 好，明天就去
a: 量之前先坐着歇五分钟，别喝浓茶，数才准
u: 好的，我记住了
== 2026-03-24 19:30
u: 医生给开了氨氯地平，每天早上吃半片 #med_half
a: 从小剂量开始挺常见的。医生还交代什么了？
u: 少吃咸的，早晚各量一次记下来
a: 可以买个两克的限盐勺，炒菜按人头放盐，咸菜腐乳先停一停 #salt_spoon
u: 我就好那口腐乳
a: 那就一周一回，一回一小块
u: 老伴说她替我看着
== 2026-03-28 10:15
u: 跟你说个事，我们老房子那片要拆迁了 #demolition_notice
a: 这可是大事！是哪儿的房子？
u: 纺织厂家属院，三楼，住了快三十年 #old_house
a: 住这么久，肯定舍不得。面积多大？
u: 房本上写的62平 #area_62
a: 先把房本、土地证、户口本找出来复印几份，装修的票据有的话也留着 #docs_prepare
u: 装修的票早没了
a: 那就把现在屋里的样子拍照存下来，厨房卫生间都拍上 #photo_evidence
u: 行，下午就拍
== 2026-04-01 16:40
u: 今天摄影课讲九宫格构图
a: 就是把要拍的东西放在线的交叉点上吧？
u: 对，老韩老师让我们回去拍一组花 #teacher_han
a: 您可以在相机设置里把网格线打开，拍的时候让花落在交叉点上，旁边留点空 #grid_lines
u: 在哪儿打开？
a: 点相机右上角的设置，找“参考线”那一项打开 #grid_where
u: 找着了，屏幕上出来井字格了
== 2026-04-05 20:00
u: 今天清明，带豆豆给他太爷爷扫墓去了
a: 让孩子从小知道家里的老人，挺好的
u: 回来他写作业，b和d又写反了 #bd_confused
a: 教他两手握拳竖起大拇指，左手像b，右手像d，写之前比一比 #bd_trick
u: 这个好，我教了一辈子书都没想到
a: 您教的是中学生，一年级另有一套门道
u: 他写作业还磨蹭，一个钟头写不完 #homework_slow
a: 可以定个闹钟，十五分钟一段，中间歇五分钟，写完一段夸一句 #homework_timer
== 2026-04-09 20:10
u: 老伴她们广场舞队要去区里比赛了 #dance_contest
a: 好事啊！阿姨在队里跳哪个位置？
u: 她是领队，彩虹舞蹈队，二十二个人 #wife_leader
a: 领队最操心，您在后头多帮衬
u: 天天晚上七点在小区门口练 #dance_place_old
a: 跳完记得提醒她们拉伸腿
u: 有邻居嫌吵，找物业告状了 #noise_complaint
a: 可以把音箱朝着空地那边，音量小一点，九点前收，再主动找邻居打个招呼 #noise_advice
== 2026-04-12 08:30
u: 这几天早上量都是138/88上下 #bp_138
a: 比上个月降了不少，药起作用了
u: 晚上反倒高点，140出头
a: 早晚有点差别正常，接着记，复诊的时候把本子带给医生 #bp_log
u: 我拿豆豆用剩的田字格本记的
== 2026-04-16 15:00
u: 拆迁办来人了，姓崔，挺年轻的小伙子 #demolition_cui
a: 他们给了什么方案？
u: 要么拿钱，每平方一万八，要么等回迁房 #offer_18k
a: 回迁房一般得等两三年才交房。您和阿姨倾向哪个？
u: 等不起，想拿钱 #want_cash
a: 那先打听一下附近二手房的价，看一万八够不够买差不多大的 #check_prices
u: 旁边小区挂出来的都两万出头 #nearby_price
== 2026-04-20 19:40
u: 给老伴拍跳舞，脸全是黑的 #backlit_dark
a: 那是逆光，太阳在她背后。点一下屏幕上她的脸，再把旁边的小太阳往上拉 #backlight_fix
u: 小太阳是啥
a: 对焦框旁边那个太阳图标，往上拖画面就变亮 #backlight_icon
u: 试了，果然亮堂了
== 2026-04-25 21:00
u: 儿媳给豆豆报了围棋班，每周六上午 #weiqi_class
a: 下围棋能磨性子，正适合坐不住的孩子
u: 我送他去，一节课一个半小时
a: 您在外头等的时候，正好在附近拍拍照
u: 我也这么想的，那边有个小公园
== 2026-04-30 10:20
u: 想跟小崔再讲讲价，又怕谈僵了
a: 准备几条有根据的理由：房子朝南、阳台封了、前年刚换的水电，一条一条说，客气但别松口 #nego_reasons
u: 阳台是我们自己封的，算面积吗？
a: 一般不算进房本面积，但可以要求按附属物另外补 #balcony_comp
u: 好，我写个条子带着
a: 您是语文老师，条子肯定写得清清楚楚
== 2026-05-06 08:50
u: 复诊了，医生说还不够稳，药加到一整片 #med_full
a: 加量头几天留心脚脖子肿不肿，肿了要告诉医生 #ankle_swelling
u: 医生也是这么说的
a: 每天固定一个时间吃，别漏了
u: 老伴给我买了个七格的药盒
== 2026-05-10 16:30
u: 摄影班好几个同学都买了相机，我也有点心动
a: 您打算花多少？
u: 五千以内吧，太重的也背不动 #camera_budget
a: 那可以看看入门的微单，机身轻，配一个套机头就够，先去店里上手试试 #camera_advice
u: 儿子说帮我在网上比比价
a: 网上买也行，记得找正规旗舰店
u: 他说赶在我生日前买
== 2026-05-14 19:15
u: 谈下来了！每平方涨到一万九千五 #offer_195
a: 恭喜！您那几条理由起作用了
u: 封的阳台另算了八千块 #balcony_8000
a: 签字前每一项数字都核对一遍，协议带回家看一晚上再签 #sign_check
u: 定了下礼拜一签
== 2026-05-18 18:00
u: 今天把拆迁协议签了，心里石头落地 #signed
a: 前后谈了一个月，真不容易。什么时候要搬？
u: 六月底以前腾空 #move_deadline
a: 过渡的房子可以找离豆豆学校近点的，接送也方便 #temp_house_advice
u: 儿子也是这个意思
== 2026-05-23 09:40
u: 老伴她们比赛拿了二等奖！ #dance_second
a: 太厉害了！替阿姨高兴
u: 我在台下给她们拍了一百多张
a: 挑几张好的发到队里群里，大家肯定喜欢
u: 红裙子配绿草地，拍出来特别喜庆
== 2026-05-30 20:30
u: 相机买回来了！富士X-S20，带镜头一共八千一 #camera_bought
a: 比预算多了不少呀
u: 儿子出了三千，说是给我的生日礼物 #son_paid
a: 真孝顺。先别急着学手动，用自动挡拍熟了再说 #auto_mode_first
u: 说明书太厚了，看得眼花
a: 先看开机、对焦、回看照片三部分就够
u: 明天带豆豆去公园试试
== 2026-06-04 19:00
u: 豆豆期中考了，数学92，语文88 #midterm
a: 一年级这个分数很不错了
u: 语文扣的分都在看拼音写词语
a: 每天睡前玩五分钟拼音卡片，您念他写，错的第二天再考一遍 #pinyin_cards
u: 好嘛，老教师又得上岗了
== 2026-06-10 10:00
u: 开始打包了，光书就装了二十三箱 #books_boxes
a: 书沉，用小箱子装，大箱子留给被子衣服 #pack_tips
u: 老伴嫌我书多，让我卖掉一些
a: 常翻的和有纪念的留下，其余可以捐给社区图书室 #donate_books
u: 这个主意好，卖废品我舍不得
== 2026-06-16 08:30
u: 这几天早上血压都在128/82左右 #bp_128
a: 很平稳了，看来加量有效果
u: 就是天热了，动不动一身汗
a: 天热多喝水，早上别空着肚子出去遛弯
u: 脚踝也没肿
a: 那就好，接着按时吃药
== 2026-06-24 21:10
u: 搬完了，累得散了架
a: 辛苦了！现在住哪儿？
u: 在儿子家对面的锦绣花园租了个两室，一个月两千三 #live_jinxiu
a: 离豆豆学校近了吧？
u: 走着五分钟 #school_5min
a: 那接送轻松多了
u: 就是老伴跳舞还得坐车回老地方 #dance_place_mid
== 2026-07-01 19:50
u: 老伴她们舞队换地方了，挪到滨河公园小广场 #dance_place_new
a: 那边宽敞，也吵不着人
u: 离我们新家三站公交
a: 晚上回来让阿姨跟队友结伴走
u: 我去接她，顺带拍拍河边夜景
== 2026-07-05 21:30
u: 晚上在河边拍灯，照片全是糊的 #night_blur
a: 夜里光暗快门慢，手一抖就糊。把相机搁在栏杆上，或者买个小三脚架，再用两秒延时拍 #night_tripod
u: 两秒延时是干嘛的
a: 按完快门手离开了才拍，机身就不会被按抖
u: 学到了，明天再去试试
== 2026-07-09 16:00
u: 市里办老年摄影大赛，主题是“城市新貌” #contest_theme
a: 您可以报名试试！什么时候截止？
u: 八月十号，每人最多三张 #contest_deadline
a: 您拍过拆迁前后的老院子，正好对得上
u: 对啊，老院子我拍了不少
a: 可以一张老院子、一张新城区对比，再加一张有人物的 #contest_idea
u: 那我这两天去新区转转
== 2026-07-13 10:30
u: 体检结果出来了
a: 怎么样？
u: 血压正常了，甘油三酯2.6，偏高 #tg_26
a: 油炸的甜的少吃，晚饭主食减一点，坚持走路，三个月后复查 #tg_advice
u: 我就爱吃红烧肉
a: 一周一回，炖好了把上面的浮油撇掉
u: 行，听你的
== 2026-07-17 20:15
u: 豆豆放暑假了，儿媳又给他报了游泳班 #swim_class
a: 暑假学游泳正合适。谁接送？
u: 还是我，下午四点在区体育馆 #swim_time
a: 泳池边又湿又闷，您在外头等着就行
u: 我在门口树荫底下坐着拍拍麻雀
a: 带个水杯，别中暑了
== 2026-07-22 19:00
u: 豆豆围棋考过了25级 #weiqi_25
a: 太棒了！他自己高兴吗？
u: 高兴坏了，非要我请他吃冰淇淋
a: 小奖励值得
u: 老伴说我太惯着他
== 2026-07-27 10:00
u: 比赛的三张选好了
a: 选的哪三张？
u: 老院子的晾衣绳、拆房的挖掘机，还有老伴她们在新场地跳舞 #three_photos
a: 三张连起来就是一个故事
u: 组照题目叫《三十年》 #series_title
a: 好名字，有分量
== 2026-08-02 20:40
u: 拆迁补偿款到账了 #money_arrived
a: 总算落地了！打算怎么安排？
u: 还没想好，想以后买个小点的二手房
a: 钱先分几份存定期，别碰什么高息理财，尤其是上门推销的 #money_safe
u: 已经有人打电话说给我高利息了
a: 那多半是骗子，直接挂掉 #scam_call
u: 我知道，不上那个当
== 2026-08-09 09:10
u: 昨天把参赛照片发到组委会邮箱了 #submitted
a: 提前两天交，稳当。交了就放宽心
u: 老韩老师说那张晾衣绳有味道
a: 老师都这么说，说明有戏
u: 等九月出结果
== 2026-08-20 19:30
u: 这两天早上血压又到135了
a: 偶尔高一点不用慌，最近睡得好吗？
u: 天热睡不踏实，半夜老醒
a: 晚上少喝茶，空调调到26度，连续一周都高再去找医生 #bp_sleep
u: 好，我再观察观察
== 2026-09-05 10:00
u: 摄影比赛结果出来了，我得了优秀奖！ #contest_result
a: 恭喜张老师！头一回参赛就拿奖
u: 老伴比我还高兴，见人就说
a: 奖状可以裱起来，挂在新家客厅
u: 豆豆也上二年级了，时间过得真快
a: 下学期接着给他拍开学照
u: 那必须的
""", [
    ("刚学拍照那阵子照片老是朦朦胧胧的，你说毛病出在哪", ["lens_clean"], "paraphrase", []),
    ("头一回查出血压高，你让我怎么处理", ["bp_see_doctor"], "paraphrase", []),
    ("为了让我吃得淡一点，你推荐我买个啥", ["salt_spoon"], "paraphrase", []),
    ("刚听说老房子要拆那会儿，你叫我先把哪些东西翻出来", ["docs_prepare"], "paraphrase", []),
    ("孙子老把两个长得像的字母弄反，你出的是什么招", ["bd_trick"], "paraphrase", []),
    ("楼里有人投诉老伴她们太吵，你当时怎么建议的", ["noise_advice"], "paraphrase", []),
    ("给人拍照脸发黑，你教我怎么调亮", ["backlight_fix", "backlight_icon"], "paraphrase", []),
    ("去找拆迁的人讲价之前，你让我准备哪几条说法", ["nego_reasons"], "paraphrase", []),
    ("晚上在河边拍东西老不清楚，你教的办法是什么", ["night_tripod"], "paraphrase", []),
    ("补偿的钱到手以后，你建议我怎么存", ["money_safe"], "paraphrase", []),
    ("拍花怎么摆位置好看，你让我在手机里开什么", ["grid_lines", "grid_where"], "paraphrase", []),
    ("孙子半学期那次考试考了多少分", ["midterm"], "paraphrase", []),
    ("老伴她们去区里比，最后名次怎么样", ["dance_second"], "paraphrase", []),
    ("我交的那组照片最后评上了吗", ["contest_result"], "paraphrase", []),
    ("七月份孙子新报的是什么班", ["swim_class"], "paraphrase", []),
    ("拆迁办给两条路的时候我是怎么选的，为什么", ["want_cash"], "paraphrase", []),
    ("X-S20那台一共花了多少钱", ["camera_bought"], "lexical", []),
    ("老韩老师让我们回家拍什么来着", ["teacher_han"], "lexical", []),
    ("甘油三酯我查出来是多少", ["tg_26"], "lexical", []),
    ("彩虹舞蹈队一共有多少人", ["wife_leader"], "lexical", []),
    ("锦绣花园那套两室每月租金多少", ["live_jinxiu"], "lexical", []),
    ("我是哪天把拆迁协议签下来的", ["signed"], "temporal", []),
    ("我是哪天开始吃降压药的", ["med_half"], "temporal", []),
    ("参赛的照片我是哪天交上去的", ["submitted"], "temporal", []),
    ("拆迁最后谈定每平方多少钱", ["offer_195"], "update", ["offer_18k"]),
    ("我现在降压药一天吃多少", ["med_full"], "update", ["med_half"]),
    ("我现在住在哪个小区", ["live_jinxiu"], "update", ["old_house"]),
    ("老伴她们舞队现在在哪儿练", ["dance_place_new"], "update", ["dance_place_old", "dance_place_mid"]),
    ("买相机我本来打算花多少，儿子最后帮我出了多少", ["camera_budget", "son_paid"], "multi_hop", []),
    ("参赛照片里老伴她们跳舞那张，是在哪个公园拍的", ["three_photos", "dance_place_new"], "multi_hop", []),
])


conv("zh", "lz03", "u_amei", "阿梅", """
== 2026-02-24 21:30
u: 开学第一周，嗓子都喊哑了
a: 辛苦了梅老师，班上的小朋友还闹不闹？
u: 中班的娃儿些还好，就是有个叫睿睿的，一整天一句话都不说 #ruirui_silent
a: 是刚转来的吗，还是一直这样？
u: 上学期就这样，在幼儿园从来不开口，喝水都只是指一下 #ruirui_point
a: 先别逼他说话，允许他用点头、指东西来表达，让他觉得在班上是安全的 #ruirui_first_tip
u: 要得，我明天试下
u: 不说了，还要写观察记录
== 2026-02-27 22:10
u: 跟你说个私事，我和老公备孕大半年了，还莫得动静 #tty_8months
a: 谢谢你愿意跟我说。现在有在吃叶酸吗？
u: 吃的，每天一粒
a: 那挺好。可以用排卵试纸测一测，强阳那天和第二天同房，比较好把握 #ovulation_strip
u: 我婆婆隔三岔五打电话问，问得我心头好烦 #mil_calls
a: 被催确实有压力。这种事可以让你老公去跟他妈说，你不用每次都自己接招 #mil_husband_talk
u: 老陈那个人嘴笨得很
== 2026-03-02 20:45
u: 今天练车练到腰痛
a: 在练科目二吗？
u: 嗯，月中就要考了，倒车入库老是压线 #kemu2_soon
a: 压线多半是方向打晚了。倒车前先找好点位，后视镜里看到库角再打满 #reverse_tip
u: 王教练也是这么说的，但我一紧张就忘
a: 考前每天在脑子里把流程默念几遍，上车就不容易慌
== 2026-03-05 21:20
u: 婆婆寄了一箱土鸡蛋过来，还有一包中药 #mil_herbs
a: 中药是给谁喝的？
u: 说是她们乐山那边传的偏方，喝了好怀娃儿 #mil_herbs_leshan
a: 来路不明的中药先别喝，备孕期间吃药最好都问过医生。鸡蛋可以放心吃 #herbs_advice
u: 我也不敢喝，又怕她不高兴
a: 可以说医生让你暂时别吃中药，把理由推给医生，老人家比较容易接受 #herbs_excuse
u: 这个办法好
== 2026-03-09 21:00
u: 我们房贷还剩95万，看到利息好心痛 #loan_95
a: 现在月供多少？
u: 四千八，工资一大半都拿去还了 #payment_4800
a: 手头有闲钱的话可以提前还一部分。先问清楚银行收不收违约金、要提前多久预约 #prepay_ask_bank
u: 我们存了差不多十万 #savings_10w
a: 还的时候可以选缩短年限或者减少月供，缩年限省的利息更多 #shorten_vs_reduce
u: 那肯定选缩年限噻 #plan_shorten
== 2026-03-12 17:30
u: 科目二挂了，气死我了 #kemu2_fail
a: 抱抱，是哪一项出的问题？
u: 还是倒车入库，第二把右边压线了 #fail_reason
a: 第一次考挂的人很多，不代表你不会。补考要等多久？
u: 要十天以后才能约 #retake_wait
a: 这段时间多练右边的库，把点位练成习惯 #retake_practice
u: 晚上吃顿火锅安慰一下自己
u: 老陈说陪我去吃九宫格
== 2026-03-16 21:40
u: 今天终于跟睿睿妈妈聊了一下 #ruirui_mom_talk
a: 她怎么说？
u: 说他在屋头话多得很，最喜欢恐龙，啥子恐龙都认得 #ruirui_dinosaur
a: 在家能说、在园里不说，说明他主要是紧张，不是不会说
u: 那我咋个帮他嘛
a: 可以在区角放些恐龙模型和卡片，让他先动手摆弄，不要求他回答 #dino_corner
u: 明天就去淘宝买一套
== 2026-03-19 22:00
u: 婆婆又打电话，问我药喝了没有
a: 你是怎么回的？
u: 按你说的，说医生不让吃 #told_mil_doctor
a: 她接受了吗？
u: 嘀咕了几句，说我们城头的人讲究
a: 能嘀咕出来也算放下了，你没跟她硬碰，挺好
u: 这个月试纸强阳了 #strip_positive
a: 那就顺其自然，别太盯着，放松也很重要
== 2026-03-23 07:40
u: 我的天，早上测出两道杠了！！ #positive_test
a: 恭喜阿梅！！大好事！
u: 手都在抖，老陈还在睡
a: 可以先去医院抽血查HCG和孕酮，确认一下 #hcg_check
u: 末次月经是2月19号，预产期咋个算 #lmp_date
a: 按末次月经算大概是11月26号，后面医生会根据B超再核对 #due_1126
u: 先不跟婆婆说，等稳了再讲 #not_tell_mil
== 2026-03-26 20:30
u: 血查了，HCG翻倍挺好，孕酮有点低 #hcg_result
a: 医生有开药吗？
u: 开了黄体酮胶囊，早晚各一粒 #progesterone
a: 按时吃，别自己加减。这段时间别提重物，多休息 #early_rest
u: 那科目二补考还去不去嘛
a: 考试本身不剧烈，先问问医生。医生同意的话，那天穿平底鞋，别空腹去 #exam_pregnant
u: 好，下次复查问一下
== 2026-03-31 21:15
u: 睿睿今天拿着剑龙蹲到我旁边
a: 哇，他主动靠近你了
u: 我问他这个叫啥，他没开腔，但是把卡片递给我了 #ruirui_card
a: 很大的进步！你可以接过来说“谢谢睿睿，这是剑龙”，帮他把话说出来 #narrate_tip
u: 配班的小周老师说我太惯着他了 #xiaozhou
a: 有不同意见很正常，可以跟她约好先一起观察一个月
== 2026-04-03 12:30
u: 午休，好想吐，闻到食堂的味道就恶心 #nausea_start
a: 孕吐开始了，辛苦。少量多餐，包里备点苏打饼干，起床前先吃两块 #nausea_tip
u: 我以前最爱吃辣，现在看到火锅都怕
a: 孕早期口味变化很正常，过了三个月多半会好些
u: 科目二补考约到23号了 #retake_booked
== 2026-04-09 18:20
u: 今天做B超，看到胎心了！ #heartbeat
a: 太好了！什么感觉？
u: 想哭，老陈在旁边比我哭得还凶 #husband_cried
a: 哈哈，他藏不住。医生说下次什么时候去？
u: 说12周左右来建档，顺便做NT #nt_plan
a: 可以提前在医院公众号上约，建档号经常要抢 #book_jiandang
u: 晚上打电话告诉婆婆了 #told_mil
u: 她在电话头声音都变了
== 2026-04-14 21:50
u: 婆婆晓得以后高兴惨了，说要马上上来照顾我 #mil_come
a: 你自己想要她来吗？
u: 说实话不太想，她来了啥都要管
a: 可以说你现在还能上班，需要帮忙时一定叫她，先把时间往后放 #mil_delay
u: 她还说生了以后就住我们家次卧，帮忙带娃 #mil_room
a: 这个还早，先听着，等孕中期再跟老陈一起商量
u: 嗯，先拖到起
== 2026-04-18 16:00
u: 周末回驾校练了两把，教练不准我练太久
a: 教练挺细心的。练得怎样？
u: 左边的库稳了，右边还是有点虚
a: 右库可以把座椅调高一点，右后视镜看得更清楚 #seat_tip
u: 对了，医生说可以去考，别太紧张就行 #doctor_ok_exam
a: 那就放心去，你准备得很充分了
== 2026-04-23 15:10
u: 过了过了！科目二补考一把过！ #kemu2_pass
a: 太棒了阿梅！这次倒库顺吗？
u: 顺得很，坡道起步差点熄火，吓死
a: 有惊无险。科目三打算什么时候练？
u: 等孕吐好点再说，现在坐车都晕 #kemu3_later
== 2026-04-28 21:30
u: 今天去银行问了提前还款的事 #bank_visit
a: 银行怎么说？
u: 满一年就莫得违约金，要提前一个月在APP上预约 #no_penalty
a: 挺方便。定好还多少了吗？
u: 婆婆听说我们要还贷，说给我们拿五万 #mil_50k
a: 婆婆挺支持你们。这笔钱跟老陈说好、记个数，免得以后说不清
u: 那就一共还十五万 #prepay_15w
== 2026-05-04 20:00
u: 五一在屋头躺了五天
a: 休息好了吗？孕吐好点没？
u: 好一点了，早上还是要吐 #nausea_better
a: 可以试试姜片泡水，或者含颗话梅，不少人觉得有用 #ginger_tip
u: 婆婆又寄了腊肉香肠，说孕妇要多吃
a: 腊肉香肠太咸，孕期少吃，偶尔解解馋可以 #larou_tip
u: 我也这么想的，拿去送给我妈了
== 2026-05-09 21:10
u: 跟你说，今天睿睿在区角小声说了“霸王龙” #ruirui_first_word
a: 哇！他在幼儿园第一次开口？
u: 是的！就对着我一个人，声音像蚊子一样
a: 这时候别大惊小怪，也别让他当着全班再说一遍，自然地回一句就好 #dont_make_fuss
u: 我就说了句“对，霸王龙好凶”，他还笑了 #ruirui_smile
== 2026-05-14 20:40
u: 在APP上约好提前还款了，6月15号扣款 #prepay_date
a: 好的，最后选的缩短年限吗？
u: 跟老陈又商量了，改成减月供了 #plan_reduce
a: 怎么改主意了？
u: 娃儿出生以后用钱的地方多，每个月少还点压力小些 #reduce_reason
a: 很实在的考虑，现金流宽松些心里踏实
== 2026-05-20 14:30
u: 今天建档，顺便把NT做了 #jiandang_day
a: 结果还好吗？
u: NT是1.3，医生说正常 #nt_result
a: 太好了，这一关过了
u: 医生看B超说娃儿小几天，预产期改成12月1号了 #due_1201
a: 按B超核对很常见，以后就按新的日子算
u: 还查出来有点贫血，让我每天吃一片铁剂 #anemia
a: 铁剂空腹吃吸收好，伤胃就饭后吃，别和牛奶、茶一起喝 #iron_tip
== 2026-05-25 21:00
u: 婆婆又开始了，说我怀起娃儿还学车，出了事咋个办 #mil_driving
a: 她是担心你。你自己觉得身体吃得消吗？
u: 医生都说可以，只是别太累
a: 可以把医生的话原样转给她，再让老陈帮你说一声
u: 她还说我现在不爱吃辣了，肯定是儿子
a: 哈哈，这个老说法没有科学依据，听听就好
u: 我跟老陈说了，男娃女娃都一样 #boy_girl
== 2026-06-01 18:30
u: 今天六一，班上演节目，累惨了
a: 辛苦啦，节目顺利吗？
u: 睿睿站在最后一排，虽然没唱，但是跟着做了动作 #ruirui_june1
a: 能站上台就很不容易，他在一点点往前走
u: 睿睿妈妈在下面眼泪都出来了
a: 很珍贵的画面，可以写进他的成长档案 #growth_record
== 2026-06-05 20:20
u: 开始练科目三了，上路还是有点怕 #kemu3_start
a: 第一次上真实道路紧张很正常。最怕哪里？
u: 变道，后头的车一按喇叭我就慌
a: 变道先打灯，看后视镜，再回头看盲区，三秒后再慢慢打方向 #lane_change
u: 教练说我现在怀起的，坐姿要调一下
a: 座椅往后一点，安全带下面那根从肚子下方过，别勒在肚子上 #seatbelt
== 2026-06-10 21:40
u: 婆婆说国庆就上来，等我坐月子 #mil_october
a: 比之前说的早一些。住的地方怎么安排？
u: 我们家就两室，她住次卧的话娃儿生了就莫得地方了
a: 可以考虑在同一个小区给婆婆短租一套小的，离得近又各有空间 #rent_nearby_idea
u: 想法好，就是不晓得她愿不愿意
a: 让老陈去说，重点讲“方便妈休息”，而不是“不想一起住” #husband_frame
== 2026-06-16 20:15
u: 昨天扣款了，十五万还进去了 #prepay_done
a: 恭喜！新的月供出来了吗？
u: 出来了，现在每个月四千零五十 #payment_4050
a: 每个月少了七百多，生娃以后能宽松不少
u: 剩下的贷款还有八十万
a: 以后再有闲钱，可以过一年再看要不要还一笔 #prepay_again
u: 要得，先把娃儿生了再说
== 2026-06-20 21:00
u: 今天产检抽了无创DNA，要等两周出结果 #nipt
a: 等结果难免焦虑，尽量别天天上网搜
u: 医生说我体重长得有点快，一个月胖了五斤 #weight_gain
a: 晚饭主食减一点，水果别一次吃太多，饭后散步二十分钟 #weight_tip
u: 我最近迷上冰西瓜了
a: 西瓜糖分不低，一天一两块就够了
== 2026-06-25 20:00
u: 科目三约到7月3号了 #kemu3_booked
a: 好，还有一周多可以练
u: 王教练说我灯光那一项老是记混 #light_confuse
a: 可以把灯光口令写成小卡片，每天在家闭着眼睛比划五遍 #light_cards
u: 老陈说他来考我
a: 好主意，他念口令你做动作，两个人都有参与感 #light_husband
== 2026-06-30 21:30
u: 学期快完了，睿睿现在会小声跟我和同桌讲话了 #ruirui_talks_now
a: 真为你们高兴！他同桌是谁？
u: 一个叫糖糖的女娃娃，很会照顾人 #tangtang
a: 有个信任的小伙伴对他帮助很大，下学期可以继续让他们坐一起 #keep_buddy
u: 小周老师也说还是我的办法有用 #xiaozhou_agree
== 2026-07-03 17:40
u: 科目三过了！一百分！ #kemu3_pass
a: 太厉害了！灯光没记混吧？
u: 全对，老陈的抽查有用
a: 那就剩科目四了，刷刷题就好
u: 约了下周考
== 2026-07-09 20:10
u: 无创结果出来了，低风险 #nipt_result
a: 太好了，可以安心了！
u: 婆婆同意在我们小区租个一室的了，国庆住进来 #mil_rent
a: 这样挺好，各有空间，帮忙也方便
u: 老陈去说的，说完婆婆自己还挺高兴
a: 看来老陈嘴也不笨嘛
== 2026-07-14 19:30
u: 科目四考完了，驾照拿到手了！！ #license_got
a: 恭喜！从科目二挂科到拿证，一路不容易
u: 但是老陈不准我现在开车，说等生了再说 #no_drive_now
a: 孕期开车确实要谨慎，可以偶尔在近处开开，保持手感 #drive_pregnant
u: 那我就周末去超市开一下
== 2026-07-19 21:00
u: 放暑假了，好巴适
a: 好好休息！最近身体怎么样？
u: 昨晚第一次感觉到胎动，像小鱼在吐泡泡 #first_move
a: 好神奇！可以每天固定时间感受一下
u: 医生让铁剂加到一天两片了，血色素还是低 #iron_two
a: 按医生说的吃，多吃点红肉和动物肝脏，配点维生素C帮助吸收 #iron_food
u: 晓得了，我妈天天给我炖猪肝汤
== 2026-07-24 20:30
u: 今天去看了婴儿床，贵得吓人
a: 婴儿床用的时间不长，可以看看二手或者亲戚家用过的
u: 睿睿妈妈发消息说，睿睿在家说想梅老师了 #ruirui_miss
a: 这是对你最好的肯定
u: 下学期我还带他们班，升大班了 #next_term
a: 那正好再陪他们一年
u: 今天不聊了，早点睡
""", [
    ("我们现在每个月房贷要还好多", ["payment_4050"], "update", ["payment_4800"]),
    ("婆婆上来以后住哪里，最后咋个定的", ["mil_rent"], "update", ["mil_room"]),
    ("娃儿的预产期现在算的是哪天", ["due_1201"], "update", ["due_1126"]),
    ("补血的药我现在一天吃几片", ["iron_two"], "update", ["anemia"]),
    ("我是哪天晓得自己怀上了的", ["positive_test"], "temporal", []),
    ("我科目二第一次没考过是哪天", ["kemu2_fail"], "temporal", []),
    ("睿睿头一回在园里出声是哪天", ["ruirui_first_word"], "temporal", []),
    ("提前还贷那笔钱，我们自己出了好多，婆婆出了好多", ["savings_10w", "mil_50k"],
     "multi_hop", []),
    ("睿睿在家最迷的是啥，他在园里开口说的第一个词又是啥", ["ruirui_dinosaur", "ruirui_first_word"],
     "multi_hop", []),
    ("NT查出来是好多", ["nt_result"], "lexical", []),
    ("糖糖是哪个娃儿", ["tangtang"], "lexical", []),
    ("排卵试纸你说咋个用", ["ovulation_strip"], "lexical", []),
    ("小周老师开头对我带睿睿的办法有啥看法", ["xiaozhou"], "lexical", []),
    ("黄体酮医生让我一天吃几次", ["progesterone"], "lexical", []),
    ("开学那周我说睿睿不开口，你最先叫我咋个对他", ["ruirui_first_tip"], "paraphrase", []),
    ("为了让那个不爱说话的娃儿慢慢融进来，你叫我在教室里摆些啥", ["dino_corner"], "paraphrase", []),
    ("睿睿第一回拿东西给我看的时候，你教我咋个接", ["narrate_tip"], "paraphrase", []),
    ("睿睿第一次小声出声以后，你提醒我注意啥", ["dont_make_fuss"], "paraphrase", []),
    ("婆婆寄的那包药我不想喝，你教我咋个跟她讲", ["herbs_excuse", "told_mil_doctor"], "paraphrase", []),
    ("婆婆寄来的那包药说是拿来干啥的", ["mil_herbs_leshan"], "paraphrase", []),
    ("怀孕后老想吐，你给过我哪些办法", ["nausea_tip", "ginger_tip"], "paraphrase", []),
    ("倒库老出线那阵，你分析是啥原因", ["reverse_tip"], "paraphrase", []),
    ("科目三开灯那一项我老搞混，你出了啥主意", ["light_cards", "light_husband"], "paraphrase", []),
    ("婆婆来帮忙坐月子，你建议她住哪里", ["rent_nearby_idea"], "paraphrase", []),
    ("刚起心提前还贷那阵，你叫我先去问清楚啥", ["prepay_ask_bank"], "paraphrase", []),
    ("还贷方式后头为啥改了", ["reduce_reason"], "paraphrase", []),
    ("第一次看到娃儿心跳那天，我老公啥反应", ["husband_cried"], "paraphrase", []),
    ("儿童节那天睿睿表现咋样", ["ruirui_june1"], "paraphrase", []),
    ("第一次觉得娃儿在肚子里动是啥感觉", ["first_move"], "paraphrase", []),
    ("拿到驾照以后老陈准不准我开车", ["no_drive_now"], "paraphrase", []),
])


conv("zh", "lz04", "u_laowu", "老吴", """
== 2026-04-03 22:10
u: 睡不着 找个人摆哈龙门阵
a: 我在呢吴哥，今天咋了？
u: 大货车卖了 今天交的车
a: 开了多少年了？舍得吗？
u: 十九年 腰杆都跑废了 #truck_years
a: 身体要紧，歇下来是对的。接下来有啥打算？
u: 跟以前一起跑车的老刘合伙开个小面馆
u: 老婆在超市上班 女儿读高三 总要有个进项
a: 开面馆好啊，重庆人一天都离不得小面。铺面找好没有？
== 2026-04-05 19:40
u: 今天看了两个铺面
a: 咋样，说来听听
u: 一个在南坪 挨到一所中学 四十五个平方 月租六千五 #nanping_shop
u: 一个在渝北轻轨站出口 六十平 月租九千 还要五万转让费 #yubei_shop
a: 两个各有好处。你们主要做早上还是全天？
u: 小面主要靠早上那一波
a: 那这几天早上七点到九点，分别去两个门口站着数人头，看过路的有多少、手里拿早饭的有多少 #count_people
u: 要得 明早就去蹲
== 2026-04-08 01:20
u: 脚大拇指突然肿起好大 痛得睡不着 #gout_first
a: 吴哥，啥时候开始的？红不红，烫不烫？
u: 又红又烫 晚上跟老刘喝了啤酒吃了火锅
a: 听起来很像痛风发作。先拿毛巾包冰袋敷十几分钟，脚垫高，多喝温开水，千万别热敷也别揉 #gout_ice
u: 冰箱里只有冻饺子
a: 冻饺子装袋子包上毛巾也行。天亮一定去医院
== 2026-04-10 20:30
u: 医院看了 确实是痛风 尿酸五百六 #uric_560
a: 偏高不少。医生开了啥药？
u: 秋水仙碱 说痛起来的时候吃 一天不超过三颗 #colchicine
u: 等不痛了再吃非布司他 一天二十毫克 要长期吃 #febuxostat_20
a: 饮食也得跟着改：啤酒、动物内脏、海鲜、火锅和熬久了的浓汤尽量别碰，每天喝够两升水 #gout_diet
u: 啤酒都不能喝了啊
a: 啤酒最伤，实在馋了换成苏打水
u: 老子的命苦哦
a: 命不苦，脚不痛了比啥都强
== 2026-04-13 22:40
u: 悦悦二模考了五百四十一 #ermo_541
a: 离高考还有时间。她情绪咋样？
u: 回来关到屋头哭 饭都没吃
a: 孩子心里肯定比你还难受。你跟她说了啥没有？
u: 我就说了句下回努力 她把门一摔
a: 这时候先别提分数。端碗吃的放她门口，说一句“爸爸不看分，饿了就出来吃”，等她愿意讲了你只听不评 #talk_daughter
u: 我这个大老粗 嘴笨
a: 嘴笨不要紧，她看得到你做的
== 2026-04-16 20:00
u: 两边都蹲了三个早上
a: 辛苦了，看出啥名堂没有？
u: 南坪一个钟头过四百多人 好多学生跟上班的
u: 渝北人更多 但是那笔转让费拿不出来 定了南坪 #choose_nanping
a: 学生加上班族，早饭生意稳。房东那边谈了吗？
u: 明天约房东 那个嬢嬢看起精得很
a: 可以这样谈：争取一个月免租装修期；合同签三年，写明每年涨租不超过百分之五；押金最多押两个月 #rent_negotiate
u: 记到手机上了
== 2026-04-19 21:15
u: 跟老刘把钱算了一下
u: 总共凑二十万 我出十二 他出八
u: 就按六四分 我六他四 #share_64
a: 亲兄弟明算账。建议写个合伙协议，把出资、分工、分红、以后谁想退出咋办都写清楚；再单独办一张卡专门走店里的钱，每周对一次账 #partner_advice
u: 老刘说都是兄弟伙 写那个伤感情
a: 写清楚了才不伤感情，以后有分歧有个依据
u: 那我再劝劝他
a: 好，慢慢来，别为这个闹得不愉快
== 2026-04-22 19:50
u: 大姐从万州打电话来 说老妈在院坝头摔了一跤 #mom_fall
a: 严重吗？老人家多大年纪了？
u: 七十八 手杵破了皮 骨头没得事 #mom_age
u: 一个人住在忠县老家 我们三姊妹都不放心
a: 可以想想几条路：接到重庆跟你们住；送镇上的养老院；或者在村里请个人白天照看，每天给你们报个平安 #mom_options
u: 她肯定哪都不想去
a: 老人恋家很正常，先听听她自己咋想
== 2026-04-26 20:40
u: 合同签了 房东只肯免二十天 #rent_free
u: 签三年 月租六千五 涨租那条也写进去了
a: 二十天也是争取来的。装修找好人没有？
u: 老刘介绍的蒋师傅 报价四万八 #jiang_quote
u: 我想压到四万以内
a: 有些钱可以省，桌椅买二手、墙面刷白就行；但厨房排烟、下水和地面防滑砖千万别省，面馆出问题多半就在这几处 #reno_advice
u: 要得 我跟他说
a: 价钱谈定了记得让他写在单子上
== 2026-04-30 21:30
u: 开工了 砸墙砸了一天
u: 灰大得很 我在里头打杂
a: 记得戴口罩，腰不好别去搬重的
u: 老刘还是不肯写协议
a: 换个说法试试：不是防他，是万一你们哪个出点事，两家屋头的人说得清楚
u: 这个说法他可能听得进
a: 慢慢来，他会想通的
== 2026-05-04 22:00
u: 脚不痛了 今天开始吃降尿酸的药
a: 好，按时吃。刚开始几周偶尔痛一下也别自己停药
u: 熬牛骨汤我总得尝味道嘛
a: 尝一小口含一下就吐掉，别咽下去；吐了漱个口再尝下一锅 #taste_broth
u: 老刘舌头不行 吃啥都说淡
a: 哈哈，那调味还是得靠你
== 2026-05-08 20:15
u: 跟大姐幺妹商量好了
u: 等悦悦高考完 把老妈接到重庆跟我们住 #mom_plan_cq
a: 这样你们都照看得到。她自己愿意吗？
u: 嘴上说不来 大姐劝了两天才松口
a: 老人家都这样，心里其实是想跟儿女在一起的
u: 两室一厅 悦悦那间让给她奶奶 九月悦悦就去读大学了
a: 安排得很周到。老人来了可以带她去附近公园，认识几个老姐妹
== 2026-05-12 21:45
u: 悦悦说她想学临床 以后当医生 #wants_medicine
u: 我想她读师范 当老师稳当
a: 她说过为啥想当医生吗？
u: 说她奶奶摔那一跤 她想学了能照顾屋头的人
a: 这个理由很难得。你可以把担心讲给她：学医苦、读的年限长，但最后让她自己选 #major_talk
u: 也是 又不是我去读
== 2026-05-17 20:30
u: 跟老刘吵了一架
u: 他要买个八千块的煮面炉 我说三千的就够了 #stove_fight
a: 两个人都有道理。以后定个规矩：超过两千块的开销，两个人都点头才买 #spend_rule
u: 这个规矩要得
u: 最后买了个五千的 各退一步
a: 挺好，合伙做生意就是这样商量着来
== 2026-05-21 19:10
u: 菜单定了 二两小面八块 #price_8
u: 牛肉面十五 豌杂面十二
a: 跟周边比怎么样？
u: 街对面一家卖七块 我们分量足点
a: 可以的。别跟人打价格战，把面和油辣子做出味道，客人认的是味道 #pricing_advice
u: 面是在九龙坡黄记面坊订的 一斤两块二 #huangji
a: 碱面好坏差别很大，开张前多试几锅
== 2026-05-26 21:50
u: 装修完了 比预算多了六千 #reno_over
u: 下水管全部重新换的
a: 这钱花得值，面馆下水一堵就要命。哪天开张？
u: 老刘翻黄历选了个日子
a: 开张头几天可以搞点小活动：前三天每碗送个煎蛋，或者充一百送二十，但别拖太长，不然客人光等优惠 #opening_promo
u: 送煎蛋好 学生娃喜欢
a: 学生娃长身体，一个蛋很实在
== 2026-05-30 22:30
u: 今天正式开张了 #opening_day
u: 从早上六点半忙到下午两点
a: 恭喜吴哥！生意咋样？
u: 三百二十碗 #first_day_bowls
a: 开门红！累坏了吧，泡个脚早点睡
u: 腰杆像断了一样
a: 明天还要早起，快去睡
== 2026-06-03 21:20
u: 脚又有点痛 没得上回凶 #gout_second
a: 这几天站得久、出汗多，水又喝得少，容易犯。药按时吃了吗？
u: 吃了的 就是一忙起来忘了喝水
a: 在灶台边放个一升半的大水杯，每送走一拨客人就喝几口，一天喝完两杯 #water_bottle
u: 要得 明天带个大杯子去
== 2026-06-06 22:50
u: 悦悦明天高考
u: 我比她还紧张 不晓得说啥子
a: 今晚啥都不用多说，照平常一样吃饭睡觉。考完一科别问她考得咋样 #exam_eve
u: 明早我送她去考场 店里老刘先顶到
a: 好，送到门口给她个拥抱就够了
== 2026-06-09 18:30
u: 考完了 悦悦说数学好难 #math_hard
a: 难的话大家都难。她现在心情咋样？
u: 跟同学出去吃烤肉了
a: 那就好，让她放松几天
u: 店里也理顺了 老刘管进货跟收钱 我守灶台 #roles
a: 各管一摊最好，账也好对
== 2026-06-14 20:20
u: 把老妈从忠县接过来了 #mom_arrived
a: 老人家路上辛苦了。晚上吃的啥？
u: 悦悦给她奶奶煮的面
a: 孙女煮的面，她肯定吃得香
== 2026-06-20 21:40
u: 头一个月对账 差了一千八 #account_gap
u: 老刘有几回用他自己微信给菜贩子付的钱 没记 #account_cause
a: 找出来就好，不是谁贪了。以后进货付款都走店里那个账户，小票拍照发到一个群里 #receipt_tip
u: 老刘脸都红了 说不是故意的
a: 你信得过他就行，规矩定好就不会再出这种事
u: 协议他也答应签了 #agreement_signed
a: 那就好，签了你们两个都踏实
== 2026-06-25 22:10
u: 分出来了 五百九十八 #score_598
u: 比二模多了五十几分
a: 太好了！物理类还是历史类？
u: 物理类 她哭了 这回是高兴哭
a: 别光看分数，查一下全市位次，填志愿主要看位次 #check_rank
u: 一万八千多名
a: 这个位次选择面挺宽的，慢慢挑
== 2026-06-28 21:00
u: 看了一晚上志愿书 眼睛都看花了
a: 辛苦了，看出点眉目没有？
u: 重医临床去年要六百一十几 够不到 #cqmu
u: 川北医学院临床去年五百八十五 #chuanbei_line
a: 可以按冲稳保来排：前面放一两个去年线比她高一点的冲一下，中间放分差不多的，后面一定放几个稳稳能上的兜底 #tier_advice
u: 她一心想学临床
a: 那兜底的也尽量选临床或者相近的，比如医学检验
== 2026-07-02 20:45
u: 志愿交了 #submitted
u: 第一个填的川北医学院临床 #first_choice
a: 终于落地了，剩下的交给时间
u: 悦悦说要来店里帮忙 收了两天钱
a: 让她也体会下你们的辛苦，挺好
== 2026-07-08 21:30
u: 去复查了 尿酸四百八 #uric_480
u: 医生说还不够低 非布司他加到四十毫克 #febuxostat_40
a: 比上次降了不少，加量后一个月再查。最近还吃火锅吗？
u: 老刘喊我喝啤酒 我都推了
a: 推得好！水也要喝够
== 2026-07-14 20:10
u: 生意还可以 老刘想在门口摆外摆
u: 他又拿了四万出来 买冰柜跟桌椅
u: 重新算了 现在我们两个五五开 #share_55
a: 比例改了记得把协议也改一下，两个人都签字
u: 房东嬢嬢说外摆不能挡到她铺子的门
a: 那摆的时候留出她门口的位置，别为这点事闹僵
== 2026-07-19 19:30
u: 录取了 川北医学院 临床医学 #admitted
a: 恭喜！悦悦要当医生了
u: 在南充 坐高铁两个钟头
u: 她奶奶高兴得给她包了个红包
a: 一家人都高兴，今晚吃顿好的？
u: 就在自己店里吃 哈哈
== 2026-07-26 21:10
u: 老妈闹着要回忠县
u: 说楼太高 出门一个熟人都没得 电视里说话她也听不惯 #mom_unhappy
a: 老人离开熟地方，很难适应。她回去一个人住你们放心吗？
u: 不放心 大姐说镇上新开了个养老院
a: 可以先去看看：离老家近不近、有没有医生值班、伙食合不合她胃口，最好让她自己去住两天试试 #nursing_check
u: 这周末我开车带她去看
== 2026-08-02 22:20
u: 这几天四十度 店里像蒸笼
u: 中午几乎没得人
a: 大热天中午可以加凉面、冰粉和酸梅汤，热面卖早上，凉的卖中午 #summer_menu
u: 冰粉悦悦会做
a: 那正好让她走之前露一手
== 2026-08-09 20:00
u: 老妈住进镇上养老院了 #mom_nursing
u: 一个月两千四 包吃住 有医生 #nursing_fee
a: 她住得惯吗？
u: 里头有两个她以前的老姐妹 天天打牌
a: 有熟人就好多了
u: 钱我们三姊妹平摊 #fee_split
a: 这样分担大家都不会太累
== 2026-08-16 21:00
u: 菜籽油跟牛肉都涨了
u: 二两小面涨到九块了 #price_9
a: 涨一块大部分熟客能接受，门口贴个说明就好
u: 有个老头嘟囔了两句 还是吃了
a: 味道在，客人就在
u: 脚一个多月没痛过了
a: 说明药和喝水都起作用了，继续保持
== 2026-08-23 21:40
u: 第一次分红 我跟老刘一人分了九千 #first_dividend
a: 恭喜！开张不到三个月就分到钱了
u: 老婆说拿一半给悦悦存起
u: 想请个帮工 我们两个熬不住了
a: 请人之前先说好试用期、工钱、哪天休息，写张纸两边签字 #hire_advice
u: 老刘有个外侄 二十岁
a: 自家亲戚用着放心，但规矩也要一样讲清楚
== 2026-08-30 21:20
u: 帮工来了 老刘外侄小谭 一个月四千 #hire_tan
u: 手脚麻利 就是爱耍手机
a: 年轻人嘛，说好干活的时候手机放柜子里
u: 下周送悦悦去南充
u: 每个月给她两千生活费 #allowance
a: 第一次离家，多给她打打电话
u: 舍不得哦
a: 舍不得也得放手，她会越走越好的
""", [
    ("看铺面那会儿你教我咋个判断哪边客人多", ["count_people"], "paraphrase", []),
    ("签租房合同之前你让我跟房东争取哪些条件", ["rent_negotiate"], "paraphrase", []),
    ("脚第一回肿起来那天晚上你叫我咋个处理", ["gout_ice"], "paraphrase", []),
    ("得了痛风以后哪些吃的喝的你说要戒", ["gout_diet"], "paraphrase", []),
    ("女儿模考没考好躲起来哭那次你叫我咋做", ["talk_daughter"], "paraphrase", []),
    ("刚跟老刘说好各拿多少钱那天你给了啥建议", ["partner_advice"], "paraphrase", []),
    ("装修的时候你说哪几样钱不能抠", ["reno_advice"], "paraphrase", []),
    ("我妈摔跤那回你给我出了哪几个主意", ["mom_options"], "paraphrase", []),
    ("开张头几天招揽客人你出了啥点子", ["opening_promo"], "paraphrase", []),
    ("我以前开了几年大车", ["truck_years"], "paraphrase", []),
    ("我妈在重庆为啥待不惯", ["mom_unhappy"], "paraphrase", []),
    ("报学校的时候你说顺序要咋个安排", ["tier_advice"], "paraphrase", []),
    ("店里的活路我跟老刘各管哪一摊", ["roles"], "paraphrase", []),
    ("开业那天生意咋样 出了多少份", ["first_day_bowls"], "paraphrase", []),
    ("第一次算账少了钱是咋回事", ["account_gap", "account_cause"], "paraphrase", []),
    ("悦悦最后考上的是哪个学校", ["admitted"], "paraphrase", []),
    ("秋水仙碱医生说咋个吃", ["colchicine"], "lexical", []),
    ("蒋师傅最开始报的多少钱", ["jiang_quote"], "lexical", []),
    ("渝北那个铺面要多少转让费", ["yubei_shop"], "lexical", []),
    ("悦悦二模考了好多分", ["ermo_541"], "lexical", []),
    ("黄记面坊的面好多钱一斤", ["huangji"], "lexical", []),
    ("面馆是哪天开张的", ["opening_day"], "temporal", []),
    ("我头一回痛风发作是哪天", ["gout_first"], "temporal", []),
    ("悦悦的志愿是哪天交上去的", ["submitted"], "temporal", []),
    ("降尿酸那个药我现在一天吃好大的量", ["febuxostat_40"], "update", ["febuxostat_20"]),
    ("现在店里我跟老刘的股份咋个分", ["share_55"], "update", ["share_64"]),
    ("我妈现在住在哪儿", ["mom_nursing"], "update", ["mom_plan_cq", "mom_arrived"]),
    ("二两小面现在卖好多钱", ["price_9"], "update", ["price_8"]),
    ("悦悦高考的分比川北临床去年的线高出多少", ["score_598", "chuanbei_line"], "multi_hop", []),
    ("我妈养老院的钱分下来我一个月要出多少", ["nursing_fee", "fee_split"], "multi_hop", []),
])


conv("zh", "lz05", "u_laozhou", "老周", """
== 2026-10-15 20:30
u: 小助手你好，儿子给我装的这个。我老伴上礼拜做了心脏搭桥，还在医院躺着呢
a: 周叔您好！阿姨手术顺利吗？搭了几根桥？
u: 三根，大夫说挺顺利 #bypass3
u: 我天天医院家里两头跑，还得接送上二年级的孙女乐乐
a: 家里没人能搭把手吗？
u: 儿子儿媳都在深圳上班，乐乐跟着我们老两口过 #son_sz
u: 我这辈子没做过饭，都是老伴整，愁死了
a: 没事，慢慢学，我一步步教您
== 2026-10-17 18:10
u: 今儿上午出院了，总算回家了 #discharge
a: 太好了！阿姨回家心情肯定好多了。大夫开了啥药？
u: 阿司匹林、阿托伐他汀，还有个氯吡格雷，说得吃满一年不能停 #clopi
u: 倍他乐克半片，一天两回，早晚各一次 #metop_half
a: 记得挺清楚。买个分格药盒，早晚分开装，一周装一回不容易漏
u: 大夫还说吃得清淡，清淡到啥份上啊
a: 一天盐不超过5克，买个控盐勺量着放；酱油、咸菜、大酱都算盐，尽量少用 #salt_rule
u: 大酱也算？这可要了我老命了哈哈
== 2026-10-19 16:40
u: 刚接完乐乐，三点四十放学，校门口人贼多
u: 班级群里老师让接龙，我整不明白
a: 点开群里那条接龙，在最后一行填上乐乐的名字，再点发送就行
u: 整上了哈哈，群里还有家长唠起来没完
a: 家长群里注意几样：老师发通知回一句“收到”就行；别在群里闲聊、发广告；孩子的事私聊老师 #group_rules
u: 明白了，我就怕给孩子丢人
a: 您这么上心，乐乐有面子着呢
== 2026-10-21 18:50
u: 老伴让我学着熬点粥，她胃口不好
a: 那先从小米南瓜粥开始，最简单
u: 咋整，你说细点
a: 小米半碗淘一遍，南瓜一小块切丁，水放米的十倍，大火开了转小火熬四十分钟，中间搅几下别糊底 #porridge
u: 要放糖不？
a: 不用，南瓜本身就甜，阿姨也得控着点
u: 熬好了，她喝了两碗，说比医院食堂强多了哈哈 #porridge_react
a: 头一回就成功，周叔有天分！
== 2026-10-24 20:10
u: 今天大刘打电话，说今年是我们入伍四十年，想聚一聚
a: 四十年了，真值得纪念！你们当年在哪当兵？
u: 八六年一块入的伍，在丹东当工程兵，一个连的 #army
a: 那感情可深了。这回谁张罗？
u: 大刘腿脚不好，让我牵头，我哪干过这个
a: 先建个微信群把人拉齐，让大家接龙报名；钱收上来由一个人管，每笔开销都在群里晒出来 #org_tips
u: 接龙我会了哈哈，上回家长群学的
u: 估计能来十五六个吧
== 2026-10-27 16:30
u: 乐乐口算又错了五道，都是进位加法
a: 二年级进位加法容易马虎。一做题她就着急吗？
u: 一看作业就磨叽，我也急
a: 可以用扑克牌玩：每人翻两张，谁先说出和谁拿走，一天玩十分钟，比做题有意思 #poker_game
u: 这招好，家里正好有扑克
u: 周六上午还得送她去少年宫上舞蹈班 #class_dance
a: 跳舞好，孩子身体协调，您也能歇会儿
u: 我就在楼下大厅坐着看手机哈哈
== 2026-10-30 19:20
u: 今儿学着炒土豆丝，粘了一锅底
a: 哈哈头一回都这样。切好了泡水没有？
u: 没泡，切完就下锅了
a: 切完泡十分钟清水，把淀粉洗掉再沥干；锅烧热了再倒油，大火快炒，出锅前淋点醋
u: 老伴说丝切得跟筷子似的，太粗了哈哈
a: 刀工慢慢练，粗点也能吃
== 2026-11-02 20:30
u: 小区又闹腾起来了
a: 咋了周叔？
u: 我们小区一直是宏泰物业管，合同年底到期，人家不续了 #wy_old
a: 换物业是大事。您家有啥想法？
u: 就盼着能有人管管楼道，堆得贼埋汰
u: 还有暖气，昨天一号开始供的，摸着温乎乎的不热
a: 刚供暖可能还在排气，过几天再看，阿姨刚做完手术可别冻着
== 2026-11-05 19:40
u: 儿子给我寄了个新手机，华为的，屏贼大
a: 太好了！用着习惯吗？
u: 我们楼老李天天拍短视频，好几百粉丝，我也想整
a: 拍做饭就挺好，您正学着呢
u: 对，那咋拍好看
a: 手机竖着拿，找东西架稳；站窗户边或者开亮灯，别背着光；一条别超过一分钟 #shoot_tips
u: 一分钟够嘎哈的
a: 只拍切菜、下锅、出锅几步，剩下的剪掉
== 2026-11-08 10:10
u: 老伴说想下楼溜达，我怕她累着
a: 大夫让适当活动吧？
u: 嗯，说能走，别太累
a: 从一回十分钟开始，平地慢走，每周加五分钟；走着能说话不喘就行，胸闷马上停 #walk_plan
u: 外头这么冷能去吗
a: 太冷容易诱发心绞痛，早上别去，挑中午暖和的时候，或者先在屋里走
u: 行，中午我陪她在小区转转
== 2026-11-11 20:20
u: 聚会群建好了，接龙报名已经十四个了
a: 效率真高！时间地点定了吗？
u: 定的12月12号礼拜六中午
u: 饭店订的鑫源酒楼，离大伙都近 #rest_old
a: 问问包间有没有最低消费，能不能自带酒
u: 每人先交两百，多退少补
a: 钱您记个账，结完在群里公布
== 2026-11-14 11:10
u: 暖气还是不热，屋里冻手
a: 找物业说了吗？
u: 物业来测温了，才16度，说是热力公司那头的事 #temp16
a: 室温一般得到18度，不达标可以打热力公司客服，或者打12345反映
u: 打了12345，说三天内来人
a: 这几天阿姨那屋先用电暖气顶一顶，别离被子太近
== 2026-11-18 18:30
u: 老伴说想吃鱼，我哪会整鱼啊
a: 清蒸鱼最简单，也清淡，适合阿姨
u: 买了条鲈鱼，市场给收拾好了
a: 鱼身划几刀，铺上葱姜，水开上锅蒸八分钟，关火焖两分钟；倒掉盘里的汤，放新葱丝，淋一勺蒸鱼豉油，浇热油 #fish_recipe
u: 蒸好了，肉挺嫩，就是葱丝切得磕碜哈哈
a: 好吃就行，卖相以后练
== 2026-11-21 20:00
u: 下了个剪映，想把蒸鱼那段剪剪
a: 剪映上手不难，卡在哪了？
u: 别人视频底下都有字，我这咋没有
a: 点下边“文本”，再点“识别字幕”，它自动把您说的话转成字，有错字点开改 #jianying_sub
u: 出来了！贼神奇
u: 发出去了，三十多个人看
a: 头一条就三十多人看，开门红
== 2026-11-25 16:50
u: 乐乐今天说不想去跳舞了
a: 咋了？跟您说原因了吗？
u: 老师嫌她动作慢，当着全班说的，孩子回来就哭了 #dance_cry
a: 当众挨说挺伤自尊。先别逼她，问问她是不喜欢跳舞还是怕那个老师
u: 她说就是不想跳了，想学下棋
a: 可以先带她去试听一节，别急着交钱
u: 我跟她爸商量商量
== 2026-11-28 19:30
u: 今儿陪老伴去复查了，术后头一回
a: 结果咋样？
u: 做了个六分钟走路的测试，走了380米，大夫说还行 #six_min
u: 就是心率还偏快，坐着都88
a: 大夫调药了吗？
u: 倍他乐克加量了，现在一回一整片，还是早晚各一次 #metop_up
a: 加量头几天可能有点乏，起身慢一点，防着头晕
== 2026-12-02 21:20
u: 气死我了，在业主群跟人干起来了
a: 周叔先消消气，咋回事？
u: 来竞标的安居物业要涨物业费，一平从1.2涨到1.8
u: 我说太贵，有个邻居说嫌贵的都是想白住的老赖，我就跟他骂起来了 #argue_cause
a: 被人扣帽子确实窝火，可群里越吵越僵，您血压也受不了
a: 别在群里回了，把意见一条条写下来交给业委会，几家一块提，比吵架管用 #wy_advice
u: 你说得在理，就是咽不下这口气
a: 过两天消了气再写，话更有分量
== 2026-12-05 19:20
u: 坏了，鑫源来电话说要装修，12号不营业了
a: 啊，那得赶紧换地方，就剩一礼拜了
u: 跑了一下午，改订福满楼了，就在我家那条街上 #rest_new
u: 包间一桌1280，十个凉菜热菜 #room_price
a: 价格挺实在。记得在群里通知大伙换地方了
u: 发了，大伙都说那家锅包肉好吃哈哈
== 2026-12-08 16:20
u: 乐乐去下了围棋试听课，回来说贼好玩
a: 太好了！那就报吧？
u: 报了，舞蹈不跳了，改成礼拜天下午学围棋 #class_weiqi
a: 下棋练专注力，对算数也有帮助
u: 老师今天群里又发通知，让做手抄报，主题是冬天
a: 让乐乐自己画，您帮着写几个字，别全替她做
u: 我写字还行，年轻时候练过
== 2026-12-12 22:10
u: 聚会刚散，喝得有点多哈哈
a: 周叔慢点喝！人来得齐吗？
u: 18个，整了两桌 #tables
u: 有好几个四十年没见了，一见面就抱着哭
a: 太感人了，一个连出来的兄弟，感情就是不一样
u: 酒水加菜一共三千零四十，一人摊一百七不到
a: 喝点蜂蜜水早点睡，别吵醒阿姨
== 2026-12-20 10:40
u: 老伴这两天老叹气，说自己成废人了
a: 手术后情绪低落挺常见的。她以前最爱干啥？
u: 爱跳广场舞，以前天天去
a: 多让她干点力所能及的，比如择菜、指点您做饭，让她觉得自己有用
u: 昨天她指挥着我做了个白菜豆腐汤，她乐了
a: 这就对了，您俩一个做一个指挥
== 2026-12-26 17:30
u: 今儿下午小区开业主大会投票了 #vote_day
a: 结果咋样？
u: 换新物业的票过半了，物业费最后定的1.5
a: 比1.8降了不少，您写的意见没白提
u: 哈哈我交了两页纸呢
== 2026-12-29 16:10
u: 乐乐快期末了，数学卷子做对九十多分
a: 进步不小啊！扑克牌没白玩
u: 就是拼音还分不清前后鼻音
a: 把in和ing的字写在卡片上，读对一张奖一个贴纸
u: 她就吃这一套
== 2027-01-03 11:20
u: 新物业元旦那天进场了，就是安居物业 #wy_new
a: 新气象！有啥变化吗？
u: 楼道杂物两天就清干净了，保安也换了
u: 暖气也好了，现在屋里22度
a: 屋里暖和，阿姨恢复也舒服
== 2027-01-08 20:30
u: 跟你说个事，那条蒸鱼的视频不知咋的火了，两百三十多个赞 #video_hot
a: 哇，恭喜！实实在在的东西大家爱看
u: 好多人在底下问咋做的，我就照你教的回了
a: 哈哈那我也算出了份力
u: 大夫说老伴得多吃点降脂的，整点啥菜好
a: 山药炒木耳就不错：山药切片焯水，木耳泡发，少油快炒，出锅放点盐
== 2027-01-17 18:40
u: 老伴三个月复查，今儿去的
a: 各项指标咋样？
u: 低密度那个降到1.6了，大夫说达标了
u: 他汀接着吃，别的照旧
a: 太好了！您这几个月的清淡菜没白做
== 2027-01-23 20:00
u: 大刘来电话，说聚会那天没来的几个也想见见
a: 那开春可以再张罗一回
u: 他说想回丹东老营房看看，我心也动了
a: 老营房还在吗？
u: 听说还剩两排平房，改成仓库了
a: 能回去看看也是个念想，开春暖和了再去，阿姨那边也放心
== 2027-01-27 19:30
u: 快过年了，想自己包饺子，你教教我馅咋调
a: 白菜猪肉馅：白菜剁碎撒点盐杀水挤干，肉馅加葱姜末、一点酱油和香油，顺一个方向搅上劲，再拌白菜
u: 阿姨那份能少放盐不
a: 她那份单独调，盐减半，多放点香菇提鲜
u: 好嘞，过两天就整
== 2027-01-30 15:20
u: 今儿头一回自己包饺子，包了六十多个 #dumpling_first
a: 厉害！煮的时候破没破？
u: 破了好几个，皮捏得不严哈哈
a: 边上多捏两下，水开后点两回凉水就不容易破
u: 老伴说馅调得比她的还香
== 2027-02-06 10:30
u: 过年好！儿子他们前天就到家了
a: 周叔过年好！一家团圆了
u: 乐乐一见她爸就扑上去了
a: 这回能在家待几天？
u: 到初八，初九就得回深圳 #son_stay
u: 拍了个全家拜年的视频，老伴非让删了重拍，嫌自己胖哈哈
a: 阿姨有精神头挑剔，说明恢复得真不错
== 2027-02-14 20:10
u: 新物业开始收费了，一平一个月1.5
u: 我一次交了一年的，九十平，一千六百二
a: 1.5乘90再乘12，正好1620，收据收好
u: 留着呢。这家比原来那家强，楼道天天有人扫
== 2027-02-22 16:00
u: 乐乐开学了，还是三点四十放学
a: 又开始接送了，周叔辛苦
u: 下棋的老师说她下得稳，下个月让她参加少儿比赛
a: 太棒了！第一次比赛别给她压力，输赢都夸她
== 2027-03-03 19:30
u: 老伴说想回广场舞队了，你看行不
a: 去之前最好问问康复门诊的大夫
u: 大夫说可以，别跳快的
a: 先跳慢节奏的，一回别超过半小时，跳完心率别过110，胸闷就停 #dance_wife
u: 她乐坏了，说终于能出去见老姐妹
a: 心情好对心脏也好
== 2027-03-10 20:00
u: 跟大刘他们定了，五一回丹东老营房看看 #dandong_trip
a: 太好了！去几个人？
u: 目前报了十一个，坐高铁去
a: 这回还是您张罗？
u: 大刘张罗，我负责拍视频哈哈
a: 那得多拍点，说不定比以前的都火
u: 粉丝都五百多了
""", [
    ("老伴心脏那个手术一共接了几根血管", ["bypass3"], "paraphrase", []),
    ("孙女平时为啥是我俩带着，她爸妈在哪", ["son_sz"], "paraphrase", []),
    ("老伴是哪天从医院回的家", ["discharge"], "temporal", []),
    ("氯吡格雷大夫让吃多长时间", ["clopi"], "lexical", []),
    ("老伴那个管心跳快的药现在一回吃多少", ["metop_up"], "update", ["metop_half"]),
    ("刚出院那阵，老伴吃咸淡这块你让我咋把关", ["salt_rule"], "paraphrase", []),
    ("孩子班上那个微信群里说话有啥讲究，你跟我说过", ["group_rules"], "paraphrase", []),
    ("头一回教我给老伴熬的那个稀饭咋做来着", ["porridge"], "paraphrase", []),
    ("我第一次下厨做的东西，老伴吃完咋评价的", ["porridge_react"], "paraphrase", []),
    ("我们那帮老战友当年部队驻在哪儿", ["army"], "paraphrase", []),
    ("张罗战友吃饭那事，你一开始给我出了啥主意", ["org_tips"], "paraphrase", []),
    ("乐乐算数老马虎那阵你出的啥招", ["poker_game"], "paraphrase", []),
    ("乐乐现在的兴趣班是礼拜几上课", ["class_weiqi"], "update", ["class_dance"]),
    ("咱小区现在是哪家物业在管", ["wy_new"], "update", ["wy_old"]),
    ("暖气不热那会儿物业来测温，量出来几度", ["temp16"], "lexical", []),
    ("拍做菜视频的时候手机咋放、光咋弄，你教过我", ["shoot_tips"], "paraphrase", []),
    ("老伴刚回家那阵下楼走走，你让她咋一点点加量", ["walk_plan"], "paraphrase", []),
    ("战友那顿饭最后是在哪家吃的", ["rest_new"], "update", ["rest_old"]),
    ("剪映里头字幕咋能自动出来", ["jianying_sub"], "lexical", []),
    ("乐乐不乐意再去跳舞，那回是出了啥事", ["dance_cry"], "paraphrase", []),
    ("六分钟那个测试老伴走了多远", ["six_min"], "lexical", []),
    ("那回我在小区群里跟人翻脸，对方说了啥难听的", ["argue_cause"], "paraphrase", []),
    ("物业涨价那回我跟人呛呛，你劝我换个啥法子", ["wy_advice"], "paraphrase", []),
    ("小区开会投票选物业是哪天", ["vote_day"], "temporal", []),
    ("战友聚会那天光桌菜钱一共多少", ["room_price", "tables"], "multi_hop", []),
    ("最火的那条视频拍的那道菜，你当初咋教我做的", ["video_hot", "fish_recipe"], "multi_hop", []),
    ("我哪天头一回自己包的饺子", ["dumpling_first"], "temporal", []),
    ("过年儿子他们在家待到哪天", ["son_stay"], "paraphrase", []),
    ("老伴想重新出去跳舞，你让她注意点啥", ["dance_wife"], "paraphrase", []),
    ("回丹东老营房那趟定的啥时候去", ["dandong_trip"], "lexical", []),
])


conv("zh", "lz06", "u_xiaolin", "小林", """
== 2026-03-03 22:40
u: 家人们谁懂啊
u: 今天下午被叫进小会议室，直接被裁了 #laid_off
a: 啊……太突然了。你现在还好吗？
u: 我们整条业务线都砍了，不止我一个
a: 整条线砍掉，说明不是你能力的问题。赔偿谈了吗？
u: 给N+1，我干了三年，就是四个月工资 #n_plus_1
a: 先把这笔钱当缓冲，别急着今晚就想好下一步
u: 月薪两万二，四个月八万多，深圳房租一交也撑不了多久 #salary_old
a: 今晚先好好睡一觉，明天再算账，好吗
== 2026-03-05 01:20
u: 又睡不着了
u: 一闭眼就在算存款还能撑几个月
a: 凌晨还醒着，脑子停不下来确实难受
a: 试试这样：躺了二十分钟还没睡着就起来，去客厅开盏小灯坐会儿，困了再回床上 #sleep_get_up
u: 男朋友阿哲刚挂视频，他在杭州，我俩异地一年半了 #bf_ld
u: 他说让我干脆去杭州找工作
a: 你自己怎么想？
u: 不知道，深圳待了五年，朋友都在这边
== 2026-03-08 15:30
u: 在改简历，改到想吐
a: 卡在哪一块了？
u: 项目经历写出来像流水账
a: 每个项目写成“做了什么+结果是多少”，比如“重做注册流程，转化率从18%提到26%”，数字往前放 #resume_numbers
u: 馒头一直趴我脚边看我改简历hhh
a: 馒头是谁呀？
u: 我家柯基，两岁，屁股超圆的那种 #corgi_intro
a: 有它陪着，找工作也没那么孤单
== 2026-03-11 08:10
u: 救命，馒头昨晚吐了两次，早上又拉稀
a: 精神怎么样？还肯喝水吗？
u: 蔫蔫的，水喝了一点
a: 先停食八到十二小时，温水少量多次地给；要是便便带血或者一直吐，就马上去医院 #dog_fast
u: 我昨天给它吃了好多鸡肉干，是不是这个原因
a: 很可能，零食一下吃太多肠胃会受不了
== 2026-03-12 20:30
u: 还是拉，下午带它去医院了 #vet1_go
u: 医生说急性肠胃炎，打了止吐针，开了益生菌 #vet1_gastro
a: 确诊了就放心些。花了多少？
u: 六百八，失业了还要给狗子打工 #vet1_cost
u: 医生说零食全停，一周后复查
a: 益生菌别用热水冲，会把菌烫死 #probiotic_tip
== 2026-03-16 21:00
u: 今天第一个面式，栗子科技，做电商的 #lizi_first
u: 面得稀烂
a: 怎么了？被问住了？
u: 问我DAU掉了10%怎么排查，我脑子一片空白
a: 可以按顺序答：先确认数据口径没错，再拆渠道和用户群，然后看同期的版本和活动，最后看外部因素 #dau_answer
a: 每次面完当晚写个复盘，把没答好的题记下来，下次就有准备了 #interview_review
u: 还有，我决定趁空窗期把PMP考了，之前一直想考没时间 #pmp_decide
a: 这个时机挺好，考下来简历也更好看
== 2026-03-19 19:40
u: PMP培训班报了，35学时那种，三千八 #pmp_course_fee
a: 35学时是报考的硬性要求，这钱省不掉
u: 你帮我排个计划吧
a: 你现在每天能空出多少时间？
u: 除了面试，三四个小时没问题
a: 那前四周每天两小时过课程和教材，第五周开始每天刷一百道题，错题当天整理 #pmp_plan
== 2026-03-23 23:50
u: 跟阿哲吵架了
u: 我就说了句面试又挂了，他回“那你来杭州不就完了”
u: 感觉他根本没再听我说话
a: 你想要的是被安慰，他直接甩了个方案，这个落差挺大的
a: 下次可以先说一句“我现在不要建议，只想你听我说说”，把需要讲明白 #bf_need_advice
u: 试试吧，他是直男中的直男
a: 直男也能教，他多半是真不知道你要什么
== 2026-03-27 20:15
u: 馒头复查了，肠胃是好了
u: 但医生说它可能对鸡肉过敏，让换成低敏粮，我买了三文鱼配方的 #food_salmon
a: 别一下全换：第一二天新粮占四分之一，三四天一半，五六天四分之三，第七天再全换 #food_7day
a: 中间便便变软就放慢一点
u: 一包三百多，它吃得比我好
a: 你也要好好吃饭啊
== 2026-03-31 00:30
u: 最近心慌得厉害
u: 晚上躺下心跳咚咚的，白天刷招聘软件手都在抖
a: 这样持续多久了？
u: 两三周了，裁员之后就开始了
a: 焦虑已经影响到身体和睡眠了，可以考虑找专业的心理咨询师聊聊 #suggest_counsel
u: 朋友推荐过一个，一次六百，有点贵 #counsel_price
a: 可以先约一次试试合不合适，不合适再换
== 2026-04-03 21:10
u: 今天第一次去咨询了，咨询师姓周，说话很温柔 #counsel_first
a: 感觉怎么样？
u: 哭了半小时，纸巾用掉半包hhh
u: 她让我每天晚上七点留二十分钟，把担心的事全写下来，别的时候冒出来就告诉自己“留到七点再想” #worry_time
a: 这叫担忧时间，把焦虑关进固定的时段里，坚持两周一般会有感觉 #worry_name
u: 她说先每周去一次 #counsel_weekly
a: 每周一次挺合适，有变化也能及时调整
== 2026-04-07 18:40
u: 云帆二面过了！做B端SaaS的 #yunfan_second
a: 恭喜！二面问了什么？
u: 问我为什么离职，我差点说漏嘴吐槽老东家
a: 这题就说事实：业务线调整整体裁撤，再接一句你想找什么样的下一份工作，别评价前公司 #layoff_answer
u: 栗子居然也进三面了，一面那么烂都能过，离谱
a: 说明面试官看的不只是那一道题
== 2026-04-10 22:20
u: 房东发微信了
u: 五月底合同到期，续租的话从4200涨到4800 #rent_old
a: 一下涨六百，幅度不小。你现在住哪一片？
u: 南山科技园旁边，一室一厅，以前上班走路十分钟 #home_nanshan
a: 可以先在租房软件上看看附近同户型的价，再跟房东谈，实在太贵就趁这次换地方 #rent_compare
== 2026-04-14 20:00
u: 栗子offer下来了！！月薪24k，14薪 #lizi_offer
a: 恭喜！！比你原来高一些，满意吗？
u: 还行，但我想等等云帆的终面
a: 可以跟栗子HR说需要几天考虑，一般给一周没问题 #ask_time
u: 要是云帆也给，我要怎么谈薪啊，我最怕谈钱
a: 先别急着报数，问清对方的预算；报的时候给个区间，下限就是你能接受的数，再把手上的offer拿出来当筹码 #nego_tip
== 2026-04-17 13:30
u: PMP考试报名了，6月20号考 #pmp_date
u: 考试费三千九 #pmp_exam_fee
a: 日子定了心就定了，还有两个月出头
u: 好怕考不过钱打水漂
a: 报了名就往前冲，别提前给自己判卷
== 2026-04-20 22:50
u: 栗子我接了，下个月6号入职 #accept_lizi
u: 云帆终面完一直没消息，不等了
a: 定下来就好，空窗期终于要结束了
u: 这周末去杭州找阿哲，就当庆祝
a: 好好玩，就当给自己放个假
== 2026-04-26 21:30
u: 从杭州回来了
u: 怎么说呢，感觉怪怪的
a: 哪里怪？
u: 他一整天都在打游戏，我问以后咱俩谁去谁的城市，他就一句“再说吧” #bf_zaishuo
a: 一聊以后他就躲，难怪你心里没底
u: 对，我俩都27了，总不能一直异地吧
a: 可以找个两人都不累的时候，认真约一次，就谈未来两年谁搬、怎么搬 #future_talk
== 2026-04-28 23:40
u: 馒头又进医院了😭
u: 下午遛弯在草丛里捡了块不知道啥的吃了，晚上狂吐
a: 天哪，现在怎么样？
u: 抽了血，说胰腺指标高，轻度胰腺炎，要住院两天 #vet2_pancreatitis
a: 胰腺炎以后得严格低脂，医生有说吃什么吗？
u: 出院后改吃低脂处方粮，三文鱼那个不能吃了 #food_rx
a: 以后遛它可以戴个嘴套，或者把牵引绳收短，免得再乱捡东西 #muzzle_tip
u: 这次又是两千三，钱包裂开 #vet2_cost
== 2026-05-01 19:00
u: 云帆终面今天突然通知过了
u: 一开始开的25k，我按你教的那套谈，最后谈到27k，13薪 #yunfan_offer
a: 太厉害了！多谈下来两千
u: 可是栗子以经答应了，6号就要入职
a: 两边各写下来：年包、业务方向、团队氛围、通勤，看哪个更是你想要的 #compare_offer
u: 年包差不多，栗子33.6万，云帆35.1万
u: 但云帆做B端，我一直想转B端
a: 那你心里其实已经有答案了
== 2026-05-03 11:20
u: 决定了，去云帆 #join_yunfan
u: 但要怎么跟栗子HR说啊，好尴尬
a: 越早说越好，直接打电话，先谢谢对方的认可，再说选了更符合职业方向的机会，别编理由 #decline_tip
u: 打完了，HR还挺客气，说以后有机会再合作
a: 你处理得很成熟
u: 云帆8号入职 #yunfan_start
== 2026-05-06 20:30
u: 趁入职前去看房了，腿要断了
a: 看的哪一片？有合眼缘的吗？
u: 西乡，有一套离地铁五分钟，一室一厅3600，就是朝北 #view_xixiang
a: 看房时开水龙头和热水器试试水压，晚上再去一趟听听吵不吵，一定问清能不能养狗 #viewing_tips
u: 养狗这点我差点忘了！！
== 2026-05-08 21:45
u: 入职第一天打卡，工位靠窗
a: 第一天感觉怎么样？
u: 同事挺nice的，就是试用期六个月，有点长 #probation_6
u: 老板说试用期里要带一个需求从0到1上线 #probation_goal
a: 这个长度挺常见。早点跟老板对齐转正的考核标准，写成几条能衡量的目标 #align_goals
u: 好，下周一对一的时候问
== 2026-05-11 23:50
u: 分手了 #breakup
a: ……发生什么了？
u: 刚打了两个小时电话
u: 我问他到底有没有打算来深圳，他说没有，也不希望我“为了他”去杭州
u: 那还异地个啥
a: 抱抱你。两个小时把话说开，也是你们对彼此的尊重
u: 哭不出来，就是空
a: 空是正常的，今晚不用想明白什么，想说话我都在
== 2026-05-14 22:30
u: 周老师说分手后难受是正常的，让我别逼自己马上好起来 #zhou_breakup
a: 她说得对，难过有个出口就不会憋着
u: 睡眠又不行了，三点就醒
a: 醒了先别看手机，起来喝口温水，还是用那个躺不着就起来的办法 #sleep_again
u: 好，手机放客厅充电
a: 这周有什么让你稍微开心点的事吗？
u: 馒头出院后精神挺好，今天会抢我拖鞋了
a: 那就是彻底好起来了
== 2026-05-18 20:10
u: 西乡那套签了！3600一个月，押一付三 #rent_new
u: 房东说可以养狗
a: 太好了，住的地方落定又是一件大事
u: 但是老房东说墙上有馒头蹭的印子，要扣我1500押金 #deposit_1500
a: 先翻合同看损坏怎么赔，再找入住时拍的照片，墙面正常磨损本来就不该租客全赔 #deposit_advice
u: 入住照片我好像有，去相册翻翻
a: 要是谈不拢，可以打12345，或者找街道的租赁纠纷调解 #deposit_12345
== 2026-05-24 21:00
u: 下周六搬家
u: 馒头胆子小，我好怕它到新家应激
a: 把它的旧垫子和你穿过没洗的衣服带上，先在新家布置好它的角落再放它出来 #dog_move_tip
a: 搬家当天找个朋友帮忙看着它，别让它在门口乱跑
u: 搬家公司报价800，小面包车 #movers_800
a: 价格合理，提前跟他们说好楼层和有没有电梯
== 2026-05-30 22:40
u: 搬完了累瘫
u: 馒头在新家先是趴在垫子上不动，晚上就到处闻了
a: 旧垫子起作用了
u: 我把入住照片甩给老房东，墙上那块本来就有，最后押金只扣了300清洁费 #deposit_result
a: 有理有据就是硬气，照片立大功
== 2026-06-04 22:10
u: 上班快一个月，需求评审被怼了
u: 技术说我写的PRD边界情况没考虑
a: 新人被挑边界很常见。下次写PRD前先列一张异常清单：空数据、断网、权限不够、重复提交 #prd_checklist
u: PMP第一次模考62%，离谱 #mock_62
a: 模考稳定在七成以上再上考场比较放心。还剩两周多，把错题按知识领域分类，专攻最弱的两块 #mock_advice
u: 敏捷那块错得最多
a: 那就先啃敏捷
== 2026-06-09 20:50
u: 今天咨询，周老师说我状态好多了
u: 以后改成两周一次 #counsel_biweekly
a: 这是个好信号，说明你自己能接住的东西变多了
u: 担忧时间我现在十分钟就写完了
a: 说明要担心的事真的在变少
== 2026-06-16 23:00
u: 最后一次模考78！ #mock_78
a: 从62到78，这两周没白熬
u: 周六就考了，紧张
a: 考前一晚别刷新题，早点睡。180道题230分钟，中间有两次休息，每60题看一眼时间，卡住的先标记跳过 #exam_tips
u: 好，带身份证带身份证带身份证
== 2026-07-02 20:20
u: 带馒头去复查，指标全正常了 #vet3_normal
a: 太好了！
u: 医生说处方粮再吃三个月，之后可以换普通的低脂粮 #rx_three_months
a: 那就先坚持，零食也挑低脂的
u: 它现在11公斤，医生说刚刚好 #weight_11
a: 柯基最怕胖，腰椎受不了，这个体重保持住
== 2026-07-10 21:30
u: PMP出分了，过了！！ #pmp_pass
u: 三个领域全是AT
a: 恭喜恭喜！！三个多月没白熬
u: 老板周会上还提了一嘴，说组里多了个持证PM
a: 试用期里这就是加分项
== 2026-07-16 23:20
u: 阿哲突然给我发消息了
u: 问我最近好不好，说他想明白了，可以来深圳 #ex_back
a: 你看到的时候心里是什么感觉？
u: 第一反应是，早干嘛去了
u: 第二反应是有点心动，烦
a: 两种感觉都正常，不用今晚回他。下次咨询可以带着这件事跟周老师聊聊 #ex_counsel
== 2026-07-23 21:00
u: 咨询完了，想清楚了
u: 跟阿哲说了不复合，祝他好 #no_reunite
a: 这个决定不容易，你是想好了才说的
u: 对，我不想再等一个人想明白
u: 周老师说我可以试着一个月去一次了，八月开始 #counsel_monthly
a: 能慢慢拉长间隔，说明你自己撑得住的越来越多了
u: 哈哈谢谢你陪我这几个月
a: 我一直在
== 2026-07-29 20:00
u: 今天跟老板一对一
u: 他说我带的那个需求上线数据不错，转正应该没问题 #probation_ok
a: 太棒了！从三月被裁到现在，真的一步一步走出来了
u: 下个月想带馒头去海边玩
a: 记得带够水，沙滩烫脚，傍晚去比较好 #beach_tip
""", [
    ("我是哪天被公司优化掉的", ["laid_off"], "temporal", []),
    ("上家公司裁我的时候赔偿是怎么算的", ["n_plus_1"], "paraphrase", []),
    ("刚丢工作那阵半夜睡不着，你让我怎么办", ["sleep_get_up"], "paraphrase", []),
    ("写履历的时候你建议我怎么描述做过的项目", ["resume_numbers"], "paraphrase", []),
    ("馒头头一回又吐又拉，你让我在家先怎么处理", ["dog_fast"], "paraphrase", []),
    ("馒头第一次被我带去看医生是哪天", ["vet1_go", "vet1_gastro"], "temporal", []),
    ("面试被问DAU下滑怎么查，你教我按什么顺序答", ["dau_answer"], "lexical", []),
    ("新旧狗粮要怎么掺着过渡，你当时说的", ["food_7day"], "paraphrase", []),
    ("看心理咨询每次收费多少来着", ["counsel_price"], "paraphrase", []),
    ("担忧时间那个方法具体咋做", ["worry_time", "worry_name"], "lexical", []),
    ("别人问我为啥从上家走的，你建议我怎么回", ["layoff_answer"], "paraphrase", []),
    ("搬家之前我住在哪个片区", ["home_nanshan"], "paraphrase", []),
    ("栗子科技当时开的月薪是多少", ["lizi_offer"], "lexical", []),
    ("跟公司谈工资你教我的套路是啥", ["nego_tip"], "paraphrase", []),
    ("去杭州找他那回，我提到将来在哪个城市落脚，阿哲怎么回的", ["bf_zaishuo"], "paraphrase", []),
    ("馒头得胰腺炎那回要住几天院", ["vet2_pancreatitis"], "lexical", []),
    ("馒头乱吃东西进医院那次花了多少钱", ["vet2_cost"], "paraphrase", []),
    ("推掉已经答应的那家时，你让我怎么跟HR开口", ["decline_tip"], "paraphrase", []),
    ("西乡那套房离地铁多远", ["view_xixiang"], "lexical", []),
    ("我和前男友是哪天掰的", ["breakup"], "temporal", []),
    ("在云帆我要干多久才能转正", ["probation_6"], "paraphrase", []),
    ("老房东想扣我钱的时候你给我出了什么主意", ["deposit_advice", "deposit_12345"], "paraphrase",
     []),
    ("退租时老房东最后少退了我多少钱", ["deposit_result"], "paraphrase", []),
    ("前任七月回头找我，我最后给他的答复是什么", ["no_reunite"], "paraphrase", []),
    ("我现在是在哪家公司上班", ["join_yunfan", "yunfan_start"], "update", ["accept_lizi"]),
    ("我现在房租一个月多少", ["rent_new"], "update", ["rent_old"]),
    ("我现在多久去见一次咨询师", ["counsel_monthly"], "update", ["counsel_weekly", "counsel_biweekly"]),
    ("馒头现在吃的是哪种粮", ["food_rx", "rx_three_months"], "update", ["food_salmon"]),
    ("新工作的月薪比被裁前涨了多少", ["salary_old", "yunfan_offer"], "multi_hop", []),
    ("考PMP报班加上报名考试，一共花了多少", ["pmp_course_fee", "pmp_exam_fee"], "multi_hop", []),
])


conv("zh", "lz07", "u_azhen", "阿珍", """
== 2026-05-03 21:40
u: 今日好攰，啱啱先收档返到屋企
a: 辛苦晒！你做咩行业㗎？
u: 我喺福华市场开鱼档，做咗十几年喇 #stall_intro
a: 卖鱼好辛苦，朝早好早就要起身啦
u: 四点几就起身，档口租金都要三千八一个月 #rent_3800
u: 最烦系返屋企见到个仔仲喺度打机 #son_phone1
u: 佢读初三，六月尾就中考，叫极都唔放低部手机 #son_grade
a: 临考前大家都紧张。可以搵佢心情好嘅时候倾，一齐定规矩：做完功课先玩半个钟，夜晚十点手机放客厅充电 #phone_rule
u: 我试下啦，佢实嫌我烦
== 2026-05-06 22:10
u: 老公阿强前日喺批发市场搬冰鲜箱闪咗腰 #back_injury
a: 哎呀，而家点样？有冇睇医生？
u: 去咗街口诊所，开咗膏药同止痛药 #clinic_first
a: 头几日多啲休息，但唔好成日瞓喺床，可以热敷。如果一个礼拜都冇好转，或者脚开始麻，就要去大医院 #back_advice1
u: 佢去唔到入货，叔仔阿明话先帮住手 #helper_ming
u: 得佢帮手我安心啲
== 2026-05-09 14:20
u: 管理处搞免费体检，话我甲状腺有个结节 #nodule_found
a: 听到都会紧张。报告有冇写大小同分类？
u: 一点一厘米，写住TI-RADS 3类 #nodule_size
a: 结节好常见，3类一般系良性可能大。建议挂甲状腺专科，畀医生睇埋B超 #nodule_calm
u: 我成晚都冇心机做嘢
a: 担心系正常嘅，先唔好自己上网乱查
u: 好，我约咗月尾睇专科
== 2026-05-12 21:50
u: 今朝管理处贴通知，七月起租金加到四千六 #rent_raise
a: 一下加八百，幅度唔细。你打算点？
u: 唔想畀，但又唔知点同佢哋开口
a: 可以约埋隔篱几个档主一齐去管理处，摆出近排生意淡嘅数，要求分两年慢慢加，或者签长约换细啲加幅 #rent_talk
u: 听讲利华新街市啱啱开，招商平啲 #new_market_hear
a: 得闲可以去睇下，留意朝早同傍晚嘅人流
u: 过两日去行下先
== 2026-05-15 22:30
u: 俊仔二模成绩出咗，全级排一百二几
a: 离中考仲有一个几月。佢有冇目标学校？
u: 佢想考振华中学，老师话去年录取线大概705 #target_line
a: 有目标系好事。二模同中考会有差距，保持节奏就得
u: 今晚又打机打到十二点 #son_phone_late
a: 可以同佢讲，考前呢几个礼拜你都陪住佢守规矩，唔系净系管佢
u: 我边有时间陪佢，卖鱼都卖到癫
== 2026-05-18 21:15
u: 侄女阿欣叫我开抖音直播卖鱼 #niece_douyin
a: 好主意！而家好多街市档主都喺网上卖
u: 但我唔识弄，又怕出镜
a: 用个手机支架固定，光线够就得。开播时讲清楚今日有咩鱼、几钱一斤、可以帮手劏埋 #live_basic
u: 我普通话唔标准喎
a: 讲粤语冇问题，附近街坊先系你嘅主要客
u: 阿欣话帮我开个账号，叫"珍姐鲜鱼档" #account_name
== 2026-05-22 22:40
u: 阿强个腰都系唔见好，仲话左脚有啲麻 #leg_numb
a: 脚麻要重视，可能压到神经
u: 佢去咗三次推拿，冇乜用 #tcm_massage
a: 建议尽快去大医院骨科，照个片睇清楚，唔好再拖 #go_hospital
u: 佢死都唔肯去，话贵
a: 可以同佢讲，拖耐咗开唔到工，损失仲大
u: 我听日再劝下佢
== 2026-05-26 13:10
u: 今朝六点半喺档口开咗第一次直播！ #first_live
a: 好叻！有几多人睇？
u: 得十几个，卖咗两条鲈鱼
a: 第一次有成交已经好好。下次可以一边劏鱼一边讲点煮，大家最钟意睇 #live_cook_tip
u: 我谂住以后都系朝早开档嗰阵开 #live_morning
a: 可以，朝早啱到货，鱼最生猛
u: 不过一边招呼客一边睇手机，手忙脚乱
== 2026-05-30 16:00
u: 今日去咗专科睇结节
a: 医生点讲？
u: 话暂时唔使穿刺，半年后再照B超 #nodule_half_year
a: 咁就放心啲，按时复查就得
u: 系咪唔可以食海带紫菜？ #iodine_q
a: 一般结节唔使刻意戒，正常份量就得，唔好大量猛食。具体都系听你医生讲 #iodine_advice
u: 我成日煲海带汤，以后少啲
== 2026-06-03 21:30
u: 今日终于押住阿强去医院照咗核磁共振 #mri_day
a: 做得好！结果点样？
u: 腰椎间盘突出，医生话唔使开刀，先做理疗 #mri_result
a: 唔使开刀已经系好消息。有冇讲唔可以做咩？
u: 唔可以搬重嘢，起码三个月 #no_lifting
a: 等急性期过咗、医生同意嘅话，可以试下小燕飞同臀桥，每日两组，每组十下 #back_exercise
u: 小燕飞系咪趴喺床度嗰个？
a: 系，趴低，手脚同胸口一齐微微抬起，停三秒再放低
== 2026-06-07 20:40
u: 阿芬同我讲，想喺市场门口合伙卖凉茶 #liangcha_idea
a: 阿芬系？
u: 我妯娌，阿明老婆，佢屋企有祖传方子 #afen_who
a: 夏天卖凉茶应该有市场。合伙最紧要开头讲清楚：边个出钱、边个睇档、点分钱，写落纸两个都签名 #partner_advice
u: 自己人嚟㗎，使唔使咁认真
a: 就系自己人先要讲清楚，费事日后伤感情
u: 佢出方子同煲茶，我出档口位同本钱，赚到五五分 #partner_split
== 2026-06-11 23:05
u: 今晚收咗俊仔部手机，佢大力摔门 #son_slam
a: 听落你哋两个都好嬲。你而家点？
u: 好嬲，佢仲话"你识咩啫" #son_words
a: 今晚先唔好再追，大家冷静。听日同佢讲你系担心佢，唔系要管住佢，唔好翻旧账 #slam_advice
u: 离中考得两个礼拜，我真系好怕
a: 呢段时间可以放松少少要求，佢温书时唔好催，佢自己都有压力
u: 嗯，我听日煲啲汤畀佢
== 2026-06-15 21:20
u: 同几个档主去咗管理处倾租
a: 倾成点？
u: 冇得减，七月照交四千六 #rent_4600
a: 都努力过喇。新街市有冇去睇？
u: 睇咗，利华新街市档位报价三千五，头两个月免租 #new_market_quote
a: 平好多喎。人流点样？
u: 朝早啲人少过福华好多 #new_market_crowd
a: 可以星期六日再去睇多次，问下已经入驻嘅档主生意点
u: 好，下个礼拜再去
== 2026-06-20 21:45
u: 俊仔礼拜三开考，我比佢仲紧张
a: 做阿妈都系咁。佢状态点？
u: 话夜晚瞓唔着
a: 睡前唔好再刷题，浸个热水脚，早啲熄灯。考前几日唔使再捱夜 #exam_sleep
u: 考嗰几日煮咩畀佢食好？ #exam_food_q
a: 食清淡、平时食惯嘅嘢，唔好生冷同煎炸。鱼片粥、蒸水蛋都好，唔好突然食补品 #exam_food
u: 鱼片粥我拿手，档口啲鲩鱼最新鲜
== 2026-06-27 12:40
u: 终于考完！俊仔话数学好难
a: 辛苦晒你哋两个！考完就先唔好谂分数
u: 佢昨晚打机打到天光 #exam_done_game
a: 考完放纵几日都明白。之后可以一齐定个暑假作息，例如夜晚一点前瞓 #summer_rule
u: 我都系咁谂，先畀佢玩几日
== 2026-07-02 20:15
u: 凉茶档今日开张喇！ #liangcha_open
a: 恭喜！卖成点？
u: 卖咗八十几杯，五花茶最好卖 #liangcha_first_sales
a: 第一日有咁嘅成绩好好。有几多款？
u: 三款：五花茶、夏枯草、竹蔗茅根，五蚊一杯 #liangcha_menu
a: 建议由第一日开始每日记低杯数同收入，对住嚟分钱 #daily_book
u: 阿欣帮手影咗条片放上网
== 2026-07-08 21:40
u: 直播开咗一个几月，粉丝得三百几 #fans_300
a: 由零到三百已经唔错
u: 朝早客多，我根本顾唔到直播
a: 可以试下改晚上七点半喺屋企开，即场教点煮鱼，收第二朝嘅订单，朝早喺档口执好等人嚟攞 #live_evening_tip
u: 咁都得？佢哋肯预订咩
a: 熟客会肯，仲可以畀预订嘅人九五折
u: 我同阿欣商量下
== 2026-07-12 22:10
u: 中考分数出咗，688 #zhongkao_score
a: 辛苦咗！佢自己满唔满意？
u: 佢好失落，差振华好远
a: 688唔差。填志愿可以分冲、稳、保三档：一间略高过分数嘅冲一冲，中间填把握大嘅，最后留间保底 #zhiyuan_advice
u: 班主任建议明德中学做稳嗰间 #teacher_suggest
a: 可以同俊仔一齐睇下几间学校，佢自己有份拣会更甘心
u: 佢话要上网睇下啲师兄点讲
== 2026-07-16 20:45
u: 阿强做咗六次理疗，而家可以行耐啲 #physio_six
a: 有进步！腰仲痛唔痛？
u: 好返好多，佢成日话想返档口帮手
a: 可以畀佢坐喺度收钱、覆抖音信息，唔好拎鱼箱同冰 #husband_role
u: 阿明话佢自己档口都忙，下个月唔帮我入货喇 #ming_stop
a: 咁要趁早搵人，可以请个散工专门凌晨去入货
u: 我问下市场啲人识唔识人
== 2026-07-22 21:15
u: 请咗个小工阿辉，二十几岁，每朝三点去黄沙入货 #helper_hui
a: 有人帮手轻松啲喇。佢靠唔靠得住？
u: 勤力，就系成日迟到十分钟
a: 一开始就讲清楚钟数，迟到就讲，唔好忍到爆先讲
u: 阿辉日薪一百八，我觉得都抵 #hui_pay
== 2026-07-28 22:00
u: 同阿芬嘈咗一场 #fight_afen
a: 发生咩事？
u: 佢话我收咗现金冇入数，我真系冇 #cash_dispute
a: 咁一定好冤枉。之后可以全部用一个收款码收钱，每晚收档两个人一齐对数签名 #ledger_advice
u: 我都系咁谂，费事日日疑来疑去
a: 倾嘅时候讲"我哋一齐整清楚"，唔好讲"你冤枉我"
u: 好，我听朝同佢讲
== 2026-08-03 20:30
u: 俊仔录取咗明德中学，要寄宿 #school_final
a: 恭喜！佢开唔开心？
u: 开心过我估，话明德篮球队好犀利
a: 有佢钟意嘅嘢就易啲适应
u: 九月一号开学，要买蚊帐同床垫
a: 可以列张清单，学校通常有指定尺寸，问清楚先买 #boarding_list
== 2026-08-08 21:50
u: 直播改咗晚上七点半喺屋企开 #live_evening
a: 效果点样？
u: 好好多，粉丝破咗一千 #fans_1000
a: 劲！你教咩菜最多人睇？
u: 豉汁蒸鱼腩，但我自己成日蒸老咗
a: 鱼腩用豉汁、蒜蓉、少少糖同生粉捞匀，水滚先落锅，大火蒸六至七分钟，熄火焗一分钟再淋热油 #fish_belly_recipe
u: 好，听晚就咁教
== 2026-08-14 22:25
u: 阿强叫我搬去利华，我都未决定
a: 你最担心咩？
u: 怕老街坊唔跟过嚟 #move_worry
a: 可以咁计：每个月慳几多租，要走几多客先唔抵。而家网上嘅订单仲可以跟住你走 #move_calc
u: 抖音订单差唔多占三成生意
a: 咁就有底气。可以先问下熟客，你搬咗佢哋仲会唔会嚟
u: 我听朝问下几个熟客
== 2026-08-20 21:05
u: 呢排成日觉得条颈紧紧哋 #neck_tight
a: 有冇声沙或者吞嘢困难？
u: 冇，就系紧
a: 可能系攰亲或者瞓姿唔好。如果有声沙、吞嘢唔顺或者摸到变大，就唔好等复查，提早去睇 #nodule_symptom
u: 可能系我自己吓自己
a: 呢排事多，紧张都好正常
== 2026-08-27 20:50
u: 利华嗰边签咗，倾到三千二，九月中搬 #rent_new
a: 恭喜！又平咗三百，好叻
u: 管理处话头两个月都照样免租
a: 搬之前可以喺旧档口贴告示、直播预告新地址，畀熟客一张写住新档位嘅卡片 #move_tips
u: 阿欣话帮我设计卡片
== 2026-09-02 21:30
u: 俊仔琴日入宿，屋企静晒 #son_boarding
a: 第一次分开，有啲唔惯好正常
u: 学校手机要交，礼拜五先还 #school_phone
a: 咁平日佢反而可以专心读书
u: 我成晚望住佢间房
a: 可以约定每晚用宿舍电话打返嚟五分钟，两个人都安心
== 2026-09-15 20:10
u: 今日喺利华新街市开咗第一日档 #moved_day
a: 恭喜！生意点样？
u: 有六七个熟客跟咗过嚟，仲有粉丝嚟打卡 #moved_customers
a: 好好嘅开始！阿辉熟唔熟新档口嘅路？
u: 熟，佢去黄沙仲近咗十分钟
== 2026-09-22 21:00
u: 阿强今日复诊，医生话恢复得几好 #back_recheck
a: 太好喇！有冇讲可以做返啲咩？
u: 可以做轻嘢，但拎嘢唔可以超过十斤 #ten_jin
a: 咁档口啲冰同鱼箱继续交畀阿辉，佢负责劏鱼同收钱就得 #husband_stall
u: 佢开心到饮咗两杯
a: 饮少少得，腰都系要顾住
== 2026-09-27 22:15
u: 俊仔周末返嚟，一入门就攞返部手机 #weekend_phone
a: 成个礼拜冇得玩，明白嘅
u: 不过佢月考全班第十二，有进步 #monthly_rank
a: 咁要讲出嚟赞佢！周末可以畀佢玩多啲，但礼拜日晚返校前收埋 #weekend_rule
u: 我赞咗佢，佢仲扮唔在乎
== 2026-10-04 19:40
u: 国庆凉茶淡咗好多
a: 天气转凉，饮凉茶嘅人自然少
u: 阿芬想加罗汉果雪梨茶，卖六蚊一杯 #luohanguo
a: 秋天干燥，润喉嘅茶啱时。可以先试一个礼拜，睇下卖唔卖得 #autumn_try
u: 自从每晚对数，我同阿芬都冇再嘈过 #afen_ok
a: 咁就好，规矩定咗大家都舒服
== 2026-10-13 21:20
u: 今日喺新档口过咗四十五岁生日 #birthday
a: 生日快乐！点庆祝？
u: 俊仔用宿舍电话打返嚟讲生日快乐
a: 好窝心
u: 阿强买咗个蛋糕，熟客仲送咗扎花
== 2026-10-28 16:30
u: 今日复查B超，结节都系一点一，冇变 #nodule_same
a: 好消息！医生点讲？
u: 仍然系3类，话以后一年照一次就得 #nodule_yearly
a: 安心好多喇，今晚食餐好嘅庆祝下
u: 放低心头大石
== 2026-11-01 21:10
u: 搬过嚟一个几月，生意比我估好
a: 真系替你开心
u: 租平咗，加埋网上订单，上个月净赚多咗两千 #profit_up
a: 当初计嗰笔数冇计错
u: 阿强话下个月想学开直播，换佢出镜 #husband_live
a: 佢把声够大，啱晒
u: 我终于可以瞓耐少少
""", [
    ("我而家个档口每个月租金几多", ["rent_new"], "update",
     ["rent_3800", "rent_raise", "rent_4600", "new_market_quote"]),
    ("而家边个朝朝帮我去批发市场攞货", ["helper_hui"], "update", ["helper_ming"]),
    ("我而家一般喺边度、几点开直播", ["live_evening"], "update", ["live_morning", "first_live"]),
    ("医生而家话个结节隔几耐睇一次", ["nodule_yearly"], "update", ["nodule_half_year"]),
    ("最开始个仔成日打机，你教我同佢约定啲咩", ["phone_rule"], "paraphrase", []),
    ("老公刚伤咗嗰几日，你叫我点照顾，去到咩情况要转去睇专科", ["back_advice1"], "paraphrase", []),
    ("管理处话要加租嗰阵，你教我点样去讲价", ["rent_talk"], "paraphrase", []),
    ("仲未开播之前，你话镜头前面要交代清楚啲咩", ["live_basic"], "paraphrase", []),
    ("同妯娌夹份做生意之前，你提醒我要先讲清楚乜嘢", ["partner_advice"], "paraphrase", []),
    ("个仔同我闹交大力闩门嗰晚，你叫我第二日点样同佢倾", ["slam_advice"], "paraphrase", []),
    ("考试嗰几日你建议我煮啲咩畀俊仔", ["exam_food"], "paraphrase", []),
    ("分数出咗之后，你教我报学校要点样排先后", ["zhiyuan_advice"], "paraphrase", []),
    ("同阿芬为钱嘅事嘈完，你出咗咩主意避免再有误会", ["ledger_advice"], "paraphrase", []),
    ("有咗结节之后饮食使唔使戒口，你当时点答我", ["iodine_advice"], "paraphrase", []),
    ("条颈觉得唔妥嗰阵，你话有咩症状就要即刻去睇", ["nodule_symptom"], "paraphrase", []),
    ("阿强条腰当初系点样伤到嘅", ["back_injury"], "paraphrase", []),
    ("老公照完片，医院诊断佢系咩问题", ["mri_result"], "paraphrase", []),
    ("俊仔最后考入咗边间高中", ["school_final"], "paraphrase", []),
    ("第一次去新街市睇档，我觉得边方面唔够好", ["new_market_crowd"], "paraphrase", []),
    ("俊仔住校之后第一次考试排第几", ["monthly_rank"], "paraphrase", []),
    ("振华中学去年要几多分先入到", ["target_line"], "lexical", []),
    ("小燕飞一日要做几多下", ["back_exercise"], "lexical", []),
    ("罗汉果雪梨茶定咗几钱一杯", ["luohanguo"], "lexical", []),
    ("豉汁蒸鱼腩要大火蒸几耐", ["fish_belly_recipe"], "lexical", []),
    ("阿辉每日人工几钱", ["hui_pay"], "lexical", []),
    ("我系几时头一次喺网上直播卖鱼", ["first_live"], "temporal", []),
    ("凉茶档系边日开始营业", ["liangcha_open"], "temporal", []),
    ("我系边日正式喺新街市做生意", ["moved_day"], "temporal", []),
    ("俊仔中考分数同佢最想入嗰间学校去年嘅分数线差几多分", ["target_line", "zhongkao_score"],
     "multi_hop", []),
    ("凉茶档开张第一日大概收入几多钱", ["liangcha_first_sales", "liangcha_menu"], "multi_hop", []),
])


conv("zh", "lz08", "u_chenbo", "陈博", """
== 2026-09-03 22:10
u: 晚上好，今天组会开到七点多。
a: 辛苦了。博后那边最近很忙吗？
u: 挺忙，我博后明年八月就出站了。 #u_postdoc_end
u: 还有个事，老婆怀二胎了，今天刚确认。 #u_pregnant
a: 恭喜你们！现在几周了？
u: 七周，按末次月经算，预产期是明年4月22日。 #u_duedate_old
a: 头三个月要多休息，重活你多担着。
== 2026-09-05 21:30
u: 心情很差，等了五个月的那篇论文被拒了。 #u_rejected
a: 换谁都难受。审稿意见怎么说？
u: 一个说创新性不够，一个嫌数据太少。
a: 意见还算具体。
u: 但我现在一看到那封邮件就烦。
a: 先放两天别碰。周一再把意见逐条抄进表格，分成“能改的”“需要解释的”“不同意的”三类，改完马上转投下一家。 #a_reject_plan
== 2026-09-08 22:45
u: 这两天脖子特别僵，一低头就疼。
a: 疼的时候会往肩膀或者手上窜吗？
u: 右手小拇指有点麻，早上起来最明显。
a: 手麻最好去医院看看，别拖着。
u: 好，这周约个号。
a: 看医生之前先调一下工位：屏幕抬到眼睛平视的高度，键盘放低，每四十五分钟站起来做几次收下巴。 #a_neck_desk
u: 我一直用笔记本，确实老低着头。
a: 买个支架配个键盘，不贵。 #a_stand
== 2026-09-11 20:50
u: 简历终于弄好了，一口气投了五所学校。 #u_cv_sent
a: 效率很高！都在哪些城市？
u: 北京两所，天津、石家庄、深圳各一所。
u: 北京那两所希望不大，竞争太激烈了。
a: 多投是对的，先拿到面试再说。
== 2026-09-15 19:40
u: 今天去医院拍了核磁，结果出来了。
a: 医生怎么说？
u: C5-C6椎间盘轻度突出，压到一点神经根，所以手会麻。 #u_mri
a: 轻度的话问题不大。怎么治？
u: 做理疗，牵引加中频电疗，每周去三次，先做一个月。 #u_physio
a: 医生还交代别的了吗？
u: 让我少低头，有空学学游泳，说蛙泳对颈椎好。 #u_doctor_swim
a: 正好把运动捡起来。你会游吗？
u: 完全不会，旱鸭子一个。
== 2026-09-18 21:15
u: 跟老婆商量了，打算让我爸妈从佳木斯过来帮忙带乐乐。 #u_parents_plan
a: 有老人搭把手会轻松不少。乐乐多大了？
u: 三岁半，刚上幼儿园小班。 #u_lele_age
a: 那爸妈来了住哪？
u: 我们家是两居室，把次卧腾给我爸妈，乐乐跟我们睡。 #u_parents_room
a: 短期没问题，住久了再看。
u: 嗯，先这么安排。
== 2026-09-22 22:00
u: 拒稿意见列成表了，一共十四条。
a: 分完类看，需要大改的多吗？
u: 主要是补两组实验，其他是写作问题。
a: 那工作量可控。打算转投哪里？
u: 改投TGRS，今天下午已经提交了。 #u_resubmit
a: 真快！这段时间可以专心准备面试。
u: 希望这次运气好点。
== 2026-09-26 22:30
u: 理疗做了四次，手麻轻了一些。
a: 有效果就好。晚上睡觉脖子舒服吗？
u: 不太舒服，家里的枕头特别高，老婆买的记忆棉。
a: 枕头太高会让颈椎一直往前弯。仰睡一拳高比较合适，侧睡和肩膀一样宽，最好选中间低、两边高的。 #a_pillow
u: 明天就去换一个。
== 2026-09-30 20:20
u: 石家庄那所学校来邮件了，约我十月中旬线上面试。 #u_sjz_invite
a: 好消息！第一个面试来了。
u: 有点慌，不知道从哪下手。
a: 先写一个五分钟的自我陈述：过去做了什么、未来五年想做什么、能申哪些基金。再把可能被问的问题列出来，找人模拟两遍。 #a_interview_prep
u: 找组里的师兄帮我模拟一下。
== 2026-10-06 21:00
u: 国庆最后一天，带乐乐去了趟动物园。
a: 乐乐玩得开心吗？
u: 开心，看长颈鹿看了半小时。另外我在学校游泳馆报了私教课，一共十节。 #u_swim_lessons
a: 行动力很强！多少钱一节？
u: 260，有点肉疼。 #u_swim_price
a: 为了脖子，值得。教练怎么样？
u: 姓周，挺年轻的，说我这个年纪学得快。
== 2026-10-10 18:40
u: 今天陪老婆做了NT，1.1毫米，正常。 #u_nt
a: 太好了，可以松一口气了。
u: 医生根据B超把预产期往前调了，改成4月15日。 #u_duedate_new
a: 提前了一周，安排得跟着调。
u: 是啊，正好跟找工作、出站挤在一起。
a: 做个时间表吧，把面试产检都标上。
== 2026-10-14 22:20
u: 石家庄那边的线上面试结束了。
a: 感觉怎么样？
u: 大部分都答上来了，就是有个评委问我为什么不去企业，我愣了好几秒。 #u_interview1_q
a: 这题很常见，下次从研究兴趣去答。
u: 他们说两周左右出结果。
u: 坐了一下午，脖子又疼了。
a: 起来活动活动，今晚早点睡。
== 2026-10-18 17:30
u: 我爸妈今天下午到北京了，从佳木斯坐了一整天的车。 #u_parents_arrive
a: 路上辛苦了！乐乐高兴吗？
u: 高兴坏了，一直拉着奶奶看他的玩具。
a: 有老人在，你和老婆都能喘口气。
u: 我妈晚上就包了酸菜饺子。
== 2026-10-22 21:40
u: 第一节游泳课，喝了好几口水。
a: 第一节课呛水很正常。主要卡在哪？
u: 头一埋进水里就慌，不知道怎么换气。
a: 先别急着游，扶着池边练吐泡泡：头埋下去用鼻子慢慢呼气，抬头用嘴快速吸气，每次练二十个。 #a_breath
u: 教练也让我先练这个。
a: 对，换气熟了再练蹬腿。
== 2026-10-27 20:50
u: 天津那所学校通知我去现场面试，还要试讲。 #u_tj_invite
a: 太好了！时间定了吗？
u: 下个月中旬，试讲二十分钟，讲一节本科课。
a: 准备时间够。深圳那边有消息吗？
u: 深圳约了下周线上面试。 #u_sz_invite
a: 几个面试挤在一起，精力要分配好。
u: 石家庄那边还没出结果，有点焦虑。
== 2026-11-01 22:50
u: 这周连写了三天基金本子，脖子又犯了。
a: 手麻也回来了吗？
u: 有一点。理疗停了一周，最近太忙没去。
a: 越忙越要去，停了容易反复。
u: 明天就去约。对了，深圳前天线上面完了，感觉一般。
a: 一般不代表没戏。写东西时设个闹钟，每小时起来动动。
u: 嗯，用手机的番茄钟吧。
== 2026-11-05 21:30
u: 家里有点小矛盾，我妈和老婆为乐乐吃饭的事闹别扭了。 #u_conflict
a: 具体是怎么回事？
u: 我妈总追着喂饭，老婆想让乐乐自己吃。
a: 你来当中间人：私下跟妈说这是幼儿园老师要求的，让她觉得是听专业意见，不是被儿媳管；也别在老婆面前抱怨妈。 #a_mom_wife
u: 这个办法好，把老师搬出来。
== 2026-11-09 22:10
u: TGRS的审稿意见回来了，大修！ #u_major_rev
a: 大修就是有戏，恭喜！几个审稿人？
u: 三个。Reviewer 1和3问题不大，Reviewer 2要我补消融实验，还要跟三个最新方法对比。 #u_reviewer2
a: 工作量不小。给了多长时间？
u: 六十天，deadline是一月初。
a: 先把实验跑起来，回复信边跑边写。
u: 服务器得抢，组里最近都在赶稿。
== 2026-11-12 21:20
u: 开始准备天津的试讲了。
a: 选了哪部分内容？
u: 《遥感原理》里的电磁波谱。
a: 别塞太多公式，开头用一张卫星图引入，中间留一个向学生提问的环节，最后一分钟总结，总时长卡在二十分钟以内。 #a_trial_tips
u: 我现在的稿子公式太多了，得删。
== 2026-11-17 20:40
u: 今天在天津试讲完了，坐早上七点的高铁去的。 #u_trial_day
a: 辛苦了！讲得怎么样？
u: 时间刚好，评委的提问也答上了。
a: 听起来挺顺利。后面还有面谈吗？
u: 下午跟院长聊了半小时，问能不能早点入职。
a: 问入职时间，说明他们是认真的。
u: 希望吧。回来的车上脖子又僵了。
== 2026-11-21 19:50
u: 游泳课上到第六节了，能漂起来了。
a: 进步很快！蹬腿练得怎么样？
u: 教练说我是剪刀腿，收腿时脚跟要靠近屁股，蹬出去之前脚掌往外翻。 #u_coach_fix
a: 新手常见问题。可以趴床边练翻脚。
u: 好，回家就练。
a: 加油，下节课给教练看看。
u: 嗯，周六还有一节。
== 2026-11-25 22:00
u: 家里太挤了，早上五个人抢一个卫生间。
a: 老婆越往后越需要休息。怎么打算？
u: 想在我们小区给爸妈租个一居室，白天过来帮忙，晚上回去睡。 #u_rent_plan
a: 两边都有自己的空间，我觉得挺好。
u: 就是怕我妈觉得我们嫌她。
a: 可以从老婆需要休息、爸妈晚上也能睡踏实这个角度说，强调是为了大家都好。 #a_rent_talk
u: 明天跟他们说说。
== 2026-11-30 21:10
u: 爸妈搬进同小区的一居室了，月租5200，走路三分钟。 #u_parents_rent
a: 这么快就办好了！他们住得惯吗？
u: 我妈挺满意，说终于有自己的厨房了。
a: 那就好，两边都舒服了。
u: 我爸还是不太适应北京，说这里没人陪他下棋。 #u_dad_chess
a: 带他去公园转转，那儿常有人下棋。
== 2026-12-04 20:30
u: 石家庄那所学校发offer了！ #u_sjz_offer
a: 恭喜！条件怎么样？
u: 副教授，有编制，年薪税前二十二万。 #u_sjz_salary
a: 挺不错的。要求什么时候答复？
u: 一月十号之前。
a: 还有一个多月，可以等等天津。
u: 我现在倾向于接石家庄的，稳当。 #u_lean_sjz
a: 先别急，等结果都出来再比。
== 2026-12-08 22:40
u: 消融实验终于跑完了，结果还挺好看。
a: 太好了！回复信开始写了吗？
u: 刚开了个头，不知道语气怎么把握。
a: 每条意见先复述，再致谢，接着写具体改了什么，标出页码和行号。不同意的地方用数据说话，语气保持客气。 #a_response_letter
u: Reviewer 2有一条我觉得不太合理。
a: 能补的先补，补不了的把原因解释清楚，别直接拒绝。 #a_response_r2
u: 懂了，明天接着写。
== 2026-12-12 21:00
u: 今天老婆做了大排畸，各项都正常。 #u_anomaly
a: 太好了！她身体还好吗？
u: 就是腰酸，晚上翻来覆去睡不好。
a: 可以给她买个孕妇侧睡枕，夹在两腿中间，腰会舒服不少。 #a_preg_pillow
u: 好，马上下单。
== 2026-12-16 21:30
u: 今天第一次不扶浮板游完了25米！ #u_swim_25
a: 太棒了！从旱鸭子到25米，才两个月。
u: 最后几米差点沉下去，硬撑过来的。
a: 下一步练连续换气。
u: 私教课下周就上完了，之后打算自己练。
a: 自己练也要注意安全。
u: 放心，我只在浅水区。
== 2026-12-20 22:10
u: 天津那边也发offer了，也是副教授，有编制。 #u_tj_offer
a: 第二个offer，恭喜！待遇怎么样？
u: 年薪税前二十六万，还给一套周转房。 #u_tj_salary
a: 比石家庄高一些。深圳那边呢？
u: 深圳也给了，年薪最高，安家费八十万，但是没编制，六年考核。 #u_sz_offer
a: 三个都拿到了！纠结什么？
u: 各有各的好，脑子一团乱。
a: 做个表：薪资、编制、考核压力、离北京远近、孩子上学、老婆工作能不能调，每项打分再加权。 #a_offer_table
u: 好，今晚跟老婆一起填。
== 2026-12-27 20:00
u: 大修稿今天交回去了，比deadline早了一周。 #u_revision_sent
a: 恭喜！这段时间辛苦了。
u: 终于能喘口气。今天跟乐乐说家里要来个小宝宝了。
a: 他什么反应？
u: 说不要，妈妈只能抱他一个。 #u_lele_react
a: 很正常。让他参与进来，比如一起给宝宝挑衣服、摸摸妈妈的肚子；再每天留一段只陪他的时间。 #a_lele_sibling
u: 只陪他这个好，我每天睡前给他讲故事。
== 2027-01-05 21:20
u: 想了好几天，最后决定去天津。 #u_choose_tj
a: 定下来了！最后是什么让你选了天津？
u: 离北京近，高铁半小时，老婆以后调工作也方便。
a: 嫂子是做什么工作的？
u: 初中语文老师。 #u_wife_job
a: 那另外两边回复了吗？
u: 今天给石家庄和深圳都发了邮件，婉拒了。
a: 什么时候入职？
u: 出站以后，今年九月。 #u_tj_start
== 2027-01-12 19:30
u: 陪老婆做了糖耐，抽了三次血，结果都正常。 #u_ogtt
a: 又过了一关！她还好吗？
u: 空腹太久有点头晕，喝完糖水想吐。
a: 回家给她弄点热乎的吃。
u: 我的颈椎最近也好多了，手基本不麻了。 #u_neck_better
a: 理疗加游泳起作用了，坚持下去。
u: 医生说理疗可以减到每周一次。 #u_physio_less
== 2027-01-19 21:40
u: 好消息，TGRS那篇正式接收了！ #u_accepted
a: 太棒了！这篇走了快一年吧。
u: 差不多，去年四月第一次投的。
a: 该好好庆祝一下。
u: 晚上跟老婆和爸妈一起吃了顿火锅。
== 2027-01-28 20:30
u: 今天在游泳馆连续游了200米，中间没停。 #u_swim_200
a: 厉害！换气已经很熟了吧。
u: 还行，就是两条腿蹬得不太对称。
a: 可以再约一两节课，让教练看看动作。
u: 我爸在公园找到棋友了，天天往外跑。 #u_dad_friends
a: 有了圈子，他就待得住了。
u: 我妈也加入了小区的广场舞队。
== 2027-02-05 21:00
u: 除夕快乐！今年在北京过年，爸妈没回佳木斯。
a: 除夕快乐！一家人在一起最好。
u: 我妈包了三种馅的饺子，乐乐吃了八个。
a: 胃口真好。老婆还好吗？
u: 七个多月了，肚子挺大，走路都慢了。
a: 新的一年一切顺利！
u: 谢谢，今年最大的两件事就是二宝出生和去天津。 #u_ny_tianjin
""", [
    ("论文被拒那天，你劝我怎么处理那堆意见？", ["a_reject_plan"], "paraphrase", []),
    ("脖子刚开始疼那会儿，你让我电脑桌那块怎么弄？", ["a_neck_desk", "a_stand"], "paraphrase", []),
    ("我颈椎不好，晚上睡觉头底下垫的东西该选多高的，你当时怎么说的？", ["a_pillow"], "paraphrase", []),
    ("头一回要面试的时候，你让我提前准备些什么？", ["a_interview_prep"], "paraphrase", []),
    ("刚下水老是呛着，你教我先练什么？", ["a_breath"], "paraphrase", []),
    ("去天津那所学校讲课考核之前，你给我提了哪些建议？", ["a_trial_tips"], "paraphrase", []),
    ("我妈和我老婆在带孩子上起争执的时候，你让我怎么处理？", ["a_mom_wife"], "paraphrase", []),
    ("改稿时给审稿人回话的那封信，你说该怎么写？", ["a_response_letter", "a_response_r2"], "paraphrase", []),
    ("乐乐不想要弟弟妹妹，你给我出了什么主意？", ["a_lele_sibling"], "paraphrase", []),
    ("老婆腰疼睡不着那阵子，你推荐我给她买什么？", ["a_preg_pillow"], "paraphrase", []),
    ("我博士后是什么时候到期来着？", ["u_postdoc_end"], "paraphrase", []),
    ("医生给我开的是哪几种理疗？", ["u_physio"], "paraphrase", []),
    ("我老婆是干什么的？", ["u_wife_job"], "paraphrase", []),
    ("跟老大说家里要添个宝宝，他当时怎么说的？", ["u_lele_react"], "paraphrase", []),
    ("第一次在网上面试，我被哪道题卡住了？", ["u_interview1_q"], "paraphrase", []),
    ("游泳教练纠正过我哪个动作？", ["u_coach_fix"], "paraphrase", []),
    ("Reviewer 2 当时要求我补些什么？", ["u_reviewer2"], "lexical", []),
    ("C5-C6 那个片子结果是什么情况？", ["u_mri"], "lexical", []),
    ("深圳那边给的安家费是多少？", ["u_sz_offer"], "lexical", []),
    ("老婆做NT的时候测出来多少？", ["u_nt"], "lexical", []),
    ("你说要打分加权的那张表，都要列哪几项？", ["a_offer_table"], "lexical", []),
    ("我是哪天去天津现场讲课的？", ["u_trial_day"], "temporal", []),
    ("我爸妈是哪天到的北京？", ["u_parents_arrive"], "temporal", []),
    ("我是哪天头一回不靠辅助工具游完一整趟的？", ["u_swim_25"], "temporal", []),
    ("老婆现在的预产期是几号？", ["u_duedate_new"], "update", ["u_duedate_old"]),
    ("我爸妈现在在北京住哪儿？", ["u_parents_rent"], "update", ["u_parents_room"]),
    ("那篇被拒过的论文现在是什么进度？", ["u_accepted"], "update",
     ["u_rejected", "u_resubmit", "u_major_rev", "u_revision_sent"]),
    ("找工作最后定了去哪所学校？", ["u_choose_tj", "u_ny_tianjin"], "update", ["u_lean_sjz"]),
    ("学游泳的私教课我一共花了多少钱？", ["u_swim_lessons", "u_swim_price"], "multi_hop", []),
    ("天津给的年薪比石家庄多多少？", ["u_tj_salary", "u_sjz_salary"], "multi_hop", []),
])


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"long_{lang}")
