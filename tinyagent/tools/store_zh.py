"""The BitMall store in Chinese (比特严选): the same shop, with Chinese texts.

Used by `bitmall_tools(lang="zh")`. Orders, ids, prices, amounts and dates are the
English store's own, read from store.py; only the words change: product names
(model names such as "S20 Pro" stay), statuses, carriers, shipment events, help
articles and the tools' own notes. The keywords keep the English words as well, so
a search in either language finds the same articles and products. Left out:
translating the tool schemas, which the model reads, not the customer.
"""

from __future__ import annotations

import copy

from . import store

NAMES = {  # English product name -> Chinese
    "BitMall S10 Lite Robot Vacuum": "比特严选 S10 Lite 扫地机器人",
    "BitMall S10 Pro Robot Vacuum": "比特严选 S10 Pro 扫地机器人",
    "BitMall S20 Pro Robot Vacuum": "比特严选 S20 Pro 扫地机器人",
    "BitMall S20 Max Robot Vacuum": "比特严选 S20 Max 扫地机器人",
    "BitMall AirX Earbuds": "比特严选 AirX 无线耳机",
    "BitMall BandPro Fitness Band": "比特严选 BandPro 运动手环",
}
STATUSES = {"delivered": "已签收", "in transit": "运输中",
            "paid, not shipped": "已付款，未发货"}
CARRIERS = {"SF Express": "顺丰速运", "YTO Express": "圆通速递",
            "ZTO Express": "中通快递"}
EVENT_WORDS = {  # English shipment event -> Chinese
    "picked up": "已揽收",
    "picked up in Hangzhou": "已在杭州揽收",
    "arrived at Shanghai transit center": "到达上海转运中心",
    "arrived at Beijing transit center": "到达北京转运中心",
    "arrived at Guangzhou transit center": "到达广州转运中心",
    "arrived at Shenzhen transit center": "到达深圳转运中心",
    "left Hangzhou sorting center": "离开杭州分拣中心",
    "out for delivery": "派送中",
    "signed for by the recipient": "收件人已签收",
}
FEATURES = {  # English product name -> Chinese features and offer
    "BitMall S10 Lite Robot Vacuum": ("入门款，激光建图，自动回充", None),
    "BitMall S10 Pro Robot Vacuum": ("扫拖一体，激光雷达建图，自动回充", None),
    "BitMall S20 Pro Robot Vacuum": ("新款，吸力比 S10 系列更强，带智能避障",
                                     "新品立减 ¥200，截至 2026-07-15"),
    "BitMall S20 Max Robot Vacuum": ("新款，带自动集尘座，吸力比 S20 Pro 更强", None),
    "BitMall AirX Earbuds": ("无线耳机，主动降噪", None),
    "BitMall BandPro Fitness Band": ("心率和睡眠监测，续航 14 天", None),
}
ARTICLES = {  # English topic -> (Chinese topic, Chinese text)
    "7-day return": ("七天无理由退货", "签收次日起 7 天内支持无理由退货，"
                     "商品及主要配件需齐全。"),
    "quality problems": ("质量问题", "质量问题不受 7 天限制，但需先经售后检测"
                         "（1–3 个工作日），检测通过后再退款。"),
    "return shipping": ("退货运费", "非质量问题退货，运费由买家承担（¥10–15）。"),
    "refund time": ("退款时效", "退款审核通过后，1–3 个工作日内原路退回。"),
    "warranty": ("保修", "扫地机器人整机保修 1 年。"),
    "promotions": ("优惠活动", "比特严选 S20 Pro 扫地机器人新品立减 ¥200，"
                   "活动截至 2026-07-15。"),
}
# The tools' own sentences: the English ones live in bitmall.py.
TEXTS = {
    "not_found": "未找到订单 {0}",
    "hint": "订单号为 5 位数字，请核对后再试",
    "not_shipped": "尚未发货：付款后 48 小时内发货",
    "already": "该订单已申请过退款",
    "approved": "已通过", "pending": "待检测",
    "cancelled_step": "订单在签收前取消，退款原路退回",
    "return_step": "七天无理由退货：请将商品及主要配件寄回；非质量问题的退货运费 "
                   "¥10–15 由买家承担",
    "quality_step": "已超过 7 天无理由退货期，按质量问题处理：售后检测需 1–3 个"
                    "工作日，检测通过后退款",
    "no_article": "没有与 {0!r} 相关的帮助文章",
    "no_product": "没有与 {0!r} 相符的商品",
    "queryOrder": "查询订单：商品、价格、状态、承运商和运单号。",
    "queryLogistics": "查询订单的物流轨迹，按时间先后排列。",
    "applyRefund": "为订单申请退款或退货；返回退款单号。",
    "searchKnowledge": "搜索帮助文章：退货、退款、运费、保修、优惠活动。",
    "getCurrentTime": "中国当前的日期和时间（UTC+8）。",
    "searchProducts": "按名称或品类搜索商品（如 'S20 Pro'、'新款扫地机器人'）；"
                      "返回价格、优惠和功能。",
    "order_id": "5 位数字的订单号，例如 88231",
    "reason": "客户申请的原因",
    "query": "要搜索的内容",
    "product_query": "商品名称或品类",
}


def orders() -> dict[str, dict]:
    """The English orders with Chinese product names, statuses and carriers."""
    result = copy.deepcopy(store.ORDERS)
    for order in result.values():
        order["product"] = NAMES[order["product"]]
        order["status"] = STATUSES[order["status"]]
        order["carrier"] = CARRIERS.get(order["carrier"], order["carrier"])
    return result


def events() -> dict[str, list[tuple[str, str]]]:
    """The same shipment events, at the same times, in Chinese."""
    return {order_id: [(time, EVENT_WORDS[event]) for time, event in steps]
            for order_id, steps in store.EVENTS.items()}


def products() -> list[dict]:
    """The catalog in Chinese; the keywords keep the English name and words."""
    result = copy.deepcopy(store.PRODUCTS)
    for product in result:
        english = product["name"]
        product["features"], product["offer"] = FEATURES[english]
        product["name"] = NAMES[english]
        product["keywords"] = f"{english.lower()} {product['keywords']}"
    return result


def knowledge() -> list[dict]:
    """The help articles in Chinese; the keywords keep the English topic."""
    result = copy.deepcopy(store.KNOWLEDGE)
    for article in result:
        english = article["topic"]
        article["topic"], article["text"] = ARTICLES[english]
        article["keywords"] = f"{english} {article['keywords']}"
    return result
