"""The planted dialog's phrasebook in English: how the customer says each line.

Used by planted.py (notebook 06, section 4), which writes the dialog from this
phrasebook or from its Chinese twin (planted_zh.py), line for line parallel. Each
question comes in several phrasings; a question that comes back in a long dialog
is said after the reason it comes back (AGAIN). Every phrasing uses the offline
model's own intent words (offline/intents.py): a test reads each back. Left out:
typos and slang.
"""

from __future__ import annotations

LOOKUPS = ["Where is my order {order}?", "Can you track order {order} for me?",
           "Has my order {order} shipped yet?", "What's the delivery status of order "
           "{order}?"]
REFUNDS = ["I want a refund for order {order}, please.", "I'd like to return order "
           "{order}.", "Can I get my money back for order {order}?"]
PROBES = {  # fact -> ways to ask for it back (the offline model's recall intent)
    "refund": ["What was my refund number again?", "Can you remind me of my refund "
               "number?", "Sorry, what's the refund number again?"],
    "tracking": ["What was the tracking number again?", "Remind me of my tracking "
                 "number, please.", "Sorry, what's the tracking number again?"],
    "order": ["What was my order number again?", "Remind me of my order number, "
              "please.", "Sorry, which order number was that again?"],
}
FILLERS: dict[str, list[str]] = {  # kind of question -> ways to ask it
    "price": ["How much is the {a}?", "What does the {a} cost?",
              "What's the price of the {a}?"],
    "offer": ["Is there any discount on the {a}?", "Any deals on the {a} right now?",
              "Is the {a} on offer at the moment?"],
    "compare": ["What's the difference between the {a} and the {b}?",
                "Compare the {a} vs the {b}", "Which is better, the {a} or the {b}?"],
    "buy": ["I'd like to buy the {a}.", "I'll take the {a}, how do I order it?",
            "I've decided to buy the {a}."],
    "recommend": ["Do you have any new robot vacuums to recommend?",
                  "What new models of robot vacuum do you have?",
                  "Can you suggest a new model of robot vacuum?"],
    "discounts": ["Any discounts at the moment?", "Are there any promotions right now?",
                  "Is anything on sale these days?"],
    "warranty": ["What is the warranty on robot vacuums?", "How long is the warranty "
                 "on a robot vacuum?", "How many years of warranty does a vacuum get?"],
    "return_shipping": ["Who pays the return shipping?", "Do I pay the return "
                        "shipping myself?", "Who covers the shipping fee of a return?"],
    "seven_day": ["How does the 7-day return policy work?", "What are the rules of "
                  "the 7-day return policy?", "What is the policy on no-reason "
                  "returns?"],
    "refund_time": ["How long until my refund arrives?", "How many days until the "
                    "money is back?", "When will I get my money back?"],
    "date": ["What's today's date?", "What day is it today?", "What date is it today?"],
}
AGAIN = ["Just to be sure, once more: ", "Sorry, I've forgotten: ",
         "My family is asking too: "]
# What the customer states, per fact, in the order the dialog states it: why the
# item goes back (after the refund request), how to reach them about the refund, the
# budget for the vacuum they will buy instead, when to deliver that vacuum.
STATED_EN = {
    "reason": ["It stopped charging and shows error {code}.",
               "It keeps showing error {code} and won't turn on.",
               "The screen shows error {code} every time I start it."],
    "contact": ["For any updates, please contact me by {channel} only, no phone "
                "calls.", "Please send me updates by {channel}, don't call me.",
                "If there's news, reach me by {channel}, I can't take calls."],
    "budget": ["I'm also planning to buy a robot vacuum, and my budget is under "
               "{amount} yuan.", "I want to buy another robot vacuum, but I can't "
               "spend more than ¥{amount}.", "If I buy a new robot vacuum, it has to "
               "stay under {amount} yuan."],
    "delivery": ["Please deliver the new vacuum only after {hour} pm, I'm at work "
                 "during the day.", "I'm not home before {hour} pm, so deliver the "
                 "new vacuum in the evening, please.", "Deliveries of the new vacuum "
                 "after {hour} pm only, please."],
}
FACT_PROBES = {  # fact -> ways to ask for it back
    "reason": ["Why did I want the refund?", "Remind me what was wrong with it.",
               "Sorry, what was the problem I reported?"],
    "delivery": ["What time did I say to deliver?", "Remind me when I wanted the "
                 "delivery.", "Sorry, when did I ask you to deliver again?"],
    "contact": ["How did I ask you to contact me?", "Remind me how I wanted to be "
                "contacted.", "Sorry, what did I say about contacting me?"],
    "budget": ["What was my budget again?", "Remind me of my budget.",
               "Sorry, how much did I say I could spend?"],
}


__all__ = ["AGAIN", "FACT_PROBES", "FILLERS", "LOOKUPS", "PROBES", "REFUNDS",
           "STATED_EN"]
