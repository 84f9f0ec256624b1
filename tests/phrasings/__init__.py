"""Statements nobody planted: what customers say, in phrasings the course never uses.

`tuning.py` holds the set the offline summarizer's rules were tuned on (tests/
test_phrasings.py plays it through every summary memory); `held_apart.py` holds
statements written at the same time but not looked at while tuning, measured by
`python scripts/phrasing_sweep.py --held-apart` (its misses, once measured, led to
three fixes); `held_apart_late.py`, written after that, is measured with --late.
Each is a dict lang -> kind -> [(what is said, a word the summary must still
hold)]: kinds are the
summary's labels (delivery, contact, budget, reason, prefers, promise) and "note" for
what no label fits. A promise is the agent's; the rest are the customer's.
"""

KINDS = ("delivery", "contact", "budget", "reason", "prefers", "promise", "note")
