"""The stand-in for a model provider: a rule-based BitMall clerk, no network, no key.

Introduced in notebook 00. It answers real Chat Completions requests in-process, so
the course and CI run without an API key, and every output is byte-stable. It is a
pure function of the request: what it "remembers" is exactly what the messages hold.

    transport.py     offline_http_client(): the httpx transport the openai SDK uses
    model.py         complete(request) -> response; the misbehaving "+modes"
    reading.py       each distinct message of the requests parsed and counted once
    conversation.py  what the clerk reads from the messages (turn, history, ids)
    intents.py       language, intent and entity rules (regular expressions)
    step.py          one step of the clerk: a reply, and the tool calls it may make
    clerk.py         per intent: which tool next, or the answer
    catalog.py       the catalog questions (new products, price, buy, compare, offers)
    searches.py      what it types into the search tools, in the customer's language
    replies.py       the answers' wording, English and Chinese
    chinese_data.py  a Chinese answer over English tool data, in the clerk's words
    summarize.py     summarize mode: a fact ledger for the memories, merged by entity
    facts.py         the facts a text holds (orders, refunds, products, policies)
    ledger.py        those facts merged by entity, one line each
    items.py         the products' and the policies' shared lines, item by item
    statements.py    the kinds of statement (delivery, contact, budget, reason...)
    forms.py         finding them in a message by the form of its sentences
    cues.py          the words that say which kind a statement is
    voice.py         a statement reduced to its content, in the summary's voice
    person.py        "I" and "you" as a note names them: the customer, the shop
    wording.py       the clerk's Chinese to the customer: 您, offers, choices
    said.py          the clerk noting such a rule, and saying it back when asked
    sections.py      the ledger sorted into notebook 08's seven JSON sections

It never imports the store or the tools: it knows only what the requests carry.
Left out: streaming, sampling parameters, and any understanding beyond its rules.
"""

from .model import BEHAVIOUR_MODES, FAILURE_MODES, MODES, OFFLINE_MODEL, complete
from .summarize import is_summary_request, summarize
from .transport import offline_http_client

__all__ = ["BEHAVIOUR_MODES", "FAILURE_MODES", "MODES", "OFFLINE_MODEL", "complete",
           "is_summary_request", "offline_http_client", "summarize"]
