"""A product's name as a summary line or an answer says it: short, as a customer does.

Used by facts.py (the summary's ledger) and wording.py (the clerk's Chinese answers),
notebook 04 and the Chinese edition of 00. A store writes brand, model and kind
("BitMall S10 Pro Robot Vacuum", "比特严选 AirX 无线耳机"); a customer says the model
("S10 Pro", "AirX"). Both rules read only the text they are given, never the store.
Left out: names with two model names in them ("S20 Pro vs S20 Max" names neither).
"""

from __future__ import annotations

import re

from . import forms, intents

NAMED = re.compile(r"\d{5}\s*[（(]([^()（）]{3,60})[)）]")  # "order 88231 (S10 Pro …)"


def product_of(text: str) -> str | None:
    """The product a sentence names: in brackets after an order number, a brand
    phrase, else a model name."""
    named = NAMED.search(text)
    if named and not intents.ORDER_ID.search(named.group(1)):
        return named.group(1).strip()
    brand = intents.BRAND_PHRASE.search(text)
    if brand:
        return brand.group()
    names = forms.products(text)  # "error E12" names no product
    return names[0] if names else None


def short_name(name: str) -> str:
    """A product as a note names it: by its model name when the name is written
    brand, model, kind ("BitMall S10 Pro Robot Vacuum", "比特严选 AirX 无线耳机" ->
    "S10 Pro", "AirX"), as the customer says it; any other name as it is ("Acme
    Blender X2": no brand and kind around the model to drop)."""
    models = forms.products(name)
    at = name.lower().find(models[0].lower()) if len(models) == 1 else -1
    if at < 0:
        return name
    before, after = name[:at].strip(), name[at + len(models[0]):].strip()
    brand = intents.BRAND_PHRASE.fullmatch(name) is not None
    return models[0] if brand or (before and after) else name


__all__ = ["product_of", "short_name"]
