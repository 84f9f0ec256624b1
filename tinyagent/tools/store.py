"""The BitMall store: orders, shipments, catalog and help articles.

Introduced in notebook 00. Plain data, copied fresh for every `bitmall_tools()` so one
notebook's refund never leaks into another. The offline model never imports this file:
everything it says about the store comes from tool results in the messages. Left
out: stock, addresses, customers and anything a real shop keeps in a database.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

CHINA = timezone(timedelta(hours=8))
# The scenario lives on one morning, so every run prints the same dates and numbers.
FIXED_NOW = datetime(2026, 7, 1, 10, 0, 0, tzinfo=CHINA)

ORDERS: dict[str, dict] = {
    "88231": {"product": "BitMall S10 Pro Robot Vacuum", "price": 1999,
              "ordered": "2026-06-20", "status": "delivered", "delivered": "2026-06-22",
              "carrier": "SF Express", "tracking_number": "SF1234567890"},
    "90417": {"product": "BitMall AirX Earbuds", "price": 399, "ordered": "2026-06-28",
              "status": "in transit", "delivered": None,
              "carrier": "YTO Express", "tracking_number": "YT5566778899"},
    "55107": {"product": "BitMall BandPro Fitness Band", "price": 699,
              "ordered": "2026-06-25", "status": "delivered", "delivered": "2026-06-27",
              "carrier": "ZTO Express", "tracking_number": "ZT3344556677"},
    "73820": {"product": "BitMall S10 Lite Robot Vacuum", "price": 1599,
              "ordered": "2026-06-30", "status": "paid, not shipped", "delivered": None,
              "carrier": None, "tracking_number": None},
    "61554": {"product": "BitMall S20 Pro Robot Vacuum", "price": 2499,
              "ordered": "2026-05-10", "status": "delivered", "delivered": "2026-05-13",
              "carrier": "SF Express", "tracking_number": "SF2233445566"},
}

# Shipment events by order, oldest first: (time, event).
EVENTS: dict[str, list[tuple[str, str]]] = {
    "88231": [("2026-06-20 18:20", "picked up"),
              ("2026-06-21 09:10", "arrived at Shanghai transit center"),
              ("2026-06-22 11:35", "signed for by the recipient")],
    "90417": [("2026-06-28 20:05", "picked up in Hangzhou"),
              ("2026-06-29 14:30", "left Hangzhou sorting center"),
              ("2026-07-01 08:15", "arrived at Beijing transit center")],
    "55107": [("2026-06-25 17:40", "picked up"),
              ("2026-06-26 10:20", "arrived at Guangzhou transit center"),
              ("2026-06-27 09:50", "out for delivery"),
              ("2026-06-27 15:05", "signed for by the recipient")],
    "61554": [("2026-05-10 19:00", "picked up"),
              ("2026-05-11 08:30", "arrived at Shenzhen transit center"),
              ("2026-05-13 10:45", "signed for by the recipient")],
}

PRODUCTS: list[dict] = [
    {"name": "BitMall S10 Lite Robot Vacuum", "price": 1599, "new": False,
     "offer": None,
     "features": "entry model: mapping, auto-recharge dock",
     "keywords": "robot vacuum cleaner 扫地机 扫地机器人"},
    {"name": "BitMall S10 Pro Robot Vacuum", "price": 1999, "new": False, "offer": None,
     "features": "mopping, LiDAR mapping, auto-recharge dock",
     "keywords": "robot vacuum cleaner 扫地机 扫地机器人"},
    {"name": "BitMall S20 Pro Robot Vacuum", "price": 2499, "new": True,
     "offer": "launch offer: ¥200 off until 2026-07-15",
     "features": "new model: stronger suction than the S10 series, obstacle avoidance",
     "keywords": "robot vacuum cleaner 扫地机 扫地机器人 新款"},
    {"name": "BitMall S20 Max Robot Vacuum", "price": 2999, "new": True, "offer": None,
     "features": "new model: self-emptying base, stronger suction than the S20 Pro",
     "keywords": "robot vacuum cleaner 扫地机 扫地机器人 新款"},
    {"name": "BitMall AirX Earbuds", "price": 399, "new": False, "offer": None,
     "features": "wireless earbuds, noise cancelling",
     "keywords": "earbuds earphones headphones 耳机"},
    {"name": "BitMall BandPro Fitness Band", "price": 699, "new": False, "offer": None,
     "features": "heart-rate and sleep tracking, 14-day battery",
     "keywords": "fitness band tracker watch 手环"},
]

KNOWLEDGE: list[dict] = [
    {"topic": "7-day return",
     "text": "Returns without a reason are accepted within 7 days, counted from the "
             "day after delivery, if the item and its main accessories are complete.",
     "keywords": "return returns 7-day seven days no reason policy 退货 七天 无理由"},
    {"topic": "quality problems",
     "text": "Quality problems have no 7-day limit but need an after-sales inspection "
             "(1–3 business days) before the refund is approved.",
     "keywords": "quality broken defect fault faulty repair inspection dock "
                 "质量 故障 坏 检测 不回充"},
    {"topic": "return shipping",
     "text": "For returns that are not quality problems the buyer pays the return "
             "shipping, ¥10–15.",
     "keywords": "return shipping postage fee cost 运费 邮费"},
    {"topic": "refund time",
     "text": "Approved refunds reach the original payment method in 1–3 business days.",
     "keywords": "refund time how long when arrive money back payment 退款 到账 多久"},
    {"topic": "warranty",
     "text": "Robot vacuums carry a 1-year warranty.",
     "keywords": "warranty guarantee repair vacuum 保修 质保"},
    {"topic": "promotions",
     "text": "BitMall S20 Pro Robot Vacuum launch offer: ¥200 off until 2026-07-15.",
     "keywords": "offer discount promotion deal sale coupon 活动 优惠 折扣"},
]
