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
never ran chatmem), in stop 24.
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


if __name__ == "__main__":
    for lang in ("en", "zh"):
        write_set(build(lang), f"long_{lang}")
