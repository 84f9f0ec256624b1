"""The planted dialog's phrasebook in Chinese: how one Chinese customer says each line.

Used by planted.py (notebook 06, section 4), which holds the English phrasebook and
writes the dialog from either. Every list here is parallel to its English twin, line
for line and of the same length, so one seed picks the same questions in both
languages and the two editions of notebook 06 measure the same conversation. The
customer asks each question once, in one of several phrasings; a question that has
to come back in a long dialog comes with the reason it comes back ("前面问过，再确认
一下："). A comparison weighs two vacuums, never a vacuum against earbuds; the
refund reason names the thing that broke, as a person says it ("扫地机充不进电了");
what the customer states follows from what came before (a budget for the vacuum
they will buy next, a delivery time for that vacuum). Every phrasing uses the
offline model's own intent words (offline/intents.py): a test reads each back. Left
out: typos and slang.
"""

from __future__ import annotations

LOOKUPS_ZH = ["订单 {order} 的物流到哪了？", "帮我查一下订单 {order} 的快递",
              "订单 {order} 发货了吗？", "订单 {order} 现在是什么状态？"]
REFUNDS_ZH = ["订单 {order} 我要退款。", "我想把订单 {order} 退货。",
              "订单 {order} 能退钱吗？"]
PROBES_ZH = {"refund": ["刚才那个退款编号是多少来着？", "能再告诉我一下退款编号吗？",
                        "不好意思，退款单号是多少来着？"],
             "tracking": ["运单号是多少来着？", "再说一下我的快递单号。",
                          "不好意思，物流单号是多少来着？"],
             "order": ["我的订单号是多少来着？", "再说一下我的订单编号。",
                       "不好意思，刚才是哪个订单号来着？"]}
# kind of question -> ways to ask it; {a} and {b} are model names ("S20 Pro")
FILLERS_ZH: dict[str, list[str]] = {
    "price": ["{a} 多少钱？", "{a} 现在卖多少钱？", "{a} 的价格是多少？"],
    "offer": ["{a} 现在有优惠吗？", "{a} 最近有活动吗？", "{a} 能打折吗？"],
    "compare": ["{a} 和 {b} 有什么区别？", "帮我对比一下 {a} 和 {b}",
                "{a} 和 {b} 哪个好？"],
    "buy": ["我想买 {a}。", "{a} 我要了，怎么下单？", "我决定买 {a} 了。"],
    "recommend": ["有没有新款扫地机推荐？", "最近出了什么新款扫地机？",
                  "有新品扫地机可以推荐吗？"],
    "discounts": ["最近有什么优惠吗？", "现在有什么促销活动？", "这几天有打折的吗？"],
    "warranty": ["扫地机保修多久？", "扫地机的质保期是多长？", "扫地机保修几年？"],
    "return_shipping": ["退货运费谁出？", "退货的话运费要我自己出吗？",
                        "寄回去的运费谁来付？"],
    "seven_day": ["七天无理由退货怎么算？", "七天无理由退货是怎么规定的？",
                  "无理由退货有什么规则？"],
    "refund_time": ["退款多久到账？", "退的钱几天能到账？", "钱什么时候能退回来？"],
    "date": ["今天几号？", "今天几月几号？", "今天是几号？"],
}
# Why a question comes back: said before it, so the repeat has a reason.
AGAIN_ZH = ["前面问过，再确认一下：", "不好意思，我记不清了：", "家里人也在问："]
# What the customer calls the thing they return, by the store's product name.
THING = {"Robot Vacuum": "扫地机", "Earbuds": "耳机", "Fitness Band": "手环"}
# Why it goes back, said after the refund request, in one sentence with it; each
# keeps the error code, the fact a probe asks back for.
REASONS_ZH = ["{thing}充不进电了，还一直报错 {code}。",
              "{thing}开不了机，屏幕上显示错误 {code}。",
              "{thing}每次开机都报错 {code}，根本用不了。"]
# What the customer states, in the order the dialog states it: how to reach them
# about the refund, the budget for the vacuum they will buy instead, when to
# deliver that vacuum.
STATED_ZH = {
    "contact": ["后续有进展，请只用{channel}联系我，不要打电话。",
                "有进展请发{channel}告诉我，别打电话。",
                "有消息的话请通过{channel}联系我，我不方便接电话。"],
    "budget": ["我还打算再买一台扫地机，预算在{amount}元以内。",
               "我想另买一台扫地机，最多花{amount}元。",
               "再买扫地机的话，我的预算不超过{amount}元。"],
    "delivery": ["新买的扫地机请晚上{hour}点以后送货，白天我在上班。",
                 "新扫地机请晚上{hour}点以后再配送，我白天不在家。",
                 "扫地机送货请安排在晚上{hour}点以后。"],
}
FACT_PROBES_ZH = {
    "reason": ["我为什么要退款来着？", "再说一下它出了什么问题来着？",
               "不好意思，我之前报的是什么故障？"],
    "delivery": ["我之前说几点以后送货来着？", "再说一下我要求的送货时间来着？",
                 "不好意思，我说过什么时候配送来着？"],
    "contact": ["我之前说怎么联系我来着？", "再说一下我要求的联系方式来着？",
                "不好意思，我说过用什么联系我？"],
    "budget": ["我的预算是多少来着？", "再说一下我的预算来着？",
               "不好意思，我说过最多花多少来着？"],
}
# What a probe asks back, as a Chinese page names it ("探针：退款编号 RF…").
FACTS_ZH = {"refund": "退款编号", "tracking": "运单号", "order": "订单号",
            "reason": "退款原因", "delivery": "送货时间", "contact": "联系方式",
            "budget": "预算"}


def thing(product: str) -> str:
    """What a customer calls a product: "BitMall S10 Pro Robot Vacuum" -> "扫地机"."""
    return next((word for kind, word in THING.items() if product.endswith(kind)), "它")


__all__ = ["AGAIN_ZH", "FACTS_ZH", "FACT_PROBES_ZH", "FILLERS_ZH", "LOOKUPS_ZH",
           "PROBES_ZH", "REASONS_ZH", "REFUNDS_ZH", "STATED_ZH", "THING", "thing"]
