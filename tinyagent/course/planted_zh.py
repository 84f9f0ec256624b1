"""How a Chinese customer says the planted dialog's questions: several ways each.

Used by planted.py (notebook 06, section 4). The English dialog draws one phrasing
per question from a short list, so a 50-turn dialog may ask the same thing twice in
the same words; a Chinese reader notices a customer who asks "扫地机保修多久？" three
times. So each Chinese question comes in several phrasings, and the dialog takes
them in turn: the n-th time an intent comes up, it is said the n-th way. The seed's
draws are not touched, so a seed still picks the same intents, orders and probe
turns in both languages. A comparison names two products of one kind (a vacuum
against a vacuum), and the refund reason names the thing that broke, as a person
says it ("扫地机不回充了"). Every phrasing uses the offline model's own intent words
(offline/intents.py): a test reads each back. Left out: typos and slang.
"""

from __future__ import annotations

from collections import Counter

# One list per filler of planted.FILLERS, in the same order: the same intent said
# several ways. The first phrasing of each is the one the dialog always had.
FILLERS_ZH: list[list[str]] = [
    ["{a} 多少钱？", "{a} 现在卖多少钱？", "请问 {a} 多少钱一台？"],
    ["{a} 的价格是多少？", "{a} 什么价格？", "想问下 {a} 的价格"],
    ["{a} 售价多少？", "{a} 现在售价是多少？", "{a} 的售价能说一下吗？"],
    ["{a} 和 {b} 有什么区别？", "{a} 跟 {b} 有什么不同？", "{a} 和 {b} 哪个好？"],
    ["对比一下 {a} 和 {b}", "帮我比较一下 {a} 和 {b}", "{a} 和 {b} 能对比一下吗？"],
    ["我想买 {a}。", "我打算买一台 {a}。", "{a} 我想下单。"],
    ["有没有新款扫地机推荐？", "最近出了什么新款扫地机？", "有新品扫地机可以推荐吗？"],
    ["推荐一款新品吧", "有什么新款推荐一下？", "最新的型号是哪款？"],
    ["最近有什么优惠吗？", "现在买有折扣吗？", "这几天有促销吗？"],
    ["现在有活动吗？", "最近有没有打折活动？", "有什么优惠活动可以参加？"],
    ["扫地机保修多久？", "扫地机的质保期是多长？", "扫地机保修几年？"],
    ["退货运费谁出？", "退货的话运费要我自己出吗？", "寄回去的运费谁来付？"],
    ["七天无理由退货怎么算？", "七天无理由退货是怎么规定的？",
     "无理由退货有什么规则？"],
    ["退款多久到账？", "退的钱几天能到账？", "钱什么时候能退回来？"],
    ["今天几号？", "今天几月几号？", "今天日期是多少？"],
]
# Pairs a customer would weigh against each other: the vacuums. The store sells one
# pair of earbuds and one band, so a comparison is always between two vacuums.
PAIRS = [("S10 Lite", "S10 Pro"), ("S10 Pro", "S20 Pro"), ("S20 Pro", "S20 Max"),
         ("S10 Lite", "S20 Pro"), ("S10 Pro", "S20 Max"), ("S10 Lite", "S20 Max")]
COMPARE = (3, 4)  # the fillers that name two products
# What the customer calls the thing they return, by the store's product name.
THING = {"Robot Vacuum": "扫地机", "Earbuds": "耳机", "Fitness Band": "手环"}
# Why it goes back, said after the refund request, in one sentence with it; each
# keeps the error code, the fact a probe asks back for.
REASONS_ZH = ["{thing}充不进电了，还一直报错 {code}。",
              "{thing}开不了机，屏幕上显示错误 {code}。",
              "{thing}每次开机都报错 {code}，根本用不了。"]


# What a probe asks back, as a Chinese page names it ("探针：退款编号 RF…").
FACTS_ZH = {"refund": "退款编号", "tracking": "运单号", "order": "订单号",
            "reason": "退款原因", "delivery": "送货时间", "contact": "联系方式",
            "budget": "预算"}


class ChineseFillers:
    """Turns filler draws (an index of FILLERS and two products) into Chinese, each
    intent said a new way each time it comes back."""

    def __init__(self) -> None:
        self.said: Counter[int] = Counter()

    def say(self, index: int, a: str, b: str, products: tuple[str, ...]) -> str:
        ways = FILLERS_ZH[index]
        text = ways[self.said[index] % len(ways)]
        self.said[index] += 1
        if index in COMPARE:  # the seed's two products pick a pair of one kind
            a, b = PAIRS[(products.index(a) * len(products) + products.index(b))
                         % len(PAIRS)]
        return text.format(a=a, b=b)


def thing(product: str) -> str:
    """What a customer calls a product: "BitMall S10 Pro Robot Vacuum" -> "扫地机"."""
    return next((word for kind, word in THING.items() if product.endswith(kind)), "它")


__all__ = ["COMPARE", "FACTS_ZH", "FILLERS_ZH", "PAIRS", "REASONS_ZH", "THING",
           "ChineseFillers", "thing"]
